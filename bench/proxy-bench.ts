// Proxy overhead over real loopback HTTP: the app server (sandbox mode, wired as
// server/main.ts does) against the sandbox served alone (as server/sandbox-cli.ts does),
// the same lookups against both, interleaved so both see the same noise.

import pino from 'pino';
import type { Logger } from 'pino';
import path from 'node:path';
import { createAppServer } from '../server/app/app';
import { embeddedSandbox } from '../server/app/embedded';
import { openStore } from '../server/store';
import { appLogger, benchAccess, Closer, listen, sink, type Running } from './in-process';
import { loggedFetch } from '../server/sandbox/logged-fetch';
import { openSandbox } from '../server/sandbox/sandbox';
import type { Sandbox } from '../server/sandbox/sandbox';
import {
  BROWSER_HEADERS,
  EST,
  LOOKUP_BODY,
  LOOKUP_PATH,
  SERVICE_HEADERS,
  expectSuccess,
} from './requests';
import { interleaved, median, summarize } from './stats';
import type { Summary } from './stats';

export interface ProxyResult {
  direct: Summary;
  proxy: Summary;
  /** median(proxy) / median(direct). */
  ratio: number;
  /** Median of the per-round ratios proxy_i / direct_i (a second view of the same data). */
  pairedRatio: number;
  /** `concurrency` clients at once, alternating direct and proxy batches. */
  concurrent: ConcurrentResult;
}

export interface ConcurrentResult {
  concurrency: number;
  /** Requests per batch; `batches` batches of each, alternated. */
  perBatch: number;
  batches: number;
  direct: { rps: number; latency: Summary };
  proxy: { rps: number; latency: Summary };
  /** proxy requests/s ÷ direct requests/s (all batches pooled). */
  throughputRatio: number;
  /** p50 latency of proxy ÷ direct (all batches pooled). */
  p50Ratio: number;
  /**
   * The same two ratios for each pair of neighbouring batches (one each way, run back to
   * back), so a garbage collection or a noisy neighbour during one batch shows as one
   * outlying pair instead of moving the pooled figure.
   */
  pairs: { throughput: number; p50: number }[];
}

export interface ProxyOptions {
  distDir: string;
  directDb: string;
  appDb: string;
  warmup: number;
  rounds: number;
  concurrency: number;
  perBatch: number;
  batches: number;
}

/**
 * Both servers log one line per request at level info, as their main.ts do; the lines go to
 * a sink so the cost of building them is measured but the terminal stays readable.
 */
const sandboxLogger = (): Logger => pino({ name: 'sandbox' }, sink);

/** The sandbox alone, as `npm run sandbox` serves it (its log line included). */
function serveSandbox(sandbox: Sandbox, log: Logger): Promise<Running> {
  return listen(loggedFetch(sandbox, log));
}

/**
 * The app server in sandbox mode, as `npm run serve` builds it without LOYALTY_BASE_URL, with
 * its own store (a SQLite file: WAL, synchronous=FULL) and one enrolled terminal, whose
 * cookie is returned. Each request pays the credential check and the rate counting; the
 * limits are raised so the bench measures that cost, not refusals.
 */
async function serveApp(
  sandbox: Sandbox,
  distDir: string,
  storeFile: string,
  logger: Logger,
): Promise<Running & { cookie: string }> {
  const upstream = embeddedSandbox(sandbox, EST);
  if (upstream === null) throw new Error(`no sandbox establishment ${EST}`);
  const store = await openStore({ sqlitePath: storeFile });
  const { access, cookie } = await benchAccess(store, 'gerente');
  const app = createAppServer({ distDir, logger, ...upstream, ...access });
  // With the server's env (its socket), as server/main.ts serves `app.fetch`.
  const running = await listen((req, env) => app.fetch(req, env));
  return {
    url: running.url,
    cookie: cookie(running.url),
    close: async () => {
      await running.close();
      await store.close();
    },
  };
}

