// The app server and the sandbox served in the bench's own process: a free 127.0.0.1 port,
// the app's access options with one terminal enrolled straight in its store and the rate
// limits out of the way (the benches measure the cost of the checks, not refusals), and a
// log sink (the lines are built, so their cost is measured, but not printed).
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { ServerType } from '@hono/node-server';
import pino from 'pino';
import type { Logger } from 'pino';
import { signCredential } from '../server/app/domain/credential';
import { credentialCookieName } from '../server/app/http/access/terminal';
import type { Role } from '../server/store';
import { enrollDirectly, type Store } from '../server/store';

export interface Running {
  url: string;
  close(): Promise<void>;
}

/** Signs the bench terminal's credential. */
const BENCH_SECRET = 'bench-secret-0123456789abcdef0123456789';

/** Where the servers' log lines go. */
export const sink = { write: (_line: string): void => undefined };

/** The app server's logger as its main.ts makes it, into the sink. */
export const appLogger = (): Logger => pino({ timestamp: pino.stdTimeFunctions.isoTime }, sink);

/** Serves `fetch` on a free 127.0.0.1 port. */
export function listen(
  fetch: (req: Request, env?: unknown) => Response | Promise<Response>,
): Promise<Running> {
  return new Promise((resolve, reject) => {
    const server: ServerType = serve(
      { fetch, hostname: '127.0.0.1', port: 0 },
      (info: AddressInfo) =>
        resolve({
          url: `http://127.0.0.1:${info.port}`,
          close: () =>
            new Promise<void>((done) => {
              server.close(() => done());
              if ('closeAllConnections' in server) server.closeAllConnections();
            }),
        }),
    );
    server.once('error', reject);
  });
}

/**
 * A terminal of `role` enrolled in `store`: the app server's access options (no
 * auto-enrollment, the limits raised) and the terminal's cookie for the server at a URL.
 */
export async function benchAccess(store: Store, role: Role) {
  const { terminal, nonce } = await enrollDirectly(store, { name: 'bench', role });
  return {
    access: {
      store,
      secret: BENCH_SECRET,
      publicOrigin: null,
      autoEnroll: false,
      limits: {
        burst: { limit: 1_000_000, windowMs: 10_000 },
        sustained: { limit: 1_000_000, windowMs: 600_000 },
      },
    },
    cookie: (url: string) =>
      `${credentialCookieName(url)}=${signCredential(BENCH_SECRET, terminal.id, nonce)}`,
  };
}

/** What a bench opened, closed when it ends (the last opened first), however it ends. */
export class Closer {
  private readonly closes: (() => Promise<unknown> | unknown)[] = [];

  /** `thing`, closed when the bench ends. */
  add<T extends { close(): unknown }>(thing: T): T {
    this.closes.push(() => thing.close());
    return thing;
  }

  /** `close` run when the bench ends. */
  defer(close: () => Promise<unknown> | unknown): void {
    this.closes.push(close);
  }

  async closeAll(): Promise<void> {
    for (const close of this.closes.reverse()) await close();
  }
}
