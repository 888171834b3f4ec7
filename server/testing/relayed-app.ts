/**
 * The three real processes of a fault test, in one call: the sandbox run alone, the fault relay
 * in front of it, and the app server in live mode pointed at the relay, with a terminal of each
 * role enrolled in its store.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { signCredential } from '../app/domain/credential';
import { enrollDirectly, openStore, type Role } from '../store';
import {
  APP_SECRET_FOR_TESTS,
  startAppServer,
  startSandbox,
  type RunningProcess,
} from './processes';
import { startRelay, type Relay } from './relay';

export interface RelayedApp {
  sandbox: RunningProcess;
  relay: Relay;
  app: RunningProcess;
  /** The app server's SQLite store. */
  appDb: string;
  /** The sandbox's SQLite database (tests read its records). */
  sandboxDb: string;
  /** The cookie header of an enrolled terminal of each role. */
  cookies: Record<Role, string>;
  stop(): Promise<void>;
}

export async function startRelayedApp(
  name: string,
  env: Record<string, string> = {},
): Promise<RelayedApp> {
  const dir = mkdtempSync(path.join(tmpdir(), `${name}-`));
  const appDb = path.join(dir, 'app.db');
  const sandboxDb = path.join(dir, 'sandbox.db');
  const sandbox = await startSandbox(sandboxDb);
  const relay = await startRelay(sandbox.url);
  const app = await startAppServer(relay.url, { APP_DB: appDb, ...env });
  const store = await openStore({ sqlitePath: appDb });
  const cookies = {} as Record<Role, string>;
  for (const role of ['caixa', 'gerente', 'quiosque'] as const) {
    const t = await enrollDirectly(store, { name: `Teste ${role}`, role });
    cookies[role] =
      `pdv_terminal_${new URL(app.url).port}=` +
      signCredential(APP_SECRET_FOR_TESTS, t.terminal.id, t.nonce);
  }
  await store.close();
  return {
    sandbox,
    relay,
    app,
    appDb,
    sandboxDb,
    cookies,
    async stop() {
      await app.stop();
      await relay.close();
      await sandbox.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
