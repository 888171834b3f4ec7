// What the postings journal adds to a posting, over real loopback HTTP: two app servers in
// sandbox mode, wired as server/main.ts does, one with the journal (its own SQLite store file,
// WAL, synchronous=FULL) and one relaying pontuar as a plain proxy. Each round posts one new
// customer's sale to each, interleaved and alternating which goes first, so both see the
// same noise; every posting is a new customer, so the sandbox's own cost does not grow.

import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { serve } from '@hono/node-server';
import type { ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { createAppServer } from '../server/app/app';
import { embeddedSandbox } from '../server/app/embedded';
import { createPostingService } from '../server/app/postings/postings';
import { upstreamCall } from '../server/app/postings/upstream';
import { openSandbox } from '../server/sandbox/sandbox';
import { credentialCookieName } from '../server/app/access';
import { signCredential } from '../server/app/credential';
import { createJournalStore, enrollDirectly, openStore } from '../server/store';

/** Signs the bench terminal's credential. */
const BENCH_SECRET = 'journal-bench-secret-0123456789abcdef';
import {
  BROWSER_HEADERS,
  EST,
  POSTING_PATH,
  expectSuccess,
  freshPhone,
  postingBody,
} from './requests';
import { median, summarize } from './stats';
import type { Summary } from './stats';

export interface JournalResult {
  plain: Summary;
  journaled: Summary;
  /** One durable one-row commit (WAL, synchronous=FULL) on the same disk, same rounds. */
  commit: Summary;
  /** median(journaled) - median(plain), ms. */
  added: number;
  /** Median of the per-round differences journaled_i - plain_i, ms. */
  pairedAdded: number;
}

export interface JournalOptions {
  distDir: string;
  plainDb: string;
  journaledDb: string;
  storeDb: string;
  commitDb: string;
  warmup: number;
  rounds: number;
}

const sink = { write: (_line: string): void => undefined };

function listen(
  fetch: (req: Request) => Response | Promise<Response>,
): Promise<{ url: string; close(): Promise<void> }> {
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

export async function journalOverhead(o: JournalOptions): Promise<JournalResult> {
  const cleanups: (() => Promise<void> | void)[] = [];
  try {
    const plainSandbox = openSandbox({ dbPath: o.plainDb });
    cleanups.push(() => plainSandbox.close());
    const journaledSandbox = openSandbox({ dbPath: o.journaledDb });
    cleanups.push(() => journaledSandbox.close());
    const store = await openStore({ sqlitePath: o.storeDb });
    cleanups.push(() => store.close());

    const plainUpstream = embeddedSandbox(plainSandbox, EST)!;
    const journaledUpstream = embeddedSandbox(journaledSandbox, EST)!;
    const logger = () => pino({ timestamp: pino.stdTimeFunctions.isoTime }, sink);
    const service = createPostingService({
      store: createJournalStore(store),
      call: upstreamCall(journaledUpstream),
      establishmentId: EST,
      logger: logger(),
    });
    service.start();
    cleanups.push(() => service.stop());

    // Both apps see one enrolled terminal, with the rate limits out of the way.
    const { terminal, nonce } = await enrollDirectly(store, { name: 'bench', role: 'caixa' });
    const access = {
      store,
      secret: BENCH_SECRET,
      publicOrigin: null,
      autoEnroll: false,
      limits: {
        burst: { limit: 1_000_000, windowMs: 10_000 },
        sustained: { limit: 1_000_000, windowMs: 600_000 },
      },
    };
    const terminalHeaders = (url: string) => ({
      cookie: `${credentialCookieName(url)}=${signCredential(BENCH_SECRET, terminal.id, nonce)}`,
      origin: url,
    });
    const plainApp = createAppServer({
      distDir: o.distDir,
      logger: logger(),
      ...plainUpstream,
      ...access,
    });
    const journaledApp = createAppServer({
      distDir: o.distDir,
      logger: logger(),
      ...journaledUpstream,
      ...access,
      postings: service,
    });
    const plain = await listen((req) => plainApp.fetch(req));
    cleanups.push(() => plain.close());
    const journaled = await listen((req) => journaledApp.fetch(req));
    cleanups.push(() => journaled.close());

    // The disk's cost of one durable commit, for reading the figures: a journaled posting
    // commits once before it is sent (and once after, off the answer's path).
    const commitDb = new Database(o.commitDb);
    cleanups.push(() => void commitDb.close());
    commitDb.pragma('journal_mode = WAL');
    commitDb.pragma('synchronous = FULL');
    commitDb.exec('create table t (k integer primary key, v text)');
    const insert = commitDb.prepare('insert into t (v) values (?)');
    const commit = (): number => {
      const t0 = performance.now();
      insert.run('x'.repeat(200));
      return performance.now() - t0;
    };

    let n = 0;
    const post = async (url: string, what: string): Promise<number> => {
      const body = postingBody(freshPhone(5_000_000 + ++n), 2590);
      const t0 = performance.now();
      const res = await fetch(url + POSTING_PATH, {
        method: 'POST',
        headers: { ...BROWSER_HEADERS, ...terminalHeaders(url), 'idempotency-key': randomUUID() },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      await expectSuccess(res, what);
      return performance.now() - t0;
    };

    for (let i = 0; i < o.warmup; i++) {
      await post(plain.url, 'plain posting (warm-up)');
      await post(journaled.url, 'journaled posting (warm-up)');
    }
    const p: number[] = [];
    const j: number[] = [];
    const diffs: number[] = [];
    const c: number[] = [];
    for (let i = 0; i < o.rounds; i++) {
      let a: number;
      let b: number;
      if (i % 2 === 0) {
        a = await post(plain.url, 'plain posting');
        b = await post(journaled.url, 'journaled posting');
      } else {
        b = await post(journaled.url, 'journaled posting');
        a = await post(plain.url, 'plain posting');
      }
      p.push(a);
      j.push(b);
      diffs.push(b - a);
      c.push(commit());
    }
    const plainSummary = summarize(p);
    const journaledSummary = summarize(j);
    return {
      plain: plainSummary,
      journaled: journaledSummary,
      commit: summarize(c),
      added: journaledSummary.median - plainSummary.median,
      pairedAdded: median(diffs),
    };
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}
