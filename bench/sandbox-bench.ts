// Sandbox throughput in process: `sandbox.app.fetch` with no socket, so the figures are the
// sandbox's own cost (routing, validation, SQLite) for one client issuing one request at a time.

import { openSandbox } from '../server/sandbox/sandbox';
import type { Sandbox } from '../server/sandbox/sandbox';
import {
  EXISTING_PHONE,
  LOOKUP_BODY,
  LOOKUP_PATH,
  POSTING_PATH,
  SERVICE_HEADERS,
  expectSuccess,
  freshPhone,
  postingBody,
} from './requests';
import { summarize } from './stats';
import type { Summary } from './stats';

const ORIGIN = 'http://sandbox.bench';

export interface ThroughputResult {
  lookup: Summary & { opsPerSec: number };
  posting: Summary & { opsPerSec: number };
  /** The same postings split by customer: a new phone (registered) or a returning one. */
  postingFresh: Summary;
  postingReturning: Summary;
  /** One seeded customer posted to again and again: latency early vs late in the series. */
  history: { postings: number; window: number; first: Summary; last: Summary };
}

export interface ThroughputOptions {
  warmup: number;
  n: number;
  /** One posting in `returningEvery` is a customer's second visit, the rest new phones. */
  returningEvery: number;
  /** Postings in a row to one seeded customer, to see the cost grow with their history. */
  historyPostings: number;
  /** How many postings at each end of that series are compared. */
  historyWindow: number;
}

function post(sandbox: Sandbox, path: string, body: string): Promise<Response> | Response {
  return sandbox.app.fetch(
    new Request(ORIGIN + path, { method: 'POST', headers: SERVICE_HEADERS, body }),
  );
}

/** Runs `count` requests one after the other; returns each one's latency (ms) and the wall time. */
async function series(
  count: number,
  send: (i: number) => Promise<Response> | Response,
  what: string,
): Promise<{ samples: number[]; wallMs: number }> {
  const samples: number[] = [];
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    const res = await send(i);
    await expectSuccess(res, what);
    samples.push(performance.now() - t0);
  }
  return { samples, wallMs: performance.now() - started };
}

/** R$ 5,00 … R$ 154,99: sometimes enough for the 100-point reward, as at a real till. */
function amount(i: number): number {
  return 500 + ((i * 7919) % 15_000);
}

export async function sandboxThroughput(
  dbPath: string,
  o: ThroughputOptions,
): Promise<ThroughputResult> {
  const sandbox = openSandbox({ dbPath });
  try {
    let registered = 0;
    /**
     * Mostly new phones (the posting registers the customer); every `returningEvery`-th is the
     * second visit of a customer registered about ten postings before. Each customer keeps a
     * short history, so the figures do not depend on N (see `history` for a long one).
     */
    const nextPosting = (i: number): { phone: string; returning: boolean } => {
      if (i % o.returningEvery === o.returningEvery - 1 && registered > 0) {
        return { phone: freshPhone(Math.max(1, registered - 9)), returning: true };
      }
      return { phone: freshPhone(++registered), returning: false };
    };
    const posting = (i: number, returning: boolean[]): Promise<Response> | Response => {
      const p = nextPosting(i);
      returning.push(p.returning);
      return post(sandbox, POSTING_PATH, postingBody(p.phone, amount(i)));
    };

    await series(o.warmup, () => post(sandbox, LOOKUP_PATH, LOOKUP_BODY), 'lookup (warm-up)');
    await series(o.warmup, (i) => posting(i, []), 'posting (warm-up)');

    const lookups = await series(o.n, () => post(sandbox, LOOKUP_PATH, LOOKUP_BODY), 'lookup');
    const returning: boolean[] = [];
    const postings = await series(o.n, (i) => posting(i, returning), 'posting');

    const history = await series(
      o.historyPostings,
      (i) => post(sandbox, POSTING_PATH, postingBody(EXISTING_PHONE, amount(i))),
      'posting (one customer)',
    );
    return {
      lookup: { ...summarize(lookups.samples), opsPerSec: (o.n * 1000) / lookups.wallMs },
      posting: { ...summarize(postings.samples), opsPerSec: (o.n * 1000) / postings.wallMs },
      postingFresh: summarize(postings.samples.filter((_, i) => returning[i] !== true)),
      postingReturning: summarize(postings.samples.filter((_, i) => returning[i] === true)),
      history: {
        postings: o.historyPostings,
        window: o.historyWindow,
        first: summarize(history.samples.slice(0, o.historyWindow)),
        last: summarize(history.samples.slice(-o.historyWindow)),
      },
    };
  } finally {
    sandbox.close();
  }
}

/** Time from `openSandbox` on a new file to ready (open, migrate, seed), `runs` times. */
export function openTimes(newDbPath: () => string, runs: number): number[] {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const file = newDbPath();
    const t0 = performance.now();
    const sandbox = openSandbox({ dbPath: file });
    times.push(performance.now() - t0);
    sandbox.close();
  }
  return times;
}
