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
  /** The app server now (a new one after `restartApp`). */
  app: RunningProcess;
  /** The app server's SQLite store. */
  appDb: string;
  /** The sandbox's SQLite database (tests read its records). */
  sandboxDb: string;
  /** The cookie header of an enrolled terminal of each role (none with `terminals: false`). */
  cookies: Record<Role, string>;
  /** A terminal of `role` enrolled in the app server's store: its signed credential. */
  credential(role: Role, name: string): Promise<string>;
  /** Starts the app server again with the same environment, store and relay. */
  restartApp(): Promise<RunningProcess>;
  stop(): Promise<void>;
}

export async function startRelayedApp(
  name: string,
  env: Record<string, string> = {},
  options: { terminals?: boolean } = {},
): Promise<RelayedApp> {
  const dir = mkdtempSync(path.join(tmpdir(), `${name}-`));
  const appDb = path.join(dir, 'app.db');
  const sandboxDb = path.join(dir, 'sandbox.db');
  const sandbox = await startSandbox(sandboxDb);
  const relay = await startRelay(sandbox.url);
  const startApp = () => startAppServer(relay.url, { ...env, APP_DB: appDb });
  const credential = async (role: Role, terminal: string) => {
    const store = await openStore({ sqlitePath: appDb });
    try {
      const t = await enrollDirectly(store, { name: terminal, role });
      return signCredential(APP_SECRET_FOR_TESTS, t.terminal.id, t.nonce);
    } finally {
      await store.close();
    }
  };
  const run: RelayedApp = {
    sandbox,
    relay,
    app: await startApp(),
    appDb,
    sandboxDb,
    cookies: {} as Record<Role, string>,
    credential,
    async restartApp() {
      run.app = await startApp();
      return run.app;
    },
    async stop() {
      await run.app.stop();
      await relay.close();
      await sandbox.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  if (options.terminals !== false) {
    for (const role of ['caixa', 'gerente', 'quiosque'] as const) {
      run.cookies[role] =
        `pdv_terminal_${new URL(run.app.url).port}=` + (await credential(role, `Teste ${role}`));
    }
  }
  return run;
}
