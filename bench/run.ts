// `npm run bench`: bundle size, sandbox throughput, proxy overhead, sandbox start-up, a long
// customer history, the counter in Chromium, Lighthouse, the store's PDV (a sale to the
// counter's event stream), and with `--scale` a sandbox of a million customers and two million
// reward records.
//
//   npm run bench [-- --runs=3] [--scale] [--no-lighthouse] [--no-browser]
//                    [--baseline=<git ref>|none]
//   npm run bench -- --chain [--chain-seconds=300] [--chain-rate=110] [--chain-stores=200]
//   npm run bench -- --chain-faults [--chain-rate=25] [--chain-stores=200]
//   npm run bench -- --only=journal|counter|lighthouse[,…] [--runs=N] [--baseline=<git ref>|none]
//
// `--only=` runs only the named sections, for measuring one figure while working on it:
// `journal` section 4 (the journal's added latency; it builds the SPA only when dist/ has none),
// `counter` section 7 and `lighthouse` section 8 (both build this checkout and the previous
// release as the whole bench does). Their checks still decide the exit code.
// `--chain` runs only the chain section (bench/chain-bench.ts): a chain's counters through
// HAProxy to 3 replicas on PostgreSQL, for 5 minutes by default.
//
// Figures measured in repeated runs print as min / median / max over the runs. The counter in
// Chromium and Lighthouse's mobile pages are measured beside the previous release, built from
// git in the same run (baseline.ts says which commit that is by default).
//
// The machine is small and noisy (2 shared cores), so the only timing target is a RATIO of two
// figures measured in the same run, interleaved; absolute latencies are printed for reading,
// never checked. Sizes are deterministic and checked as they are. Exit code 1 when a target
// fails or the benchmark itself breaks.

import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { callsBench } from './calls-bench';
import { buildBaseline, resolveBaseline, type Baseline } from './baseline';
import { analyzeBundle, buildSpa } from './bundle';
import { journalOverhead } from './journal-bench';
import { historyBench } from './history-bench';
import { buildScaleDb } from './scale-db';
import { scaleBench } from './scale-bench';
import { dashboardScaleBench } from './dashboard-scale';
import { conferenciaBench } from './conferencia-bench';
import { pdvBench } from './pdv-bench';
import { vigilanciaBench } from './vigilancia-bench';
import { chainBench } from './chain-bench';
import { chainFaultsBench, chainFaultsReport } from './chain-faults';
import { BROWSER, counterSection, lighthouseSection } from './release-bench';
import {
  comparisonTable,
  lowerThanBefore,
  spread,
  type Check,
  type Compared,
  type Figure,
} from './report';
import { buildServer, startServer } from './server-process';
import { proxyOverhead } from './proxy-bench';
import { openTimes, sandboxThroughput } from './sandbox-bench';
import { kb, latencyTable, median, ms, pct, summarize, table } from './stats';
import { makeTempDir, type TempDir } from './tmp';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const distDir = path.join(root, 'dist');

/** Counter route initial JS, gzip. Decimal: 110 KB = 110 000 bytes (not 112 640). */
const INITIAL_JS_LIMIT = 110_000;
/** React + ReactDOM production gzip, the baseline the team was given (decimal KB). */
const REACT_BASELINE = 68_600;
/**
 * Proxy median / direct median for one lookup over loopback. Both paths pay the client's
 * fetch, a TCP round trip, Node's HTTP parsing, a log line and the same SQLite query; the
 * proxy adds one Hono app (logging, security headers, path checks), a second in-process
 * Request, and reading and re-framing the body. Measured at 1.27–1.31 over six runs here;
 * 2.0 leaves room for a noisy neighbour while still catching a proxy that doubles the cost
 * of a request (an extra copy per chunk, a sync log write, a hop over the network).
 */
const PROXY_RATIO_LIMIT = 2.0;

const THROUGHPUT = {
  warmup: 300,
  n: 3000,
  returningEvery: 4,
  historyPostings: 300,
  historyWindow: 50,
};
const PROXY = { warmup: 300, rounds: 3000, concurrency: 50, perBatch: 2000, batches: 6 };
/** Issue 12: at concurrency 50, proxy throughput ≥ 0.85× direct and p50 ≤ 1.2× direct. */
const PROXY_C50 = { throughput: 0.85, p50: 1.2 };
/**
 * What the postings journal adds to a posting (median, ms), the target on loopback
 * with SQLite. Both paths flush the store once before answering (plain: the attendant-password
 * reservation; journaled: the entry, which carries the reservation), and clear the reservation
 * after the answer with an unflushed commit, so the journal adds no flush: it adds one customer
 * read (the snapshot), its own bookkeeping and a larger flushed commit.
 */
