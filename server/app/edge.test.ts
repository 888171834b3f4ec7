import { randomUUID } from 'node:crypto';
/**
 * The hardened edge through the real process: `server/main.ts` in live mode on a free port,
 * in front of a recording upstream on 127.0.0.1, terminals enrolled with the real CLI.
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SECURITY_HEADERS } from './http/security';
import { startSandbox } from '../testing/processes';
import type { RunningProcess } from '../testing/processes';
import {
  enroll,
  newCode,
  rawRequest,
  start,
  startServer,
  terminalCli,
  waitFor,
} from '../testing/spawn';

const EST = 77;
const BASE = `/api/v4/estabelecimentos/${EST}`;
const OPS = [
  { method: 'POST', path: `${BASE}/fidelidade/pontuar` },
  { method: 'POST', path: `${BASE}/clientes/buscar` },
  { method: 'POST', path: `${BASE}/clientes/cadastrar` },
  { method: 'GET', path: `${BASE}/recompensas` },
];
const RIGHT_PASSWORD = 'senha-certa-2468';

let upstream: Server;
let upstreamUrl: string;
/** Every request the upstream received: "METHOD path". */
const calls: string[] = [];
let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  upstream = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      calls.push(`${req.method} ${req.url}`);
      res.setHeader('content-type', 'application/json');
      if (req.url?.endsWith('/fidelidade/pontuar')) {
        let senha: unknown;
        try {
          senha = (JSON.parse(body) as { senha_atendente?: unknown }).senha_atendente;
        } catch {
          senha = undefined;
        }
        if (senha !== RIGHT_PASSWORD) {
          res.statusCode = 422;
          res.end(
            JSON.stringify({
              success: false,
              message: 'Senha do atendente incorreta.',
              errors: { senha_atendente: ['Senha do atendente incorreta.'] },
              data: {},
            }),
          );
          return;
        }
      }
      res.end('{"success":true,"message":"ok","data":{}}');
    });
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  dir = mkdtempSync(path.join(tmpdir(), 'edge-'));
  env = {
    APP_DB: path.join(dir, 'app.db'),
    APP_SECRET: 'edge-test-secret-0123456789abcdef0123',
    LOYALTY_BASE_URL: upstreamUrl,
    LOYALTY_APP_TOKEN: 'live-app-token',
    LOYALTY_ACCESS_TOKEN: 'live-access-token',
    LOYALTY_ESTABLISHMENT_ID: String(EST),
  };
});
afterAll(async () => {
  await new Promise<void>((r) => upstream.close(() => r()));
  rmSync(dir, { recursive: true, force: true });
});

function send(
  url: string,
  op: { method: string; path: string },
  cookie: string | null,
  body = '{"celular":"+5511987654321"}',
  extra: Record<string, string> = {},
) {
  return fetch(url + op.path, {
    method: op.method,
    headers: {
      ...extra,
      ...(cookie === null ? {} : { cookie }),
      ...(op.method === 'GET' ? {} : { 'content-type': 'application/json', origin: url }),
    },
    body: op.method === 'GET' ? undefined : body,
  });
}

/** Runs `body` against a fresh `server/main.ts` started with `settings`, stopped whatever happens. */
async function withServer(
  settings: Record<string, string>,
  body: (server: RunningProcess) => Promise<void>,
): Promise<void> {
  const server = await startServer(settings);
  try {
    await body(server);
  } finally {
    await server.stop();
  }
}

