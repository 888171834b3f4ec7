import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const tsx = path.join(root, 'node_modules', '.bin', 'tsx');

function start(env: Record<string, string>): ChildProcess {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !k.startsWith('LOYALTY_') && k !== 'PORT' && k !== 'HOST',
    ),
  );
  return spawn(tsx, ['server/main.ts'], { cwd: root, env: { ...clean, ...env }, stdio: 'pipe' });
}

function collect(child: ChildProcess) {
  const out = { stdout: '', stderr: '' };
  child.stdout?.on('data', (d: Buffer) => (out.stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out.stderr += d.toString()));
  return out;
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

async function waitFor(
  read: () => string,
  pattern: RegExp,
  ms = 15_000,
): Promise<RegExpMatchArray> {
  const until = Date.now() + ms;
  for (;;) {
    const m = read().match(pattern);
    if (m) return m;
    if (Date.now() > until) throw new Error(`timed out waiting for ${pattern}: ${read()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('server/main.ts in live mode', () => {
  let upstream: Server;
  let upstreamUrl: string;
  const seen: { url: string; headers: IncomingHttpHeaders; body: string }[] = [];

  beforeAll(async () => {
    upstream = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        seen.push({ url: req.url ?? '', headers: req.headers, body });
        res.writeHead(404, { 'content-type': 'application/json', 'set-cookie': 'x=1' });
        res.end('{"success":false,"message":"Cliente não encontrado","data":{}}');
      });
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => upstream.close(() => r())));

  test('listens on the port it prints, proxies with the tokens and stops on SIGTERM', async () => {
    const child = start({
      PORT: '0',
      LOYALTY_BASE_URL: upstreamUrl,
      LOYALTY_APP_TOKEN: 'live-app-token-xyz',
      LOYALTY_ACCESS_TOKEN: 'live-access-token-xyz',
      LOYALTY_ESTABLISHMENT_ID: '77',
      LOYALTY_ESTABLISHMENT_NAME: 'Loja Centro',
    });
    const out = collect(child);
    const done = exited(child);
    try {
      const [, url] = await waitFor(() => out.stdout, /listening on (http:\/\/127\.0\.0\.1:(\d+))/);
      expect(url).not.toMatch(/:0$/);

      const config = await fetch(`${url}/api/config`);
      expect(await config.json()).toEqual({
        success: true,
        message: 'Configuração do terminal.',
        data: { establishmentId: 77, establishmentName: 'Loja Centro', mode: 'live' },
      });

      const res = await fetch(`${url}/api/v4/estabelecimentos/77/clientes/buscar?x=1`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'access-token': 'from-browser' },
        body: '{"celular":"+5511987654321"}',
      });
      expect(res.status).toBe(404);
      expect(res.headers.get('set-cookie')).toBeNull();
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(await res.json()).toEqual({
        success: false,
        message: 'Cliente não encontrado',
        data: {},
      });
      expect(seen).toHaveLength(1);
      expect(seen[0]!.url).toBe('/api/v4/estabelecimentos/77/clientes/buscar?x=1');
      expect(seen[0]!.headers['app-token']).toBe('live-app-token-xyz');
      expect(seen[0]!.headers['access-token']).toBe('live-access-token-xyz');
      expect(seen[0]!.body).toBe('{"celular":"+5511987654321"}');

      child.kill('SIGTERM');
      expect(await done).toBe(0);
      expect(out.stdout).not.toContain('live-app-token-xyz');
      expect(out.stdout).not.toContain('live-access-token-xyz');
      expect(out.stdout).not.toContain('5511987654321');
    } finally {
      child.kill('SIGKILL');
    }
  }, 30_000);

  test('missing variables stop it with one line naming them, never a token', async () => {
    const child = start({
      LOYALTY_BASE_URL: upstreamUrl,
      LOYALTY_APP_TOKEN: 'live-app-token-xyz',
      PORT: '0',
    });
    const out = collect(child);
    expect(await exited(child)).toBe(1);
    expect(out.stderr.trim().split('\n')).toEqual([
      'fidelidade-pdv: live mode (LOYALTY_BASE_URL is set) needs LOYALTY_ACCESS_TOKEN, LOYALTY_ESTABLISHMENT_ID',
    ]);
    expect(out.stdout + out.stderr).not.toContain('live-app-token-xyz');
  }, 30_000);
});

describe('server/main.ts in sandbox mode', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'main-sandbox-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('embeds the sandbox with the chosen demo establishment and its tokens', async () => {
    const child = start({
      PORT: '0',
      SANDBOX_DB: path.join(dir, 'nested', 'sandbox.db'),
      LOYALTY_ESTABLISHMENT_ID: '2',
    });
    const out = collect(child);
    const done = exited(child);
    try {
      const [, url] = await waitFor(() => out.stdout, /listening on (http:\/\/127\.0\.0\.1:\d+)/);
      const config = await (await fetch(`${url}/api/config`)).json();
      expect(config.data).toEqual({
        establishmentId: 2,
        establishmentName: 'Café Carência',
        mode: 'sandbox',
      });

      // Establishment 2 starts with no customers: the sandbox itself answers, with the tokens accepted.
      const res = await fetch(`${url}/api/v4/estabelecimentos/2/clientes/buscar`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"celular":"+5511987654321"}',
      });
      expect(res.status).toBe(404);
      expect((await res.json()).message).toBe('Cliente não encontrado');
      const list = await fetch(`${url}/api/v4/estabelecimentos/2/recompensas`);
      expect(list.status).toBe(200);
      expect((await fetch(`${url}/api/v4/estabelecimentos/1/recompensas`)).status).toBe(403);

      child.kill('SIGINT');
      expect(await done).toBe(0);
      expect(out.stdout).not.toContain('demo-access-token');
    } finally {
      child.kill('SIGKILL');
    }
  }, 30_000);

  test('an establishment the sandbox does not have stops it with one line', async () => {
    const child = start({
      PORT: '0',
      SANDBOX_DB: path.join(dir, 'sandbox.db'),
      LOYALTY_ESTABLISHMENT_ID: '99',
    });
    const out = collect(child);
    expect(await exited(child)).toBe(1);
    expect(out.stderr.trim()).toBe(
      'fidelidade-pdv: LOYALTY_ESTABLISHMENT_ID=99 is not a sandbox establishment (known: 1, 2)',
    );
  }, 30_000);
});