const JOURNAL_ADDED_LIMIT_MS = 2;
const JOURNAL = { warmup: 50, rounds: 500 };
const OPEN_RUNS = 3;
const HISTORY = { earlier: 3000, postings: 30, lookups: 10 };
/** The store's PDV: sales to the counter's stream, then sales with a known CPF. */
const PDV = { sales: 100, posted: 30, warmup: 5 };
/** Issue 28: the PDV's sale shows at the counter within 100 ms (p95) on loopback. */
const PDV_TO_COUNTER_P95_MS = 100;
/** Vigilância: the rules over one settled posting, with a journal of a big store's quarter. */
const VIGILANCIA = { entries: 1_000_000, evaluations: 1_000 };
const VIGILANCIA_P95_MS = 2;
const DASHBOARD_SCALE = { entries: 1_000_000, days: 365, requests: 30 };
const SCALE = { customers: 1_000_000, rewards: 2_000_000, days: 730, lookups: 300, pages: 40 };

interface Args {
  runs: number;
  scale: boolean;
  lighthouse: boolean;
  browser: boolean;
  /** The previous release's git ref; undefined: the default (baseline.ts); 'none': skipped. */
  baseline: string | undefined;
  /** Only the chain section, for this many seconds (0: not run). */
  chainSeconds: number;
  /** The chain's offered postings per second. */
  chainRate: number;
  /** The chain's stores (establishments), 3 counters each. */
  chainStores: number;
  /** Only the chain's faults section (`--chain-faults`). */
  chainFaults: boolean;
  /** `--only=`: the sections to run (null: all). */
  only: ReadonlySet<Section> | null;
}

const SECTIONS = ['journal', 'counter', 'lighthouse'] as const;
type Section = (typeof SECTIONS)[number];

/** The chain: 200 stores × 3 counters, 3 replicas, offered above the target rate. */
const CHAIN = { stores: 200, terminalsPerStore: 3, replicas: 3, rate: 110, warmupSeconds: 15 };
/** The faults' steady load: under what this 2-core machine sustains (about 45/s). */
const CHAIN_FAULTS_RATE = 25;
/** A 500-store chain's peak, on this 2-core machine with everything on it. */
const CHAIN_TARGET = { perSecond: 100, p95Ms: 150 };

function parseArgs(argv: readonly string[]): Args {
  const args: Args = {
    runs: 3,
    scale: false,
    lighthouse: true,
    browser: true,
    baseline: undefined,
    chainSeconds: 0,
    chainRate: 0,
    chainStores: CHAIN.stores,
    chainFaults: false,
    only: null,
  };
  for (const a of argv) {
    const only = /^--only=(.+)$/.exec(a);
    if (only) {
      const names = only[1]!.split(',');
      const unknown = names.filter((n) => !(SECTIONS as readonly string[]).includes(n));
      if (unknown.length > 0) {
        throw new Error(`unknown section ${unknown.join(', ')} (--only=${SECTIONS.join('|')})`);
      }
      args.only = new Set(names as Section[]);
      continue;
    }
    const runs = /^--runs=(\d+)$/.exec(a);
    const chainSeconds = /^--chain-seconds=(\d+)$/.exec(a);
    if (chainSeconds) {
      args.chainSeconds = Math.max(5, Number(chainSeconds[1]));
      continue;
    }
    const chainRate = /^--chain-rate=(\d+)$/.exec(a);
    if (chainRate) {
      args.chainRate = Math.max(1, Number(chainRate[1]));
      continue;
    }
    const chainStores = /^--chain-stores=(\d+)$/.exec(a);
    if (chainStores) {
      args.chainStores = Math.min(1000, Math.max(1, Number(chainStores[1])));
      continue;
    }
    if (a === '--chain') {
      args.chainSeconds ||= 300;
      continue;
    }
    if (a === '--chain-faults') {
      args.chainFaults = true;
      continue;
    }
    const baseline = /^--baseline=(.+)$/.exec(a);
    if (runs) args.runs = Math.max(1, Number(runs[1]));
    else if (baseline) args.baseline = baseline[1];
    else if (a === '--scale') args.scale = true;
    else if (a === '--no-lighthouse') args.lighthouse = false;
    else if (a === '--no-browser') args.browser = false;
    else {
      throw new Error(
        `unknown option ${a} (--runs=N, --scale, --no-lighthouse, --no-browser, ` +
          '--baseline=<git ref>|none, --only=journal|counter|lighthouse, --chain, ' +
          '--chain-seconds=N, --chain-rate=N, --chain-stores=N, --chain-faults)',
      );
    }
  }
  return args;
}

