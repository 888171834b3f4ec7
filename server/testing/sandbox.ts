// Helpers for the sandbox's own tests: requests through `app.fetch` with no open port.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
import { openSandbox, type Sandbox } from '../sandbox/sandbox';

/** The fixed clock of the tests: 22 Nov 2026, noon in São Paulo. */
export const TEST_NOW = '2026-11-22T12:00:00-03:00';

export const ORIGIN = 'http://sandbox.test';

export const TOKENS: Record<number, string> = {
  1: 'demo-access-token-1',
  2: 'demo-access-token-2',
};
export const PASSWORDS: Record<number, string> = { 1: '1234', 2: '4321' };

export function openTestSandbox(dbPath = ':memory:', now = TEST_NOW): Sandbox {
  return openSandbox({ dbPath, now: () => new Date(now) });
}

/**
 * A new sandbox on a file of its own (`sandbox.db` in a `<name>-XXXXXX` folder) for each test,
 * handed to `use` with the file's path before the test, closed and deleted after it.
 */
export function openTestSandboxEach(name: string, use: (sb: Sandbox, dbPath: string) => void) {
  let dir: string;
  let sb: Sandbox | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), `${name}-`));
    const dbPath = join(dir, 'sandbox.db');
    sb = openTestSandbox(dbPath);
    use(sb, dbPath);
  });
  afterEach(() => {
    sb?.close();
    sb = undefined;
    rmSync(dir, { recursive: true, force: true });
  });
}

export interface CallOptions {
  est?: number | string;
  /** access-token; defaults to the establishment's own; null sends none */
  token?: string | null;
  appToken?: string | null;
  body?: unknown;
  /** sent as is, instead of JSON.stringify(body) */
  rawBody?: string | Uint8Array;
  contentType?: string | null;
  now?: string;
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
  json: any;
  headers: Headers;
}

/** A request to `/api/v4/estabelecimentos/{est}{path}`. */
export async function call(
  sandbox: Sandbox,
  method: string,
  path: string,
  opts: CallOptions = {},
): Promise<CallResult> {
  const est = opts.est ?? 1;
  const headers = new Headers(opts.headers);
  const appToken = opts.appToken === undefined ? 'demo-app-token' : opts.appToken;
  const token = opts.token === undefined ? (TOKENS[Number(est)] ?? TOKENS[1]) : opts.token;
  if (appToken !== null) headers.set('app-token', appToken);
  if (token !== null && token !== undefined) headers.set('access-token', token);
  headers.set('accept', 'application/json');
  let body: string | Uint8Array | undefined;
  if (opts.rawBody !== undefined) body = opts.rawBody;
  else if (opts.body !== undefined) body = JSON.stringify(opts.body);
  const contentType = opts.contentType === undefined ? 'application/json' : opts.contentType;
  if (contentType !== null && method !== 'GET') headers.set('content-type', contentType);
  if (opts.now !== undefined) headers.set('x-sandbox-now', opts.now);
  const url = path.startsWith('http') ? path : `${ORIGIN}/api/v4/estabelecimentos/${est}${path}`;
  const res = await sandbox.app.fetch(
    new Request(url, { method, headers, body: body as BodyInit | undefined }),
  );
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = { notJson: text };
  }
  return { status: res.status, json, headers: res.headers };
}

export const post = (sb: Sandbox, path: string, body: unknown, opts: CallOptions = {}) =>
  call(sb, 'POST', path, { ...opts, body });

export const get = (sb: Sandbox, path: string, opts: CallOptions = {}) =>
  call(sb, 'GET', path, opts);

/** A valid pontuar body for establishment 1 (or `est`). */
export function pontuarBody(
  celular: string,
  valor: number,
  extra: Record<string, unknown> = {},
  est = 1,
): Record<string, unknown> {
  return { valor_gasto: valor, senha_atendente: PASSWORDS[est], cliente: { celular }, ...extra };
}

/**
 * Asserts the service's refusal: `status` and its envelope (`success: false`, `message`, empty
 * `data`), with `errors` when the refusal names fields.
 */
export function expectRefusal(
  r: Pick<CallResult, 'status' | 'json'>,
  status: number,
  message: unknown,
  errors?: Record<string, unknown>,
): void {
  expect(r.status).toBe(status);
  expect(r.json).toEqual({ success: false, message, data: {}, ...(errors && { errors }) });
}