describe('terminals through the real process', () => {
  test('not enrolled: 401 on every operation, /api/config says so, the upstream never called', async () => {
    await withServer(env, async (server) => {
      const before = calls.length;
      for (const op of OPS) {
        const res = await send(server.url, op, null);
        expect(res.status, op.path).toBe(401);
        expect(await res.json()).toEqual({
          success: false,
          message: 'Este terminal não está registrado. Peça ao gerente um código de registro.',
          data: {},
        });
        // A forged cookie is no better.
        const forged = await send(
          server.url,
          op,
          `pdv_terminal_${new URL(server.url).port}=1.AAAAAAAAAAAA.${'A'.repeat(43)}`,
        );
        expect(forged.status).toBe(401);
      }
      const config = await (await fetch(`${server.url}/api/config`)).json();
      expect(config.data).toMatchObject({ terminal: null, enrollment: 'code' });
      expect(calls.length).toBe(before);
    });
  }, 90_000);

  test('a code enrolls once; revocation refuses the very next request', async () => {
    await withServer(env, async (server) => {
      const { id, code } = await newCode(env, 'caixa', 'Caixa Revogável');
      const res = await fetch(`${server.url}/api/terminal/registrar`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: server.url },
        body: JSON.stringify({ codigo: code.toLowerCase() }),
      });
      expect(res.status).toBe(200);
      const setCookie = res.headers.get('set-cookie')!;
      expect(setCookie).toContain('HttpOnly');
      expect(setCookie).toContain('SameSite=Strict');
      const cookie = setCookie.split(';')[0]!;
      const again = await fetch(`${server.url}/api/terminal/registrar`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: server.url },
        body: JSON.stringify({ codigo: code }),
      });
      expect(again.status).toBe(422);
      expect((await again.json()).message).toBe(
        'Código inválido, já usado ou expirado. Peça um novo código ao gerente.',
      );

      const config = await (
        await fetch(`${server.url}/api/config`, { headers: { cookie } })
      ).json();
      expect(config.data.terminal).toEqual({
        id,
        name: 'Caixa Revogável',
        role: 'caixa',
        navigation: {
          caixa: true,
          premios: false,
          painel: false,
          auditoria: false,
          lancamentos: false,
          vigilancia: false,
          terminais: false,
          quiosque: false,
        },
      });
      const before = calls.length;
      expect((await send(server.url, OPS[1]!, cookie)).status).toBe(200);
      expect(calls.length).toBe(before + 1);

      expect(await terminalCli(['revoke', String(id)], env)).toContain(`Terminal ${id} revogado`);
      const refused = await send(server.url, OPS[1]!, cookie);
      expect(refused.status).toBe(401);
      expect(calls.length).toBe(before + 1);
      expect(await terminalCli(['list'], env)).toMatch(
        new RegExp(`^${id}\\tcaixa\\tCaixa Revogável\\trevogado`, 'm'),
      );
    });
  }, 90_000);

  test('roles: a kiosk gets 403 on every raw route; a caixa sees one customer’s rewards, not the table', async () => {
    await withServer(env, async (server) => {
      const kiosk = await enroll(server.url, (await newCode(env, 'quiosque', 'Quiosque')).code);
      const caixa = await enroll(server.url, (await newCode(env, 'caixa', 'Caixa 2')).code);
      const gerente = await enroll(server.url, (await newCode(env, 'gerente', 'Gerência')).code);
      const before = calls.length;
      for (const op of OPS) {
        const res = await send(server.url, op, kiosk);
        expect(res.status, op.path).toBe(403);
        expect((await res.json()).message).toBe(
          'O perfil deste terminal não permite esta operação.',
        );
      }
      expect(calls.length).toBe(before);
      expect((await send(server.url, OPS[3]!, caixa)).status).toBe(403);
      const one = { method: 'GET', path: `${BASE}/recompensas?id_cliente=3` };
      expect((await send(server.url, one, caixa)).status).toBe(200);
      expect((await send(server.url, OPS[3]!, gerente)).status).toBe(200);
      expect(calls.length).toBe(before + 2);
    });
  }, 90_000);
});