function heading(text: string): void {
  process.stdout.write(`\n== ${text}\n`);
}
function print(text: string): void {
  process.stdout.write(`${text}\n`);
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  const checks: Check[] = [];
  const figures: Figure[] = [];
  const compared: Compared[] = [];
  let previousLabel = '';
  const figure = (name: string, unit: string, target: string): Figure => {
    const f: Figure = { name, unit, values: [], target };
    figures.push(f);
    return f;
  };
  const started = performance.now();
  print(`fidelidade-pdv bench  (node ${process.version}, ${new Date().toISOString()})`);
  if (args.chainFaults) {
    const rate = args.chainRate || CHAIN_FAULTS_RATE;
    return chainFaultsSection({ ...CHAIN, rate, stores: args.chainStores }, started);
  }
  if (args.chainSeconds > 0) {
    const chain = { ...CHAIN, seconds: args.chainSeconds, rate: args.chainRate || CHAIN.rate };
    return chainSection({ ...chain, stores: args.chainStores }, started);
  }
  if (args.only !== null) return onlySections(args, started);

  // 1. Bundle
  heading('1. Bundle (vite build, gzip level 9; 1 KB = 1000 bytes)');
  const buildMs = await buildSpa(root);
  const bundle = analyzeBundle(distDir);
  print(`vite build: ${(buildMs / 1000).toFixed(1)} s   entry: ${bundle.entry}`);
  print(
    table(
      ['file', 'kind', 'raw', 'gzip', 'adds on load'],
      [
        ...bundle.initial.map((a) => [a.file, 'initial JS', kb(a.raw), kb(a.gzip), '']),
        ...bundle.lazy.map((a) => [a.file, 'lazy JS', kb(a.raw), kb(a.gzip), kb(a.extraGzip)]),
        ...bundle.css.map((a) => [a.file, 'CSS', kb(a.raw), kb(a.gzip), '']),
      ],
      2,
    ),
  );
  print(
    "lazy = dynamic import() targets; 'adds on load' = it plus its static imports not initial.",
  );
  print('');
  const reactShare = REACT_BASELINE / bundle.initialGzip;
  print(
    table(
      ['figure', 'gzip', 'bytes'],
      [
        ['counter route initial JS', kb(bundle.initialGzip), String(bundle.initialGzip)],
        ['all JS chunks', kb(bundle.allJsGzip), String(bundle.allJsGzip)],
        ['CSS', kb(bundle.cssGzip), String(bundle.cssGzip)],
        ['React baseline (given)', kb(REACT_BASELINE), String(REACT_BASELINE)],
        [
          'initial JS beyond React',
          kb(bundle.initialGzip - REACT_BASELINE),
          String(bundle.initialGzip - REACT_BASELINE),
        ],
      ],
    ),
  );
  print(
    `initial JS = ${(bundle.initialGzip / REACT_BASELINE).toFixed(2)}x React's baseline; ` +
      `React is ${pct(reactShare)} of it, the rest ${pct(1 - reactShare)}.`,
  );
  if (bundle.unresolved.length > 0) print(`unresolved imports: ${bundle.unresolved.join(', ')}`);
  checks.push({
    name: 'counter initial JS (gzip)',
    figure: `${bundle.initialGzip} B`,
    target: `<= ${INITIAL_JS_LIMIT} B`,
    pass: bundle.initialGzip <= INITIAL_JS_LIMIT,
  });
  checks.push({
    name: 'initial imports resolve in dist/',
    figure: String(bundle.unresolved.length),
    target: '0 unresolved',
    pass: bundle.unresolved.length === 0,
  });

  const tmp = makeTempDir('fidelidade-bench-');
  try {
    // 2. Sandbox in process
    heading(
      `2. Sandbox in process (app.fetch, one client, ${THROUGHPUT.warmup} warm-up, ` +
        `N = ${THROUGHPUT.n} each)`,
    );
    const t = await sandboxThroughput(tmp.file('throughput.db'), THROUGHPUT);
    print(
      table(
        ['operation', 'median ms', 'p95 ms', 'mean ms', 'max ms', 'ops/s'],
        [
          [
            'lookup (buscar by celular)',
            ms(t.lookup.median),
            ms(t.lookup.p95),
            ms(t.lookup.mean),
            ms(t.lookup.max),
            t.lookup.opsPerSec.toFixed(0),
          ],
          [
            'posting (pontuar), all',
            ms(t.posting.median),
            ms(t.posting.p95),
            ms(t.posting.mean),
            ms(t.posting.max),
            t.posting.opsPerSec.toFixed(0),
          ],
          ...(
            [
              [`  of which ${t.postingFresh.n} new customers`, t.postingFresh],
              [`  of which ${t.postingReturning.n} returning customers`, t.postingReturning],
            ] as const
          ).map(([label, s]) => [label, ms(s.median), ms(s.p95), ms(s.mean), ms(s.max), '']),
        ],
      ),
    );
    print('ops/s = N / wall time of the sequential loop (latency-bound, not a load test).');
    const h = t.history;
    print(
      `one seeded customer, ${h.postings} postings in a row: median ${ms(h.first.median)} ms ` +
        `over the first ${h.window}, ${ms(h.last.median)} ms over the last ${h.window} ` +
        `(x${(h.last.median / h.first.median).toFixed(1)}):\n` +
        "  a posting's cost grows with the customer's history (credits replayed per posting)",
    );

    // 3. Proxy overhead
    const c50ThroughputFig = figure('proxy/direct throughput, concurrency 50', 'x', '>= 0.85');
    const c50P50Fig = figure('proxy/direct p50, concurrency 50', 'x', '<= 1.2');
    heading(
      `3. Proxy overhead over loopback HTTP (keep-alive fetch, lookups, ${PROXY.warmup} ` +
        `warm-up + ${PROXY.rounds} interleaved rounds)`,
    );
    const p = await proxyOverhead({
      distDir,
      directDb: tmp.file('direct.db'),
      appDb: tmp.file('app.db'),
      ...PROXY,
    });
    print(
      latencyTable([
        ['direct: client -> sandbox', p.direct],
        ['proxy: client -> app server -> sandbox', p.proxy],
      ]),
    );
    print(
      `ratio proxy/direct: ${p.ratio.toFixed(2)} (medians), ${p.pairedRatio.toFixed(2)} ` +
        `(median of per-round ratios); added ${ms(p.proxy.median - p.direct.median)} ms`,
    );
    const c50 = p.concurrent;
    print(
      `\nconcurrency ${c50.concurrency}: ${c50.batches} batches of ${c50.perBatch} lookups ` +
        'each way, alternated (client and both servers in this process)',
    );
    print(
      table(
        ['path', 'requests/s', 'p50 ms', 'p95 ms'],
        [
          [
            'direct',
            c50.direct.rps.toFixed(0),
            ms(c50.direct.latency.median),
            ms(c50.direct.latency.p95),
          ],
          [
            'proxy',
            c50.proxy.rps.toFixed(0),
            ms(c50.proxy.latency.median),
            ms(c50.proxy.latency.p95),
          ],
        ],
      ),
    );
    const pairThroughput = c50.pairs.map((x) => x.throughput);
    const pairP50 = c50.pairs.map((x) => x.p50);
    print(
      `all batches pooled: throughput proxy/direct ${c50.throughputRatio.toFixed(2)}, ` +
        `p50 proxy/direct ${c50.p50Ratio.toFixed(2)}\n` +
        `per pair of neighbouring batches (min / median / max of ${c50.pairs.length}): ` +
        `throughput ${spread(pairThroughput, 'x')}, p50 ${spread(pairP50, 'x')}`,
    );
    c50ThroughputFig.values.push(...pairThroughput);
    c50P50Fig.values.push(...pairP50);
    // The target is judged on the median pair: one batch caught by a collection or by
    // another process moves it no more than any other pair.
    const medianThroughput = median(pairThroughput);
    const medianP50 = median(pairP50);
    checks.push({
      name: 'proxy/direct throughput, concurrency 50',
      figure: medianThroughput.toFixed(2),
      target: `>= ${PROXY_C50.throughput}`,
      pass: medianThroughput >= PROXY_C50.throughput,
    });
    checks.push({
      name: 'proxy/direct p50, concurrency 50',
      figure: medianP50.toFixed(2),
      target: `<= ${PROXY_C50.p50}`,
      pass: medianP50 <= PROXY_C50.p50,
    });
    checks.push({
      name: 'proxy/direct median ratio',
      figure: p.ratio.toFixed(2),
      target: `<= ${PROXY_RATIO_LIMIT.toFixed(1)}`,
      pass: p.ratio <= PROXY_RATIO_LIMIT,
    });

    // 4. Postings journal
    await journalSection(tmp, checks);

    // 5. Start-up
    heading(
      `5. Sandbox start-up on a new database file (open + migrate + seed, ${OPEN_RUNS} runs)`,
    );
    const open = summarize(openTimes(() => tmp.file('open.db'), OPEN_RUNS));
    print(`median ${ms(open.median)} ms, min ${ms(open.min)} ms, max ${ms(open.max)} ms`);

    // 6. A long history
    heading(
      `6. A customer with ${HISTORY.earlier} earlier postings (in process; ${args.runs} runs of ` +
        `${HISTORY.postings} postings and ${HISTORY.lookups} lookups)`,
    );
    const postingFig = figure(`posting, ${HISTORY.earlier} earlier postings, p50`, 'ms', '<= 10');
    const lookupFig = figure('lookup of that customer, p50', 'ms', 'UI smooth');
    const sizeFig = figure('lookup answer of that customer', 'KB', 'UI smooth');
    const history = await historyBench(tmp.file('history.db'), HISTORY.earlier);
    try {
      print(`built by ${HISTORY.earlier} postings in ${(history.buildMs / 1000).toFixed(1)} s`);
      for (let run = 0; run < args.runs; run++) {
        const r = await history.round(HISTORY);
        postingFig.values.push(r.postingP50Ms);
        lookupFig.values.push(r.lookupP50Ms);
        sizeFig.values.push(r.lookupBytes);
        print(
          `run ${run + 1}: posting p50 ${ms(r.postingP50Ms)} ms, lookup p50 ` +
            `${ms(r.lookupP50Ms)} ms, answer ${kb(r.lookupBytes)}`,
        );
      }
    } finally {
      history.close();
    }

    // 7–8 (and 8b). Pages in Chromium and the PDV, against the server as `npm start` runs it;
    // the counter and Lighthouse beside the previous release, built from git in this run.
    await buildServer(root);
    let previous: Baseline | null = null;
    if ((args.browser || args.lighthouse) && args.baseline !== 'none') {
      const chosen = resolveBaseline(root, args.baseline);
      heading(`Previous release: ${chosen.sha.slice(0, 7)} (${chosen.ref})`);
      const started = performance.now();
      previous = await buildBaseline(root, chosen, tmp.file('previous-release'));
      previousLabel = `previous release ${chosen.sha.slice(0, 7)}`;
      print(
        `${previous.describe}\nbuilt from git archive in ` +
          `${((performance.now() - started) / 1000).toFixed(1)} s (this node_modules)`,
      );
    }
    const section = { root, previous, runs: args.runs, tmp, print, figure, checks, compared };
    if (args.browser) {
      heading(
        `7. Counter in Chromium (${args.runs} runs of ${BROWSER.loads} page loads` +
          `${previous ? ', this build and the previous release in turn' : ''}; per load ` +
          `${BROWSER.keystrokes} keys per field, ${BROWSER.postings} customers served)`,
      );
      await counterSection(section);
    }
    if (args.lighthouse) {
      heading(`8. Lighthouse performance (${args.runs} runs; Debian's Chromium, headless)`);
      await lighthouseSection(section);
    }

    // 8b. The store's PDV
    heading(
      `8b. The store's PDV through the app server (loopback, sandbox mode; ${args.runs} runs of ` +
        `${PDV.sales} sales and ${PDV.posted} with a known CPF, one at a time, ` +
        `${PDV.warmup} warm-up each)`,
    );
    const toCounterFig = figure('PDV POST -> venda_pdv on the counter stream, p95', 'ms', '<= 100');
    const toCounterP50Fig = figure('PDV POST -> venda_pdv on the counter stream, p50', 'ms', '-');
    const toPostedFig = figure('PDV POST (known CPF) -> answer lançada, p95', 'ms', '-');
    const toPostedP50Fig = figure('PDV POST (known CPF) -> answer lançada, p50', 'ms', '-');
    for (let run = 0; run < args.runs; run++) {
      const r = await pdvBench(
        root,
        { sandboxDb: tmp.file(`pdv-sandbox-${run}.db`), appDb: tmp.file(`pdv-app-${run}.db`) },
        PDV,
      );
      const counter = summarize(r.toCounterMs);
      const posted = summarize(r.toPostedMs);
      toCounterFig.values.push(counter.p95);
      toCounterP50Fig.values.push(counter.median);
      toPostedFig.values.push(posted.p95);
      toPostedP50Fig.values.push(posted.median);
      print(
        `run ${run + 1}: to the counter p50 ${ms(counter.median)} ms, p95 ${ms(counter.p95)} ms, ` +
          `max ${ms(counter.max)} ms; posted p50 ${ms(posted.median)} ms, p95 ` +
          `${ms(posted.p95)} ms (${r.longPolls} of ${r.toPostedMs.length + PDV.warmup} ` +
          'needed the long poll)',
      );
    }
    const pdvP95 = median(toCounterFig.values);
    checks.push({
      name: 'PDV sale -> counter stream, p95 (median of runs)',
      figure: `${ms(pdvP95)} ms`,
      target: `<= ${PDV_TO_COUNTER_P95_MS} ms`,
      pass: pdvP95 <= PDV_TO_COUNTER_P95_MS,
    });

    // 8d. Vigilância's rules per posting over a big journal
    heading(
      `8d. Vigilância: the rules per posting over ${VIGILANCIA.entries.toLocaleString('en')} ` +
        `journal entries (SQLite, temporary folder; ${args.runs} runs of ` +
        `${VIGILANCIA.evaluations.toLocaleString('en')} postings, in process)`,
    );
    // Checked on the evaluations' CPU time: on the shared 2-core machine a 0.3 ms evaluation's
    // wall clock mostly measures the other processes' time slices (load average printed).
    const vigFig = figure('Vigilância rules per posting, CPU p95', 'ms', `<= ${VIGILANCIA_P95_MS}`);
    const vigWallFig = figure('Vigilância rules per posting, wall p95', 'ms', '-');
    for (let run = 0; run < args.runs; run++) {
      const r = await vigilanciaBench(tmp.file(`vigilancia-${run}.db`), VIGILANCIA);
      vigFig.values.push(r.cpuP95);
      vigWallFig.values.push(r.p95);
      print(
        `run ${run + 1}: built in ${(r.buildMs / 1000).toFixed(0)} s; first of a store ` +
          `${ms(r.firstMs)} ms (its 30-day p99, kept for the day); then p50 ${ms(r.p50)} ms, ` +
          `p95 ${ms(r.p95)} ms, max ${ms(r.max)} ms (CPU time p95 ${ms(r.cpuP95)} ms); ` +
          `${r.alerts} alerts; load average ${loadavg()[0]!.toFixed(1)}`,
      );
    }
    const vigP95 = median(vigFig.values);
    checks.push({
      name: 'Vigilância rules per posting, CPU p95 (1M journal entries)',
      figure: `${ms(vigP95)} ms`,
      target: `<= ${VIGILANCIA_P95_MS} ms`,
      pass: vigP95 <= VIGILANCIA_P95_MS,
    });

    // 8c. Calls to the service per customer served (counted by the server's /metrics)
    if (args.browser) {
      heading(
        `8c. Calls to the loyalty service per customer served at the counter (${args.runs} runs)`,
      );
      const start = (run: number) => startServer(root, tmp.file(`calls-${run}.db`));
      for (const k of await callsBench({ runs: args.runs, start, print })) {
        const name = `calls to the service per customer served, ${k.label}`;
        figure(name, '', `<= ${k.target}`).values.push(...k.totals);
        const worst = Math.max(...k.totals);
        checks.push({
          name,
          figure: String(worst),
          target: `<= ${k.target}`,
          pass: worst <= k.target,
        });
      }
    }

    // 9. Scale
    if (args.scale) {
      heading(
        `9. Sandbox at scale: ${SCALE.customers.toLocaleString('en')} customers, ` +
          `${SCALE.rewards.toLocaleString('en')} reward records (temporary database)`,
      );
      const nowIso = new Date().toISOString();
      const dbPath = tmp.file('scale.db');
      const built = buildScaleDb(dbPath, {
        customers: SCALE.customers,
        rewards: SCALE.rewards,
        days: SCALE.days,
        nowMs: Date.parse(nowIso),
      });
      print(
        `built in ${(built.buildMs / 1000).toFixed(0)} s: ${built.customers} customers, ` +
          `${built.rewards} rewards`,
      );
      const lookupFigs = ['celular', 'cpf', 'id_cliente'].map((by) =>
        figure(`1M customers, lookup by ${by}, p99`, 'ms', '<= 5'),
      );
      const listFig = figure('2M rewards, list page p99 (worst filter)', 'ms', '<= 50');
      const listAllFig = figure('2M rewards, list page p99 (all filters)', 'ms', '<= 50');
      for (let run = 0; run < args.runs; run++) {
        const r = await scaleBench(dbPath, built, {
          nowIso,
          lookups: SCALE.lookups,
          pagesPerVariant: SCALE.pages,
        });
        r.lookups.forEach((l, i) => lookupFigs[i]?.values.push(l.p99));
        listFig.values.push(Math.max(...r.lists.map((l) => l.p99)));
        listAllFig.values.push(r.listAll.p99);
        if (run === args.runs - 1) {
          print(
            table(
              ['request (last run)', 'n', 'p50 ms', 'p99 ms', 'max ms'],
              [...r.lookups, ...r.lists, r.listAll].map((l) => [
                l.label,
                String(l.n),
                ms(l.p50),
                ms(l.p99),
                ms(l.max),
              ]),
            ),
          );
        }
      }
      // The conferência of a day of 2,000 postings (1,000 customers, two sales each).
      heading(
        '10. Conferência: 2,000 postings of 1,000 customers, CONFERENCIA_LEITURAS_POR_SEGUNDO=5',
      );
      const conf = await conferenciaBench(tmp, {
        postings: 2_000,
        customers: 1_000,
        sampleCustomers: 25,
      });
      print(
        `rate unbounded: ${conf.postings} postings of ${conf.customers} customers conferred in ` +
          `${(conf.unboundedMs / 1000).toFixed(1)} s (${conf.reads} reads, ${conf.confirmed} ` +
          `confirmed, ${conf.findings} findings): the work itself, ` +
          `${(conf.unboundedMs / conf.customers).toFixed(1)} ms a customer\n` +
          `at 5 reads/s, measured on ${conf.sampleCustomers} customers: ` +
          `${(conf.sampleMs / 1000).toFixed(1)} s (${(conf.sampleMs / Math.max(1, conf.sampleCustomers - 1)).toFixed(0)} ms a read)\n` +
          `at 5 reads/s, the whole day: ${(conf.estimatedAt5Ms / 1000).toFixed(0)} s ` +
          `(${(conf.estimatedAt5Ms / 60_000).toFixed(1)} min): reads are the bound, customers / 5; ` +
          `2,000 postings of 2,000 different customers would take ${(2_000 / 5 / 60).toFixed(1)} min`,
      );
      figure('conferência, 2,000 postings at 5 reads/s', 's', '-').values.push(
        conf.estimatedAt5Ms / 1000,
      );
    }
    // 10. The manager's dashboard over a big journal
    if (args.scale) {
      heading(
        `10. Dashboard over ${DASHBOARD_SCALE.entries.toLocaleString('en')} journal entries ` +
          `(a year, 12 terminals; SQLite, temporary store)`,
      );
      const r = await dashboardScaleBench(tmp.file('dashboard.db'), DASHBOARD_SCALE);
      print(`built in ${(r.buildMs / 1000).toFixed(0)} s`);
      print(
        table(
          ['period', 'entries in it', 'first answer ms', 'p50 ms', 'p95 ms', 'max ms'],
          r.periods.map((p) => [
            p.label,
            p.rows.toLocaleString('en'),
            ms(p.first),
            ms(p.p50),
            ms(p.p95),
            ms(p.max),
          ]),
        ),
      );
      print(
        'The first answer of a period reads its past days from the journal and keeps them ' +
          '(dashboard_days); later answers read today from the journal and the rest from ' +
          'what was kept, unless an entry of that day changed since.',
      );
      const worst = Math.max(...r.periods.map((p) => p.p95));
      checks.push({
        name: 'dashboard p95, 1M journal entries',
        figure: `${ms(worst)} ms`,
        target: '<= 200 ms',
        pass: worst <= 200,
      });
    }
  } finally {
    tmp.remove();
  }

  heading(`Issue 12 figures (min / median / max over ${args.runs} runs)`);
  print(
    table(
      ['figure', 'unit', 'measured', 'target'],
      figures.map((f) => [f.name, f.unit, spread(f.values, f.unit), f.target]),
    ),
  );

  if (compared.length > 0 && previousLabel !== '') {
    heading(
      `This build against the ${previousLabel} (min / median / max over ${args.runs} runs, ` +
        'measured in turn in each run)',
    );
    print(comparisonTable(compared, previousLabel));
    const lower = compared.filter((c) => lowerThanBefore(c) === true).length;
    const judged = compared.filter((c) => lowerThanBefore(c) !== null).length;
    print(`lower than before (medians of the runs): ${lower} of ${judged} figures`);
  }

  return summary(checks, started);
}

