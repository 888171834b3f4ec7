/**
 * Requests to a real app server process as its clients send them: a terminal's browser (its
 * cookie, a same-origin Origin), a counter's posting and the store's PDV (its bearer token);
 * and the terminals and the PDV integration such a test enrols before its first request.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { addIntegration, enrollDirectly, listTerminals, openStore } from '../../store';
import type { ListedTerminal, Role } from '../../store';
import { APP_SECRET_FOR_TESTS } from '../../testing/processes';
import { startRelayedApp, type RelayedApp } from '../../testing/relayed-app';
import { signCredential } from '../domain/credential';

/**
 * The file's app server behind a relay (`startRelayedApp(name, env)`), started before its tests
 * and stopped after them; `ready` gets it once it is up (the file keeps it, adds what it needs).
 */
export function relayedAppPerFile(
  name: string,
  env: Record<string, string>,
  ready: (run: RelayedApp) => Promise<void> | void,
): void {
  let run: RelayedApp | undefined;
  beforeAll(async () => {
    run = await startRelayedApp(name, env);
    await ready(run);
  }, 60_000);
  afterAll(async () => {
    await run?.stop();
  });
}

/** `method` to `url` with `headers`; `body`, when given, sent as JSON. */
export function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<Response> {
  return fetch(url, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** A request of the app's terminal of `role` (its cookie, a same-origin Origin). */
export const asTerminal = (
  run: RelayedApp,
  role: Role,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Response> =>
  send(
    `${run.app.url}${path}`,
    method,
    { cookie: run.cookies[role], origin: run.app.url, ...headers },
    body,
  );

/** A request of the store's PDV at the app server at `url` (its bearer token). */
export const asPdv = (
  url: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<Response> => send(`${url}${path}`, method, { authorization: `Bearer ${token}` }, body);

export interface AddedPdv {
  /** The PDV's bearer token. */
  token: string;
  /** The PDV's own terminal. */
  pdvId: number;
  /** The counter it sends its sales to. */
  counterId: number;
  /** The store's terminals before the PDV was added. */
  terminals: ListedTerminal[];
}

/** A PDV integration named `name` sending to the app's first terminal of `role`. */
export async function addPdv(
  run: RelayedApp,
  role: Role = 'caixa',
  name = 'PDV 1',
): Promise<AddedPdv> {
  const store = await openStore({ sqlitePath: run.appDb });
  try {
    const terminals = await listTerminals(store);
    const counterId = terminals.find((t) => t.role === role)!.id;
    const added = await addIntegration(store, { name, counterId });
    return { token: added.token, pdvId: added.terminal.id, counterId, terminals };
  } finally {
    await store.close();
  }
}

/** The cookie carrying a terminal's `credential` to the app server at `url`. */
export const credentialCookie = (url: string, credential: string): string =>
  `pdv_terminal_${new URL(url).port}=${credential}`;

/** `caixa` terminals named `names` enrolled straight in the store at `appDb`: their credentials. */
export async function enrollCaixas(appDb: string, names: readonly string[]): Promise<string[]> {
  const store = await openStore({ sqlitePath: appDb });
  try {
    const credentials: string[] = [];
    for (const name of names) {
      const t = await enrollDirectly(store, { name, role: 'caixa' });
      credentials.push(signCredential(APP_SECRET_FOR_TESTS, t.terminal.id, t.nonce));
    }
    return credentials;
  } finally {
    await store.close();
  }
}

/**
 * A counter's posting at store 1 of the app server at `url`: `valor_gasto` cents to `celular`,
 * the attendant password 1234, under a new `Idempotency-Key`.
 */
export const postPurchase = (
  url: string,
  cookie: string,
  celular: string,
  valor_gasto = 1000,
): Promise<Response> =>
  send(
    `${url}/api/v4/estabelecimentos/1/fidelidade/pontuar`,
    'POST',
    { cookie, origin: url, 'idempotency-key': randomUUID() },
    { cliente: { celular }, valor_gasto, senha_atendente: '1234' },
  );
