// The embedded sandbox: a stand-in of the loyalty service's v4 API over SQLite.
//
//   const sandbox = openSandbox({ dbPath: 'data/sandbox.db' });
//   await sandbox.app.fetch(new Request('http://x/api/v4/estabelecimentos/1/recompensas', …));
//   sandbox.close();

import { migrate, openDatabase } from './db';
import { createRoutes } from './routes';
import { seedChainStores } from './chain-seed';
import { seedDemoData } from './seed';
import { createStore } from './store';

export interface Sandbox {
  /** A Hono app; routes under /api/v4/estabelecimentos/:id/... */
  app: { fetch(req: Request): Response | Promise<Response> };
  /** Demo establishments and their tokens, for the app server's embedded mode. */
  establishments(): {
    id: number;
    nome: string;
    accessToken: string;
    appToken: string;
    /** The demo attendant password (the demo PDV's postings use it). */
    senhaAtendente: string;
  }[];
  close(): void;
}

export interface SandboxOptions {
  /** SQLite file (parent folders are created) or ':memory:'. */
  dbPath: string;
  /** The service's clock; a request's `x-sandbox-now` header overrides it for that request. */
  now?: () => Date;
  /** Told about unexpected errors (answered as a generic 500); never sees request bodies. */
  onError?: (err: unknown) => void;
  /**
   * The demo chain's length (SANDBOX_STORES): establishment 1 and the stores 3, 4, … added
   * when missing (chain-seed.ts). Default 1: no chain stores.
   */
  chainStores?: number;
}

export function openSandbox(opts: SandboxOptions): Sandbox {
  const now = opts.now ?? (() => new Date());
  const db = openDatabase(opts.dbPath);
  try {
    migrate(db, (fresh) => seedDemoData(fresh, now().getTime()), now().getTime());
    seedChainStores(db, now().getTime(), opts.chainStores ?? 1);
  } catch (err) {
    db.close();
    throw err;
  }
  const store = createStore(db);
  const app = createRoutes(store, { now, onError: opts.onError });
  let closed = false;

  return {
    app: { fetch: (req: Request) => app.fetch(req) },
    establishments: () =>
      store.establishments().map((e) => ({
        id: e.id,
        nome: e.nome,
        accessToken: e.accessToken,
        appToken: e.appToken,
        senhaAtendente: e.senhaAtendente,
      })),
    close: () => {
      if (closed) return;
      closed = true;
      db.close();
    },
  };
}