/** Section 4: a posting through the journal against the bare forward, and its check. */
async function journalSection(tmp: TempDir, checks: Check[]): Promise<void> {
  heading(
    `4. Postings journal: pontuar through the journal vs plain proxy (loopback HTTP from a ` +
      `client process of its own, new customer each, ${JOURNAL.warmup} warm-up + ` +
      `${JOURNAL.rounds} interleaved rounds)`,
  );
  const loadBefore = loadavg()[0]!.toFixed(2);
  const jr = await journalOverhead({
    distDir,
    plainDb: tmp.file('plain.db'),
    journaledDb: tmp.file('journaled.db'),
    storeDb: tmp.file('app-store.db'),
    commitDb: tmp.file('commit.db'),
    ...JOURNAL,
  });
  print(
    latencyTable([
      ['plain proxy (no journal)', jr.plain],
      ['journaled (Idempotency-Key)', jr.journaled],
      ['one durable commit (WAL, FULL)', jr.commit],
    ]),
  );
  print(
    `added by the journal: ${ms(jr.added)} ms (medians), ${ms(jr.pairedAdded)} ms ` +
      '(median of per-round differences); before sending it pays one store read, one ' +
      'customer read (the snapshot) and one durable commit',
  );
  // The plain path flushes as often (the password reservation before relaying): the journal's
  // commit takes the reservation's place, it is not one more fsync.
  print(
    `both paths flush the store once before answering (plain: the password reservation; ` +
      `journaled: the entry, carrying the reservation; the clearing is not flushed); one ` +
      `durable commit on this disk: ${ms(jr.commit.median)} ms; load average ${loadBefore} ` +
      `before, ${loadavg()[0]!.toFixed(2)} after`,
  );
  checks.push({
    name: 'journal added latency (median)',
    figure: `${ms(jr.added)} ms`,
    target: `<= ${JOURNAL_ADDED_LIMIT_MS} ms`,
    pass: jr.added <= JOURNAL_ADDED_LIMIT_MS,
  });
}

