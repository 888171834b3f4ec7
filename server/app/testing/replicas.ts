/**
 * Two real app-server replicas (two `server/main.ts` processes) of one deployment: the same
 * PostgreSQL (`DATABASE_URL`), the same `APP_SECRET`, one sandbox process upstream. Started
 * before a file's tests and stopped after them; terminals are enrolled straight in the shared
 * store, so one credential works on either replica.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { enrollDirectly, openStore } from '../../store';
import type { Role } from '../../store';
import { startPgCluster } from '../../testing/pg-cluster';
import type { PgCluster } from '../../testing/pg-cluster';
import { APP_SECRET_FOR_TESTS, startAppServer, startSandbox } from '../../testing/processes';
import type { RunningProcess } from '../../testing/processes';
import { credentialCookieName } from '../http/access/terminal';
import { signCredential } from '../domain/credential';

export interface Replicas {
  databaseUrl: string;
  sandbox: RunningProcess;
  a: RunningProcess;
  b: RunningProcess;
}

/**
 * Starts the two replicas in `beforeAll` (none when `skip`, as `postgresSuite()` says) and stops
 * them in `afterAll`, after `beforeStop` (e.g. aborting the streams the tests opened). The
 * fields are filled once `beforeAll` has run.
 */
export function twoReplicas(
  name: string,
  options: { skip?: boolean; beforeStop?: () => void } = {},
): Replicas {
  const replicas = {} as Replicas;
  let dir = '';
  let cluster: PgCluster | null = null;
  let sandbox: RunningProcess | null = null;
  let apps: RunningProcess[] = [];
  beforeAll(async () => {
    if (options.skip === true) return;
    dir = mkdtempSync(path.join(tmpdir(), `${name}-`));
    cluster = await startPgCluster();
    replicas.databaseUrl = await cluster.createDatabase();
    sandbox = await startSandbox(path.join(dir, 'sandbox.db'));
    replicas.sandbox = sandbox;
    const env = { DATABASE_URL: replicas.databaseUrl };
    apps = await Promise.all([startAppServer(sandbox.url, env), startAppServer(sandbox.url, env)]);
    [replicas.a, replicas.b] = apps as [RunningProcess, RunningProcess];
  }, 120_000);
  afterAll(async () => {
    options.beforeStop?.();
    await Promise.all(apps.map((app) => app.stop()));
    await sandbox?.stop();
    await cluster?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
    // A replica closes kept-alive connections after 5 s: give the three processes their time.
  }, 60_000);
  return replicas;
}

/** A terminal enrolled in the replicas' shared store: its id and signed credential. */
export async function enrolledTerminal(
  databaseUrl: string,
  role: Role,
  name: string,
): Promise<{ id: number; credential: string }> {
  const store = await openStore({ databaseUrl });
  const { terminal, nonce } = await enrollDirectly(store, { name, role }).finally(() =>
    store.close(),
  );
  return { id: terminal.id, credential: signCredential(APP_SECRET_FOR_TESTS, terminal.id, nonce) };
}

/** `fetch` on `replica` as the terminal holding `credential`; a POST carries origin and JSON. */
export function fetchAs(
  credential: string,
  replica: RunningProcess,
  p: string,
  init: RequestInit = {},
): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set('cookie', `${credentialCookieName(replica.url)}=${credential}`);
  if (init.method === 'POST') {
    headers.set('origin', replica.url);
    headers.set('content-type', 'application/json');
  }
  return fetch(`${replica.url}${p}`, { ...init, headers });
}