describe('one query, behind proxies, through the real process', () => {
  test('a parameter sent twice: 400 on each of the four operations, never forwarded; a caixa gets one customer’s rewards only', async () => {
    await withServer(env, async (server) => {
      const caixa = await enroll(server.url, (await newCode(env, 'caixa', 'Caixa Query')).code);
      const before = calls.length;
      const twice: Record<string, string> = {
        pontuar: '?valor_gasto=100&valor_gasto=1',
        buscar: '?celular=%2B5511900000001&celular=',
        cadastrar: '?celular=%2B5511900000001&celular=',
        recompensas: '?id_cliente=1&id_cliente=',
      };
      const seen: string[] = [];
      for (const [i, op] of OPS.entries()) {
        const name = Object.keys(twice)[i]!;
        const res = await send(
          server.url,
          { method: op.method, path: op.path + twice[name] },
          caixa,
          JSON.stringify({
            cliente: { celular: '+5511987654321' },
            valor_gasto: 100,
            senha_atendente: RIGHT_PASSWORD,
          }),
          { 'idempotency-key': randomUUID() },
        );
        const body = (await res.json()) as { message: string };
        seen.push(`${name} ${res.status}`);
        expect(res.status, name).toBe(400);
        expect(body.message, name).toMatch(
          /^(O parâmetro \w+ foi enviado mais de uma vez|Parâmetro não aceito nesta operação)/,
        );
      }
      expect(calls.length).toBe(before);
      // The attack of the report: the manager's whole list, asked as one customer's.
      const widened = `${BASE}/recompensas?id_cliente=1&id_cliente=`;
      expect((await send(server.url, { method: 'GET', path: widened }, caixa)).status).toBe(400);
      const one = await send(
        server.url,
        { method: 'GET', path: `${BASE}/recompensas?id_cliente=1` },
        caixa,
      );
      expect(one.status).toBe(200);
      expect(calls.slice(before)).toEqual([`GET ${BASE}/recompensas?id_cliente=1`]);
      console.log(`repeated parameters as a caixa: ${seen.join(', ')}; upstream calls: 0`);
    });
  }, 90_000);

  test('behind a trusted proxy a guesser locks out only itself: a terminal of the store enrolls meanwhile', async () => {
    // This test's client is the proxy (127.0.0.1): X-Forwarded-For is what it appended. A
    // store of its own, so the locks it leaves touch no other test.
    const proxied = {
      ...env,
      APP_DB: path.join(dir, 'trusted-proxy.db'),
      TRUSTED_PROXIES: '10.0.0.9, 127.0.0.1',
    };
    await withServer(proxied, async (server) => {
      const register = (codigo: string, forwardedFor: string) =>
        fetch(`${server.url}/api/terminal/registrar`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            origin: server.url,
            'x-forwarded-for': forwardedFor,
          },
          body: JSON.stringify({ codigo }),
        });
      const statuses: number[] = [];
      for (let i = 0; i < 14; i++) {
        // The guesser forges a new address each time; the proxy appends its real one.
        const res = await register('AAAA-AAAA', `198.51.100.${i}, 203.0.113.9`);
        statuses.push(res.status);
      }
      expect(statuses).toEqual([...Array(10).fill(422), ...Array(4).fill(429)]);
      const { id, code } = await newCode(proxied, 'caixa', 'Caixa Loja');
      const legit = await register(code, '192.168.0.21');
      expect(legit.status).toBe(200);
      const cookie = legit.headers.get('set-cookie')!.split(';')[0]!;
      const config = await (
        await fetch(`${server.url}/api/config`, { headers: { cookie } })
      ).json();
      expect(config.data.terminal).toMatchObject({ id, role: 'caixa' });
      // The guesser, even with a valid code, waits out its minute.
      const guesser = await register(
        (await newCode(proxied, 'caixa', 'Caixa X')).code,
        '203.0.113.9',
      );
      expect(guesser.status).toBe(429);
      expect(Number(guesser.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      console.log(
        `trusted proxy: guesser 203.0.113.9 → ${statuses.filter((x) => x === 422).length}×422, ${statuses.filter((x) => x === 429).length}×429; terminal 192.168.0.21 → ${legit.status}`,
      );
    });
  }, 90_000);

  test('X-Forwarded-For from a sender that is not a trusted proxy is ignored', async () => {
    await withServer(
      {
        ...env,
        APP_DB: path.join(dir, 'untrusted-sender.db'),
        TRUSTED_PROXIES: '10.0.0.9',
      },
      async (server) => {
        const statuses: number[] = [];
        for (let i = 0; i < 12; i++) {
          const res = await fetch(`${server.url}/api/terminal/registrar`, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              origin: server.url,
              'x-forwarded-for': `203.0.113.${i}`,
            },
            body: JSON.stringify({ codigo: 'AAAA-AAAA' }),
          });
          statuses.push(res.status);
        }
        // Every guess counted against the one real address, whatever the header said.
        expect(statuses).toEqual([...Array(10).fill(422), 429, 429]);
      },
    );
  }, 90_000);
});

