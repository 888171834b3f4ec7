import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { enrollDirectly, openStore } from '../store';
import type { Role, Store } from '../store';
import { createAppServer } from '../app/app';
import type { AppServer } from '../app/app';
import type { AppServerOptions } from '../app/options';
import type { Fetcher as Upstream } from '../app/upstream/client';
import { credentialCookieName } from '../app/http/access/terminal';
import { signCredential } from '../app/domain/credential';

/**
 * `value` as JSON without the named fields, at any depth: what a leak check reads when some
 * fields are generated (ids, times, pids) and may hold a short run of digits by chance.
 */
export function jsonWithout(value: unknown, keys: readonly string[]): string {
  const drop = new Set(keys);
  return JSON.stringify(value, (key, v: unknown) => (drop.has(key) ? undefined : v));
}

export const APP_TOKEN = 'app-token-SECRET-7f3a';
export const ACCESS_TOKEN = 'access-token-SECRET-91bc';

/** A fake upstream that records each request it receives (with its body read). */
export function recordingUpstream(
  answer: (req: Request) => Response | Promise<Response> = () =>
    Response.json({ success: true, message: 'ok', data: {} }),
) {
  const received: { url: string; method: string; headers: Headers; body: string }[] = [];
  const upstream: Upstream = {
    async fetch(req) {
      received.push({
        url: req.url,
        method: req.method,
        headers: new Headers(req.headers),
        body: await req.clone().text(),
      });
      return answer(req);
    },
  };
  return { upstream, received };
}

/** A logger writing into an array, one entry per JSON line. */
export function capturedLogger() {
  const lines: string[] = [];
  const logger = pino({ level: 'info' }, { write: (s: string) => void lines.push(s) });
  return { logger, lines };
}

export const TEST_SECRET = 'test-secret-0123456789abcdef0123456789';

/** What tests call: Hono's `request`, made by an enrolled browser (see makeApp). */
export interface TestApp {
  request(input: string, init?: RequestInit): Promise<Response>;
}

/**
 * The app server over an in-memory store, seen from the browser of an enrolled terminal
 * (`as`, default gerente; null: a browser that is not enrolled). Its requests carry the
 * credential cookie and, when not GET/HEAD, a same-origin `Origin` unless the test sets one.
 * Rate limits are out of the way unless the test passes `limits`.
 */
export function makeApp(overrides: Partial<AppServerOptions> = {}, as: Role | null = 'gerente') {
  const log = capturedLogger();
  const rec = recordingUpstream();
  const ready = (async () => {
    const store: Store = overrides.store ?? (await openStore({ sqlitePath: ':memory:' }));
    const raw: AppServer = createAppServer({
      mode: 'live',
      upstream: rec.upstream,
      upstreamBaseUrl: 'https://api.example.com',
      appToken: APP_TOKEN,
      accessToken: ACCESS_TOKEN,
      establishmentId: 1,
      establishmentName: 'Loja Demo',
      distDir: '/nonexistent/dist',
      logger: log.logger,
      store,
      secret: TEST_SECRET,
      publicOrigin: null,
      autoEnroll: false,
      limits: {
        burst: { limit: 1_000_000, windowMs: 1_000 },
        sustained: { limit: 1_000_000, windowMs: 1_000 },
      },
      ...overrides,
    });
    let cookie: string | null = null;
    if (as !== null) {
      const { terminal, nonce } = await enrollDirectly(store, { name: 'Teste', role: as });
      cookie = signCredential(TEST_SECRET, terminal.id, nonce);
    }
    return { raw, store, cookie };
  })();
  const app: TestApp = {
    async request(input, init = {}) {
      const { raw, cookie } = await ready;
      const headers = new Headers(init.headers);
      if (cookie !== null) {
        const pair = `${credentialCookieName(new URL(input, 'http://localhost').href)}=${cookie}`;
        const given = headers.get('cookie');
        headers.set('cookie', given === null ? pair : `${given}; ${pair}`);
      }
      const method = (init.method ?? 'GET').toUpperCase();
      if (method !== 'GET' && method !== 'HEAD' && !headers.has('origin')) {
        headers.set('origin', 'http://localhost');
      }
      return raw.request(input, { ...init, headers });
    },
  };
  return { app, ready, received: rec.received, lines: log.lines };
}

export const INDEX_HTML = '<!doctype html><html><body><div id="root"></div></body></html>';
export const SECRET_OUTSIDE = 'TOP-SECRET-OUTSIDE-DIST';

/**
 * dist-ssr/render-page.js of the temporary project: a stand-in for the SPA's render of a page
 * (src/app/render-page.tsx has its own tests) that names the terminal and the address, and
 * counts its renders.
 */
export const STAND_IN_RENDER = `let renders = 0;
export async function renderPage(config, href) {
  renders += 1;
  return '<p>' + (config.terminal ? config.terminal.name : 'registro') + ' ' + href + ' #' + renders + '</p>';
}
`;

/** A temporary project with a built dist/ (and dist-ssr/) and a secret file next to it. */
export function tempDist() {
  const base = mkdtempSync(path.join(tmpdir(), 'app-server-test-'));
  const dist = path.join(base, 'dist');
  mkdirSync(path.join(dist, 'assets'), { recursive: true });
  writeFileSync(path.join(dist, 'index.html'), INDEX_HTML);
  writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log("app");');
  writeFileSync(path.join(dist, 'assets', 'index-abc123.css'), 'body{margin:0}');
  writeFileSync(
    path.join(dist, 'assets', 'logo-abc123.svg'),
    '<svg xmlns="http://www.w3.org/2000/svg"/>',
  );
  writeFileSync(
    path.join(dist, 'assets', 'font-abc123.woff2'),
    Buffer.from([0x77, 0x4f, 0x46, 0x32]),
  );
  writeFileSync(path.join(dist, 'manifest.webmanifest'), '{"name":"PDV"}');
  writeFileSync(path.join(dist, 'favicon.ico'), Buffer.from([0, 0, 1, 0]));
  writeFileSync(path.join(base, 'secret.txt'), SECRET_OUTSIDE);
  mkdirSync(path.join(base, 'dist-ssr'));
  writeFileSync(path.join(base, 'dist-ssr', 'render-page.js'), STAND_IN_RENDER);
  return { base, dist, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}