/** `--only=`: the named sections alone (see the header), their checks and the summary line. */
async function onlySections(args: Args, started: number): Promise<number> {
  const only = args.only!;
  const checks: Check[] = [];
  const compared: Compared[] = [];
  const tmp = makeTempDir('fidelidade-bench-');
  try {
    if (only.has('journal')) {
      if (!existsSync(path.join(distDir, 'index.html'))) await buildSpa(root);
      await journalSection(tmp, checks);
    }
    if (only.has('counter') || only.has('lighthouse')) {
      await buildSpa(root);
      await buildServer(root);
      let previous: Baseline | null = null;
      let previousLabel = '';
      if (args.baseline !== 'none') {
        const chosen = resolveBaseline(root, args.baseline);
        heading(`Previous release: ${chosen.sha.slice(0, 7)} (${chosen.ref})`);
        previous = await buildBaseline(root, chosen, tmp.file('previous-release'));
        previousLabel = `previous release ${chosen.sha.slice(0, 7)}`;
      }
      const figure = (name: string, unit: string, target: string): Figure => ({
        name,
        unit,
        values: [],
        target,
      });
      const section = { root, previous, runs: args.runs, tmp, print, figure, checks, compared };
      print(
        `load average before: ${loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')}`,
      );
      if (only.has('counter')) {
        heading(`7. Counter in Chromium (${args.runs} runs of ${BROWSER.loads} page loads)`);
        await counterSection(section);
      }
      if (only.has('lighthouse')) {
        heading(`8. Lighthouse performance (${args.runs} runs; Debian's Chromium, headless)`);
        await lighthouseSection(section);
      }
      print(
        `load average after: ${loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')}`,
      );
      if (compared.length > 0 && previousLabel !== '') {
        heading(
          `This build against the ${previousLabel} (min / median / max over ${args.runs} runs)`,
        );
        print(comparisonTable(compared, previousLabel));
      }
    }
  } finally {
    tmp.remove();
  }
  return summary(checks, started);
}

