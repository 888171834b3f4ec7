// What the postings journal adds to a posting, over real loopback HTTP: two app servers in
// sandbox mode, wired as server/main.ts does, one with the journal (its own SQLite store file,
// WAL, synchronous=FULL) and one relaying pontuar as a plain proxy. Each round posts one new
// customer's sale to each, interleaved and alternating which goes first, so both see the
// same noise; every posting is a new customer, so the sandbox's own cost does not grow.
//
// The client runs in its own process, as a terminal's browser does, and leaves a short pause
// between postings (a cashier does not post twice within milliseconds): what a journaled
// posting does after its answer has left (reading the posting's points, the settling write)
// then costs the servers' CPU, not the client's wait. With `client: 'inline'` the client
// shares the servers' event loop instead, and that after-answer work lands in the figure.

import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { createAppServer } from '../server/app/app';
import { embeddedSandbox } from '../server/app/embedded';
import { createPostingService } from '../server/app/domain/journal/service';
import { clientOf } from '../server/app/upstream/client';
import { openSandbox } from '../server/sandbox/sandbox';
import { createJournalStore, openStore } from '../server/store';
import { appLogger as logger, benchAccess, Closer, listen } from './in-process';

import {
  BROWSER_HEADERS,
  EST,
  POSTING_PATH,
  expectSuccess,
  freshPhone,
  postingBody,
} from './requests';
import { interleaved, median, summarize } from './stats';
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
  /** Where the client runs (default: its own process). */
  client?: 'process' | 'inline';
  /** Pause of the out-of-process client after each posting, ms. Default 10. */
  pauseMs?: number;
}

/** One posting: where, as whom, what. */
interface Shot {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** The out-of-process client: gets shots over IPC, answers each one's time (ms). */
const CLIENT_SOURCE = `
const pause = (ms) => new Promise((r) => setTimeout(r, ms));
process.on('message', async (m) => {
  if (m === 'stop') return process.disconnect();
  const { shot, pauseMs } = m;
  try {
    const t0 = performance.now();
    const res = await fetch(shot.url, {
      method: 'POST',
      headers: { ...shot.headers, 'idempotency-key': crypto.randomUUID() },
      body: shot.body,
      signal: AbortSignal.timeout(10000),
    });
    const text = await res.text();
    const ms = performance.now() - t0;
    let ok = false;
    try { ok = res.status === 200 && JSON.parse(text).success === true; } catch {}
    await pause(pauseMs);
    process.send(ok ? { ms } : { error: 'HTTP ' + res.status + ' ' + text.slice(0, 200) });
  } catch (err) {
    process.send({ error: String(err) });
  }
});
`;

/** Posts through a client process of its own; `stop` ends it. */
function clientProcess(pauseMs: number) {
  const child = spawn(process.execPath, ['--input-type=module', '-e', CLIENT_SOURCE], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return {
    post(shot: Shot, what: string): Promise<number> {
      return new Promise((resolve, reject) => {
        child.once('message', (m: { ms?: number; error?: string }) =>
          m.ms === undefined ? reject(new Error(`${what}: ${m.error}`)) : resolve(m.ms),
        );
        child.send({ shot, pauseMs });
      });
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.send('stop');
      }),
  };
}

export async function journalOverhead(o: JournalOptions): Promise<JournalResult> {
  const closer = new Closer();
  try {
    const plainSandbox = closer.add(openSandbox({ dbPath: o.plainDb }));
    const journaledSandbox = closer.add(openSandbox({ dbPath: o.journaledDb }));
    const store = closer.add(await openStore({ sqlitePath: o.storeDb }));

    const plainUpstream = embeddedSandbox(plainSandbox, EST)!;
    const journaledUpstream = embeddedSandbox(journaledSandbox, EST)!;
    const service = createPostingService({
      store: createJournalStore(store),
      call: clientOf(journaledUpstream).call,
      establishmentId: EST,
      logger: logger(),
    });
    service.start();
    closer.defer(() => service.stop());

    // Both apps see one enrolled terminal, with the rate limits out of the way.
    const { access, cookie } = await benchAccess(store, 'caixa');
    const terminalHeaders = (url: string) => ({ cookie: cookie(url), origin: url });
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
    const plain = closer.add(await listen((req) => plainApp.fetch(req)));
    const journaled = closer.add(await listen((req) => journaledApp.fetch(req)));

    // The disk's cost of one durable commit, for reading the figures: a journaled posting
    // flushes once before it is sent, in place of the plain path's flushed password
    // reservation (and settles after its answer with an unflushed commit).
    const commitDb = closer.add(new Database(o.commitDb));
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
    const shot = (url: string): Shot => ({
      url: url + POSTING_PATH,
      headers: { ...BROWSER_HEADERS, ...terminalHeaders(url) },
      body: postingBody(freshPhone(5_000_000 + ++n), 2590),
    });
    const inline = async (s: Shot, what: string): Promise<number> => {
      const t0 = performance.now();
      const res = await fetch(s.url, {
        method: 'POST',
        headers: { ...s.headers, 'idempotency-key': randomUUID() },
        body: s.body,
        signal: AbortSignal.timeout(10_000),
      });
      await expectSuccess(res, what);
      return performance.now() - t0;
    };
    const client = o.client === 'inline' ? null : clientProcess(o.pauseMs ?? 10);
    if (client !== null) closer.defer(() => client.stop());
    const post = (url: string, what: string): Promise<number> =>
      client === null ? inline(shot(url), what) : client.post(shot(url), what);

    const c: number[] = [];
    const { a: p, b: j } = await interleaved(
      (warmUp) => post(plain.url, warmUp ? 'plain posting (warm-up)' : 'plain posting'),
      (warmUp) => post(journaled.url, warmUp ? 'journaled posting (warm-up)' : 'journaled posting'),
      o,
      () => c.push(commit()),
    );
    const diffs = j.map((b, i) => b - p[i]!);
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
    await closer.closeAll();
  }
}