describe('the edge through the real process', () => {
  test('foreign Host, cross-site form POST, other methods and sub-paths: refused, never forwarded', async () => {
    await withServer(env, async (server) => {
      const cookie = await enroll(server.url, (await newCode(env, 'gerente', 'Gerência 2')).code);
      const before = calls.length;
      const port = new URL(server.url).port;

      // DNS rebinding: the page's own origin is evil.example, resolved to 127.0.0.1.
      for (const host of [`evil.example:${port}`, `localhost.evil.example:${port}`, '10.0.0.1']) {
        const res = await rawRequest(server.url, {
          method: 'GET',
          path: `${BASE}/recompensas`,
          headers: { host, cookie },
        });
        expect(res.status, host).toBe(421);
        expect(JSON.parse(res.body).message).toBe('Endereço não reconhecido por este servidor.');
      }
      const page = await rawRequest(server.url, {
        method: 'GET',
        path: '/',
        headers: { host: 'evil.example' },
      });
      expect(page.status).toBe(421);

      // A cross-site form (SameSite=Strict keeps the cookie home; the Origin check holds even
      // if a browser sent it).
      const form = await fetch(`${server.url}${BASE}/fidelidade/pontuar`, {
        method: 'POST',
        headers: {
          cookie,
          origin: 'https://evil.example',
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: 'valor_gasto=100&senha_atendente=x',
      });
      expect(form.status).toBe(403);
      expect((await form.json()).message).toBe(
        'Requisição recusada: ela não veio desta aplicação.',
      );
      const noOrigin = await fetch(`${server.url}${BASE}/clientes/buscar`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(noOrigin.status).toBe(403);
      const sameOriginForm = await fetch(`${server.url}${BASE}/clientes/buscar`, {
        method: 'POST',
        headers: { cookie, origin: server.url, 'content-type': 'text/plain' },
        body: '{}',
      });
      expect(sameOriginForm.status).toBe(415);

      for (const method of ['PUT', 'DELETE', 'PATCH', 'PROPFIND', 'TRACE', 'OPTIONS']) {
        for (const op of OPS) {
          const res = await rawRequest(server.url, {
            method,
            path: op.path,
            headers: { cookie, origin: server.url, 'content-type': 'application/json' },
          });
          expect(res.status, `${method} ${op.path}`).toBe(405);
          expect(res.headers.allow).toBe(op.method);
          expect(JSON.parse(res.body).message).toBe('Método não permitido.');
        }
      }
      for (const sub of [
        `${BASE}`,
        `${BASE}/clientes`,
        `${BASE}/clientes/buscar/1`,
        `${BASE}/fidelidade/estornar`,
        `${BASE}/recompensas/5`,
        `${BASE}/admin`,
      ]) {
        const res = await rawRequest(server.url, {
          method: 'GET',
          path: sub,
          headers: { cookie },
        });
        expect(res.status, sub).toBe(404);
        expect(JSON.parse(res.body).message).toBe('Rota não encontrada.');
      }
      expect(calls.length).toBe(before);
    });
  }, 60_000);

  test('request ids are echoed and logged; API answers are no-store', async () => {
    await withServer(env, async (server) => {
      const given = await fetch(`${server.url}/api/config`, {
        headers: { 'x-request-id': 'caixa-1-abc12345' },
      });
      expect(given.headers.get('x-request-id')).toBe('caixa-1-abc12345');
      expect(given.headers.get('cache-control')).toBe('no-store');
      const made = await fetch(`${server.url}${BASE}/recompensas`);
      const id = made.headers.get('x-request-id')!;
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(made.headers.get('cache-control')).toBe('no-store');
      // The log line of the second request, written after its answer.
      await waitFor(() => server.out.stdout, new RegExp(`"requestId":"${id}"`));
      const lines = server.out.stdout.split('\n').filter((l) => l.includes('"msg":"request"'));
      expect(lines.some((l) => l.includes('"requestId":"caixa-1-abc12345"'))).toBe(true);
      expect(lines.find((l) => l.includes(id))).toContain('"status":401');
    });
  }, 90_000);

  /** One attendant-password guess on pontuar; status and message. */
  // A sale the service would take but for its password: only the password is guessed (a body
  // the app server can tell is wrong is refused before it, and is no guess).
  async function guess(url: string, cookie: string, senha: string, valor = 100) {
    const res = await send(
      url,
      OPS[0]!,
      cookie,
      JSON.stringify({
        valor_gasto: valor,
        senha_atendente: senha,
        cliente: { celular: '+5511987654321' },
      }),
      // Every guess is a new sale: pontuar goes through the postings journal.
      { 'idempotency-key': randomUUID() },
    );
    const json = (await res.json()) as {
      message: string;
      data: { segundos_restantes?: number; bloqueado_ate?: string };
    };
    return { res, json };
  }
  const pontuarCalls = () => calls.filter((c) => c.includes('pontuar')).length;

  test('10,000 password guesses: locked after 5, measured and printed', async () => {
    await withServer(env, async (server) => {
      const cookie = await enroll(server.url, (await newCode(env, 'caixa', 'Caixa Alvo')).code);
      const reachedBefore = pontuarCalls();
      const statuses = new Map<string, number>();
      const started = performance.now();
      let next = 0;
      const GUESSES = 10_000;
      async function worker(): Promise<void> {
        while (next < GUESSES) {
          const i = next++;
          const { res, json } = await guess(server.url, cookie, `chute-${i}`);
          const kind =
            res.status === 429
              ? json.message.startsWith('Senha do atendente bloqueada')
                ? '429 senha bloqueada'
                : '429 limite de requisições'
              : String(res.status);
          statuses.set(kind, (statuses.get(kind) ?? 0) + 1);
        }
      }
      await Promise.all(Array.from({ length: 16 }, worker));
      const seconds = (performance.now() - started) / 1000;
      const reached = pontuarCalls() - reachedBefore;
      console.log(
        `10,000 password guesses in ${seconds.toFixed(1)} s (16 in parallel): ${reached} reached the upstream; ` +
          [...statuses].map(([k, n]) => `${k}: ${n}`).join(', '),
      );
      // The first lock lasts 1 min, then 2, 4...: on a machine so loaded that the run
      // outlasts a lock, each expiry lets 5 more guesses through, never more.
      let expiries = 0;
      for (let lock = 60, t = lock; t < seconds; lock *= 2, t += lock) expiries++;
      expect(reached).toBe(5 * (1 + expiries));
      expect(statuses.get('422')).toBe(4 * (1 + expiries));
      expect(
        (statuses.get('429 senha bloqueada') ?? 0) +
          (statuses.get('429 limite de requisições') ?? 0),
      ).toBe(GUESSES - 4 * (1 + expiries));
    });
  }, 180_000);

  test('the password lock survives a restart: even the right password waits', async () => {
    let server = await startServer(env);
    const cookie = await enroll(server.url, (await newCode(env, 'caixa', 'Caixa Reinício')).code);
    const reachedBefore = pontuarCalls();
    try {
      for (let i = 0; i < 4; i++) {
        expect((await guess(server.url, cookie, `errada-${i}`)).res.status).toBe(422);
      }
      const fifth = await guess(server.url, cookie, 'errada-4');
      expect(fifth.res.status).toBe(429);
      const until = Date.parse(fifth.json.data.bloqueado_ate!);

      // Same port: over plain http the cookie's name carries it.
      const port = new URL(server.url).port;
      expect(await server.stop()).toBe(0);
      server = await startServer({ ...env, PORT: port });
      const { res, json } = await guess(server.url, cookie, RIGHT_PASSWORD, 100);
      expect(Date.now()).toBeLessThan(until); // the restart fit in the lock
      expect(res.status).toBe(429);
      expect(json.message).toMatch(
        /^Senha do atendente bloqueada neste terminal após várias tentativas incorretas\. Tente novamente em (\d+ min( \d+ s)?|\d+ s)\.$/,
      );
      expect(json.data.segundos_restantes).toBeGreaterThan(0);
      expect(Number(res.headers.get('retry-after'))).toBe(json.data.segundos_restantes);
      expect(pontuarCalls() - reachedBefore).toBe(5);
    } finally {
      await server.stop();
    }
  }, 60_000);

  test('PUBLIC_ORIGIN https: only its Host, HSTS and a __Host- Secure cookie', async () => {
    await withServer({ ...env, PUBLIC_ORIGIN: 'https://pdv.example.com' }, async (server) => {
      const ok = await rawRequest(server.url, {
        method: 'GET',
        path: '/api/config',
        headers: { host: 'pdv.example.com' },
      });
      expect(ok.status).toBe(200);
      expect(ok.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      const local = await rawRequest(server.url, {
        method: 'GET',
        path: '/api/config',
        headers: { host: new URL(server.url).host },
      });
      expect(local.status).toBe(421);
      const { code } = await newCode(env, 'caixa', 'Caixa HTTPS');
      const enrolled = await rawRequest(server.url, {
        method: 'POST',
        path: '/api/terminal/registrar',
        headers: {
          host: 'pdv.example.com',
          origin: 'https://pdv.example.com',
          'content-type': 'application/json',
        },
        body: JSON.stringify({ codigo: code }),
      });
      expect(enrolled.status).toBe(200);
      expect(String(enrolled.headers['set-cookie'])).toMatch(
        /^__Host-pdv_terminal=[^;]+; Max-Age=\d+; Path=\/; HttpOnly; Secure; SameSite=Strict$/,
      );
    });
  }, 90_000);

  test('npm run sandbox alone sends the same security headers', async () => {
    const sandbox = await startSandbox(path.join(dir, 'alone.db'));
    try {
      const res = await fetch(`${sandbox.url}/api/v4/estabelecimentos/1/recompensas`);
      expect(res.status).toBe(401); // no tokens
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
        expect(res.headers.get(name), name).toBe(value);
      }
      expect(res.headers.get('cache-control')).toBe('no-store');
    } finally {
      await sandbox.stop();
    }
  }, 90_000);

  test.each([
    [
      { LOYALTY_BASE_URL: 'http://api.example.com' },
      /^fidelidade-pdv: LOYALTY_BASE_URL must be https:\/\//,
    ],
    [{ HOST: '0.0.0.0' }, /^fidelidade-pdv: HOST=0\.0\.0\.0 is not a loopback address/],
    [{ APP_SECRET: '' }, /^fidelidade-pdv: live mode needs APP_SECRET/],
  ])(
    'refuses to start with %o',
    async (override, message) => {
      const { out, exited } = start({ ...env, PORT: '0', ...override });
      expect(await exited).toBe(1);
      expect(out.stderr.trim()).toMatch(message);
    },
    30_000,
  );
});