async function timedLookup(
  url: string,
  headers: Record<string, string>,
  what: string,
): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(url + LOOKUP_PATH, {
    method: 'POST',
    headers,
    body: LOOKUP_BODY,
    signal: AbortSignal.timeout(10_000), // a stuck server fails the run, never hangs it
  });
  await expectSuccess(res, what);
  return performance.now() - t0;
}

export async function proxyOverhead(o: ProxyOptions): Promise<ProxyResult> {
  const closer = new Closer();
  try {
    const directSandbox = closer.add(openSandbox({ dbPath: o.directDb }));
    const appSandbox = closer.add(openSandbox({ dbPath: o.appDb }));
    const direct = closer.add(await serveSandbox(directSandbox, sandboxLogger()));
    const storeFile = path.join(path.dirname(o.appDb), 'app-store.db');
    const proxy = closer.add(await serveApp(appSandbox, o.distDir, storeFile, appLogger()));

    const headersDirect = { ...SERVICE_HEADERS };
    const headersProxy = { ...BROWSER_HEADERS, cookie: proxy.cookie, origin: proxy.url };
    const one = (which: 'direct' | 'proxy', what: string): Promise<number> =>
      which === 'direct'
        ? timedLookup(direct.url, headersDirect, `direct ${what}`)
        : timedLookup(proxy.url, headersProxy, `proxy ${what}`);

    const lookup = (warmUp: boolean) => (warmUp ? 'lookup (warm-up)' : 'lookup');
    const { a: d, b: p } = await interleaved(
      (warmUp) => one('direct', lookup(warmUp)),
      (warmUp) => one('proxy', lookup(warmUp)),
      o,
    );
    const paired = p.map((b, i) => b / d[i]!);
    const directSummary = summarize(d);
    const proxySummary = summarize(p);

    // Throughput: `concurrency` requests in flight at all times, batches alternated.
    const batch = async (which: 'direct' | 'proxy', into: number[]): Promise<number> => {
      let next = 0;
      const t0 = performance.now();
      await Promise.all(
        Array.from({ length: o.concurrency }, async () => {
          while (next < o.perBatch) {
            next++;
            into.push(await one(which, 'concurrent lookup'));
          }
        }),
      );
      return performance.now() - t0;
    };
    const cd: number[] = [];
    const cp: number[] = [];
    await batch('direct', []);
    await batch('proxy', []);
    let directMs = 0;
    let proxyMs = 0;
    const pairs: { throughput: number; p50: number }[] = [];
    for (let i = 0; i < o.batches; i++) {
      const bd: number[] = [];
      const bp: number[] = [];
      let dMs: number;
      let pMs: number;
      if (i % 2 === 0) {
        dMs = await batch('direct', bd);
        pMs = await batch('proxy', bp);
      } else {
        pMs = await batch('proxy', bp);
        dMs = await batch('direct', bd);
      }
      directMs += dMs;
      proxyMs += pMs;
      cd.push(...bd);
      cp.push(...bp);
      pairs.push({ throughput: dMs / pMs, p50: median(bp) / median(bd) });
    }
    const directRps = (o.perBatch * o.batches) / (directMs / 1000);
    const proxyRps = (o.perBatch * o.batches) / (proxyMs / 1000);
    const cdSummary = summarize(cd);
    const cpSummary = summarize(cp);
    return {
      direct: directSummary,
      proxy: proxySummary,
      ratio: proxySummary.median / directSummary.median,
      pairedRatio: median(paired),
      concurrent: {
        concurrency: o.concurrency,
        perBatch: o.perBatch,
        batches: o.batches,
        direct: { rps: directRps, latency: cdSummary },
        proxy: { rps: proxyRps, latency: cpSummary },
        throughputRatio: proxyRps / directRps,
        p50Ratio: cpSummary.median / cdSummary.median,
        pairs,
      },
    };
  } finally {
    // Servers first, then their databases.
    await closer.closeAll();
  }
}
