import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PAGE_CODE_LOADER } from './page-code';
import { CONTENT_SECURITY_POLICY } from './security';
import {
  ACCESS_TOKEN,
  APP_TOKEN,
  makeApp,
  recordingUpstream,
  tempDist,
} from '../../testing/app-harness';
import type { TestApp } from '../../testing/app-harness';

/** The one inline script allowed: the painted page's code loader, by the hash of its text. */
const LOADER_SOURCE = `'sha256-${createHash('sha256').update(PAGE_CODE_LOADER).digest('base64')}'`;
const EXPECTED_CSP =
  `default-src 'self'; script-src 'self' ${LOADER_SOURCE}; style-src 'self'; img-src 'self' data:; ` +
  "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'self'; " +
  "form-action 'self'; frame-ancestors 'none'";

function expectSecurityHeaders(res: Response, label: string): void {
  expect(res.headers.get('content-security-policy'), label).toBe(EXPECTED_CSP);
  expect(res.headers.get('x-content-type-options'), label).toBe('nosniff');
  expect(res.headers.get('referrer-policy'), label).toBe('no-referrer');
  expect(res.headers.get('x-frame-options'), label).toBe('DENY');
  expect(res.headers.get('permissions-policy'), label).toContain('camera=()');
  expect(res.headers.get('x-powered-by'), label).toBeNull();
}

let fixture: ReturnType<typeof tempDist>;
beforeAll(() => {
  fixture = tempDist();
});
afterAll(() => fixture.cleanup());

/** An upstream that tries its best to leak: a token in a header, a cookie, a powered-by. */
function leakyUpstream() {
  return recordingUpstream(
    (req) =>
      new Response('{"success":true,"message":"ok","data":{}}', {
        status: 200,
        headers: {
          'content-type': 'application/json',
          'x-debug-app-token': req.headers.get('app-token') ?? '',
          'x-debug-access-token': req.headers.get('access-token') ?? '',
          'set-cookie': `t=${req.headers.get('access-token')}`,
          'x-powered-by': 'PHP/8.3',
        },
      }),
  );
}

/** Requests producing every kind of response: static, API, proxied, and each error. */
function everyKindOfResponse(): [string, TestApp, string, RequestInit?][] {
  const { app } = makeApp({ distDir: fixture.dist, upstream: leakyUpstream().upstream });
  const { app: noDist } = makeApp({ distDir: fixture.dist + '-missing' });
  const { app: down } = makeApp({
    upstream: {
      fetch: () => {
        throw new TypeError('fetch failed');
      },
    },
  });
  const { app: slow } = makeApp({
    upstreamTimeoutMs: 20,
    upstream: { fetch: () => new Promise<Response>(() => undefined) },
  });
  const broken = new ReadableStream({ pull: (ctl) => ctl.error(new Error('client went away')) });
  const buscar = '/api/v4/estabelecimentos/1/clientes/buscar';
  const json = (body: string): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  return [
    ['static index', app, '/'],
    ['static asset', app, '/assets/index-abc123.js'],
    ['history fallback', app, '/caixa'],
    ['static 404', app, '/assets/nope.js'],
    ['static 400', app, '/..%2fsecret.txt'],
    ['static 405', app, '/caixa', { method: 'DELETE' }],
    ['503 not built', noDist, '/'],
    ['config', app, '/api/config'],
    ['proxied 200', app, buscar, json('{"celular":"+5511987654321"}')],
    ['403 pinning', app, '/api/v4/estabelecimentos/2/clientes/buscar', json('{}')],
    ['404 api', app, '/api/nope'],
    ['413', makeApp({ maxBodyBytes: 10 }).app, buscar, json('{"celular":"+5511987654321"}')],
    ['502', down, buscar, json('{}')],
    ['504', slow, buscar, json('{}')],
    [
      '500 unexpected',
      app,
      buscar,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: broken,
        duplex: 'half',
      } as RequestInit,
    ],
  ];
}

describe('security headers', () => {
  test('the CSP allows no inline script but the page’s code loader, by its hash', () => {
    expect(CONTENT_SECURITY_POLICY).toBe(EXPECTED_CSP);
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-inline');
    expect(CONTENT_SECURITY_POLICY.match(/'sha256-/g)).toHaveLength(1);
  });

  test('are on every response: static, API, proxied and every error', async () => {
    const statuses: Record<string, number> = {};
    for (const [label, app, url, init] of everyKindOfResponse()) {
      const res = await app.request(url, init);
      statuses[label] = res.status;
      expectSecurityHeaders(res, label);
    }
    expect(statuses).toEqual({
      'static index': 200,
      'static asset': 200,
      'history fallback': 200,
      'static 404': 404,
      'static 400': 400,
      'static 405': 405,
      '503 not built': 503,
      config: 200,
      'proxied 200': 200,
      '403 pinning': 403,
      '404 api': 404,
      '413': 413,
      '502': 502,
      '504': 504,
      '500 unexpected': 500,
    });
  });

  test('an unexpected error on /api is a 500 envelope that leaks nothing', async () => {
    const [, app, url, init] = everyKindOfResponse().find(([label]) => label === '500 unexpected')!;
    const res = await app.request(url, init);
    expect(await res.json()).toEqual({
      success: false,
      message: 'Erro interno no servidor. Tente novamente.',
      data: {},
    });
  });

  test('no token ever appears in a response body or header', async () => {
    for (const [label, app, url, init] of everyKindOfResponse()) {
      const res = await app.request(url, init);
      const headers = [...res.headers.entries()].map(([k, v]) => `${k}: ${v}`).join('\n');
      const body = await res.text();
      for (const token of [APP_TOKEN, ACCESS_TOKEN]) {
        expect(headers, label).not.toContain(token);
        expect(body, label).not.toContain(token);
      }
    }
  });
});