/** The summary of the checks and the last line; the exit code (1 when a target failed). */
function summary(checks: readonly Check[], started: number): number {
  heading('Summary');
  print(
    table(
      ['target', 'figure', 'limit', 'result'],
      checks.map((c) => [c.name, c.figure, c.target, c.pass ? 'PASS' : 'FAIL']),
    ),
  );
  const failed = checks.filter((c) => !c.pass).length;
  print(
    `\n${failed === 0 ? 'PASS' : 'FAIL'}: ${checks.length - failed}/${checks.length} targets met ` +
      `(bench took ${((performance.now() - started) / 1000).toFixed(1)} s)`,
  );
  return failed === 0 ? 0 : 1;
}

/** `--chain-faults`: the chain under load through three faults, its checks and the summary. */
async function chainFaultsSection(chain: typeof CHAIN, started: number): Promise<number> {
  const r = await onChain(
    `Chain faults: ${chain.stores} stores × ${chain.terminalsPerStore} counters, ${chain.replicas} ` +
      `replicas behind HAProxy, PostgreSQL, ${chain.rate} postings/s`,
    'bench-chain-faults-',
    (dir) => chainFaultsBench(dir, chain, print),
  );
  const { rows, checks } = chainFaultsReport(r);
  print(table(['figure', 'value'], rows));
  return summary(checks, started);
}

