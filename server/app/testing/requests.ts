/**
 * The request inits and answer readers the app server's route tests share: a JSON POST (with
 * its `Idempotency-Key`), a request naming one store of the chain (`X-Loja`), the envelope's
 * `data` of a 200 answer, and the service's routes of a store.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';

/** The app server's answer envelope. */
export type Envelope = { success: boolean; message: string; data: unknown };

/** A POST of `body` as JSON; with `key`, under that `Idempotency-Key`. */
export const post = (body: unknown, key?: string): RequestInit => ({
  method: 'POST',
  body: JSON.stringify(body),
  headers: key === undefined ? {} : { 'idempotency-key': key },
});

/** `init` sent for store `loja` (a `rede` terminal names the store with `X-Loja`). */
export const at = (loja: number, init: RequestInit = {}): RequestInit => ({
  ...init,
  headers: { ...(init.headers as Record<string, string> | undefined), 'x-loja': String(loja) },
});

/** The envelope's `data` of an answer that must be a 200 (else: its status and first bytes). */
export const data = async (res: Response): Promise<unknown> => {
  expect(res.status, (await res.clone().text()).slice(0, 200)).toBe(200);
  return ((await res.json()) as Envelope).data;
};

/** What sends the app server a request: a terminal of a test's app, or the app itself. */
export type Requester = { request: (path: string, init?: RequestInit) => Promise<Response> };

/**
 * A browser enrolled at `app` with the enrollment code `code` (answered 200): its credential
 * cookie and the envelope's `data` of its `/api/config`.
 */
export async function enrollWithCode(
  app: Requester,
  code: string,
): Promise<{ cookie: string; config: unknown }> {
  const enrolled = await app.request('/api/terminal/registrar', post({ codigo: code }));
  expect(enrolled.status).toBe(200);
  const cookie = enrolled.headers.get('set-cookie')!.split(';')[0]!;
  return { cookie, config: await data(await app.request('/api/config', { headers: { cookie } })) };
}

/** The screens `/api/config` shows a `gerente` (`terminal.navigation`): every one. */
export const GERENTE_NAVIGATION = {
  caixa: true,
  premios: true,
  painel: true,
  auditoria: true,
  lancamentos: true,
  vigilancia: true,
  terminais: true,
  quiosque: true,
};

/** The service's route `rest` of store `id`, as the app server relays it. */
export const op = (id: number, rest: string) => `/api/v4/estabelecimentos/${id}/${rest}`;

/**
 * `count` postings at store `id` through a caixa's `request`, each of `1_000 + i` cents to the
 * customer `phone(i)` under a new `Idempotency-Key`, each answered 200.
 */
export async function postSales(
  counter: Requester,
  id: number,
  count: number,
  phone: (i: number) => string,
): Promise<void> {
  for (let i = 0; i < count; i++) {
    const body = {
      valor_gasto: 1_000 + i,
      senha_atendente: '1234',
      cliente: { celular: phone(i) },
    };
    const res = await counter.request(op(id, 'fidelidade/pontuar'), post(body, randomUUID()));
    expect(res.status).toBe(200);
  }
}
