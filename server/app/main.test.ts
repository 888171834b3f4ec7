import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readEngines } from '../ops/runtime';
import { enroll, newCode, root, start, unsupportedSystemNode, waitFor } from '../testing/spawn';
import { GERENTE_NAVIGATION } from './testing/requests';

const SECRET = 'main-test-secret-0123456789abcdef0123';

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
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'main-live-'));
  });
  afterAll(async () => {
    await new Promise<void>((r) => upstream.close(() => r()));
    rmSync(dir, { recursive: true, force: true });
  });

  test('listens on the port it prints, proxies with the tokens and stops on SIGTERM', async () => {
    const store = { APP_DB: path.join(dir, 'app.db') };
    const {
      child,
      out,
      exited: done,
    } = start({
      ...store,
      APP_SECRET: SECRET,
      PORT: '0',
      LOYALTY_BASE_URL: upstreamUrl,
      LOYALTY_APP_TOKEN: 'live-app-token-xyz',
      LOYALTY_ACCESS_TOKEN: 'live-access-token-xyz',
      LOYALTY_ESTABLISHMENT_ID: '77',
      LOYALTY_ESTABLISHMENT_NAME: 'Loja Centro',
    });
    try {
      const [line, url] = await waitFor(
        () => out.stdout,
        /listening on (http:\/\/127\.0\.0\.1:(\d+))[^"]*/,
      );
      expect(url).not.toMatch(/:0$/);
      expect(line).toContain(`(Node.js ${process.version})`);
      expect(line).toContain('terminals need an enrollment code');

      const config = await fetch(`${url}/api/config`);
      expect(await config.json()).toEqual({
        success: true,
        message: 'Configuração do terminal.',
        data: {
          establishmentId: 77,
          establishmentName: 'Loja Centro',
          mode: 'live',
          terminal: null,
          enrollment: 'code',
          entregaPremios: true,
        },
      });

      const { code } = await newCode(store, 'caixa', 'Caixa 1');
      const cookie = await enroll(url!, code);
      const res = await fetch(`${url}/api/v4/estabelecimentos/77/clientes/buscar`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'access-token': 'from-browser',
          origin: url!,
          cookie,
        },
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
      expect(seen[0]!.url).toBe('/api/v4/estabelecimentos/77/clientes/buscar');
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
  }, 90_000);

  test('missing variables stop it with one line naming them, never a token', async () => {
    const { out, exited } = start({
      LOYALTY_BASE_URL: upstreamUrl,
      LOYALTY_APP_TOKEN: 'live-app-token-xyz',
      APP_SECRET: SECRET,
      PORT: '0',
    });
    expect(await exited).toBe(1);
    expect(out.stderr.trim().split('\n')).toEqual([
      'fidelidade-pdv: live mode (LOYALTY_BASE_URL is set) needs LOYALTY_ACCESS_TOKEN, LOYALTY_ESTABLISHMENT_ID',
    ]);
    expect(out.stdout + out.stderr).not.toContain('live-app-token-xyz');
  }, 90_000);

  const system = unsupportedSystemNode();
  test.skipIf(system === null)(
    `on the machine's own unsupported Node.js (${system?.version ?? 'none here'}) it says so first`,
    async () => {
      const { out, exited } = start(
        { LOYALTY_BASE_URL: upstreamUrl, APP_SECRET: SECRET, PORT: '0' },
        system!.path,
      );
      expect(await exited).toBe(1);
      expect(out.stderr.trim().split('\n')).toEqual([
        `fidelidade-pdv: warning: Node.js ${system!.version} (${system!.path}) is not supported (package.json engines: ${readEngines(root)}); start it with npm start, or node_modules/.bin/node`,
        'fidelidade-pdv: live mode (LOYALTY_BASE_URL is set) needs LOYALTY_APP_TOKEN, LOYALTY_ACCESS_TOKEN, LOYALTY_ESTABLISHMENT_ID',
      ]);
    },
    90_000,
  );
});

describe('server/main.ts in sandbox mode', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'main-sandbox-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('embeds the sandbox with the chosen demo establishment and its tokens', async () => {
    const {
      child,
      out,
      exited: done,
    } = start({
      PORT: '0',
      SANDBOX_DB: path.join(dir, 'nested', 'sandbox.db'),
      APP_DB: path.join(dir, 'nested', 'app.db'),
      LOYALTY_ESTABLISHMENT_ID: '2',
    });
    try {
      const [line, url] = await waitFor(
        () => out.stdout,
        /listening on (http:\/\/127\.0\.0\.1:\d+)[^"]*/,
      );
      expect(line).toContain('enrolled automatically as gerente');
      // Without a credential nothing but /api/config answers, even here.
      expect((await fetch(`${url}/api/v4/estabelecimentos/2/recompensas`)).status).toBe(401);
      const configRes = await fetch(`${url}/api/config`);
      const config = await configRes.json();
      expect(config.data).toEqual({
        establishmentId: 2,
        establishmentName: 'Café Carência',
        mode: 'sandbox',
        terminal: {
          id: 1,
          name: 'Navegador local (sandbox)',
          role: 'gerente',
          navigation: GERENTE_NAVIGATION,
        },
        enrollment: 'auto',
        entregaPremios: true,
      });
      const setCookie = configRes.headers.get('set-cookie')!;
      expect(setCookie).toMatch(
        /^pdv_terminal_\d+=1\.[\w-]+\.[\w-]+; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Strict$/,
      );
      const cookie = setCookie.split(';')[0]!;

      // Establishment 2 starts with no customers: the sandbox itself answers, with the tokens accepted.
      const res = await fetch(`${url}/api/v4/estabelecimentos/2/clientes/buscar`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: url!, cookie },
        body: '{"celular":"+5511987654321"}',
      });
      expect(res.status).toBe(404);
      expect((await res.json()).message).toBe('Cliente não encontrado');
      const list = await fetch(`${url}/api/v4/estabelecimentos/2/recompensas`, {
        headers: { cookie },
      });
      expect(list.status).toBe(200);
      expect(
        (await fetch(`${url}/api/v4/estabelecimentos/1/recompensas`, { headers: { cookie } }))
          .status,
      ).toBe(403);

      child.kill('SIGINT');
      expect(await done).toBe(0);
      expect(out.stdout).not.toContain('demo-access-token');
    } finally {
      child.kill('SIGKILL');
    }
  }, 90_000);

  test('an establishment the sandbox does not have stops it with one line', async () => {
    const { out, exited } = start({
      PORT: '0',
      SANDBOX_DB: path.join(dir, 'sandbox.db'),
      APP_DB: path.join(dir, 'app.db'),
      LOYALTY_ESTABLISHMENT_ID: '99',
    });
    expect(await exited).toBe(1);
    expect(out.stderr.trim()).toBe(
      'fidelidade-pdv: LOYALTY_ESTABLISHMENT_ID=99 is not a sandbox establishment (known: 1, 2)',
    );
  }, 90_000);
});