/** A chain section's heading and machine line, the server built, `run` in a temporary folder. */
async function onChain<R>(title: string, prefix: string, run: (dir: string) => Promise<R>) {
  heading(title);
  print(
    `machine: ${cpus().length} cores, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  await buildServer(root);
  const tmp = makeTempDir(prefix);
  try {
    return await run(tmp.path);
  } finally {
    tmp.remove();
  }
}

/** `--chain`: the chain section alone, its checks and the summary line. */
async function chainSection(
  chain: typeof CHAIN & { seconds: number },
  started: number,
): Promise<number> {
  const r = await onChain(
    `Chain: ${chain.stores} stores × ${chain.terminalsPerStore} counters, ${chain.replicas} ` +
      `replicas behind HAProxy, PostgreSQL, ${chain.rate} postings/s offered for ${chain.seconds} s`,
    'bench-chain-',
    (dir) => chainBench(dir, chain, print),
  );
  print(
    table(
      ['figure', 'value'],
      [
        ['postings offered', String(r.offered)],
        ['postings acknowledged ("lançado")', String(r.acknowledged)],
        ['postings per second sustained', r.perSecond.toFixed(1)],
        ['request → lançado p50 (ms)', ms(r.p50)],
        ['request → lançado p95 (ms)', ms(r.p95)],
        ...r.cpuPerPosting.map((c) => [`CPU ms per posting: ${c.part}`, c.ms.toFixed(2)]),
        ['CPU ms per posting: all parts', r.cpuPerPosting.reduce((a, c) => a + c.ms, 0).toFixed(2)],
        ['upstream calls per posting', r.upstreamPerPosting.toFixed(2)],
        ['double postings (service records)', String(r.doubles)],
        ['acknowledged postings lost (service records)', String(r.lost)],
        ['cross-store postings (service records)', String(r.crossStore)],
        ['never acknowledged', String(r.unacknowledged)],
        ['sends held (400 in flight)', String(r.held)],
        ['load average at the end', r.loadAverage],
      ],
    ),
  );
  const checks: Check[] = [
    {
      name: 'chain postings per second sustained',
      figure: r.perSecond.toFixed(1),
      target: `>= ${CHAIN_TARGET.perSecond}`,
      pass: r.perSecond >= CHAIN_TARGET.perSecond,
    },
    {
      name: 'chain request → lançado p95',
      figure: `${ms(r.p95)} ms`,
      target: `<= ${CHAIN_TARGET.p95Ms} ms`,
      pass: r.p95 <= CHAIN_TARGET.p95Ms,
    },
    {
      name: 'chain doubles, losses and cross-store postings (service records)',
      figure: `${r.doubles} doubles, ${r.lost} lost, ${r.crossStore} cross-store`,
      target: '0, 0 and 0',
      pass: r.doubles === 0 && r.lost === 0 && r.crossStore === 0,
    },
  ];
  return summary(checks, started);
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(
      `bench: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    process.stdout.write('\nFAIL: the benchmark did not complete\n');
    process.exitCode = 1;
  },
);
