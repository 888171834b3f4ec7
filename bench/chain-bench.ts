// `npm run bench -- --chain`: a chain's counters posting through HAProxy to 3 app-server
// replicas on one PostgreSQL, the sandbox (its own process) as the service; everything the
// chain runs, and the load itself, on this machine (scripts/chain.ts, scripts/chain-load.ts).
// Stores × 3 counter terminals, each posting the counter's `pontuar` for a new customer, at a
// fixed offered rate (open loop) for a duration after a warm-up. Figures: postings per second
// acknowledged, request → "lançado" p50/p95, the CPU milliseconds per posting of each part
// (from /proc: each process tree's user+system time), upstream calls per posting (the
// replicas' /metrics), and doubles, losses and cross-store postings counted in the service's
// own records. Each store is its own establishment with its own token: the default store 1,
// then the sandbox's seeded 3, 4, … (added to the stores table as `npm run loja -- add` does).

import { loadavg } from 'node:os';
import path from 'node:path';
import { startChain, type ChainOptions } from '../scripts/chain';
import {
  countInService,
  enrollCounters,
  metricSum,
  runLoad,
  tally,
  treeCpuMs,
} from '../scripts/chain-load';
import { summarize } from './stats';

export interface ChainBenchOptions {
  /** Stores, each its own establishment: 1, then 3, 4, …. */
  stores: number;
  terminalsPerStore: number;
  replicas: number;
  /** Offered postings per second. */
  rate: number;
  seconds: number;
  warmupSeconds: number;
}

export interface ChainBenchResult {
  offered: number;
  acknowledged: number;
  perSecond: number;
  p50: number;
  p95: number;
  /** CPU ms per acknowledged posting, by part (the app server = all replicas). */
  cpuPerPosting: { part: string; ms: number }[];
  upstreamPerPosting: number;
  doubles: number;
  lost: number;
  /** Postings found in another establishment's records than their terminal's store. */
  crossStore: number;
  unacknowledged: number;
  held: number;
  loadAverage: string;
}

/**
 * The bench's chain of `o.stores` stores (establishment 1, the default store, then the
 * sandbox's 3, 4, …) on `o.replicas` replicas, with `o.terminalsPerStore` counters enrolled in
 * each store. `more` adds to startChain's options (the faults' shorter leases).
 */
export async function startBenchChain(
  dir: string,
  o: Pick<ChainBenchOptions, 'stores' | 'replicas' | 'terminalsPerStore'>,
  more: Partial<ChainOptions> = {},
) {
  const stores = [1, ...Array.from({ length: o.stores - 1 }, (_, i) => i + 3)];
  // Each replica starts every store's app (its journal, conferência, Vigilância) before it
  // answers /readyz: with 200 stores on a shared 2-core machine that took 20–30 s alone.
  const chain = await startChain({
    replicas: o.replicas,
    stores,
    dir: path.join(dir, 'chain'),
    readyMs: 180_000,
    ...more,
  });
  try {
    const terminals = await enrollCounters(chain, stores, o.stores, o.terminalsPerStore);
    return { chain, stores, terminals };
  } catch (err) {
    await chain.stop();
    throw err;
  }
}

export async function chainBench(
  dir: string,
  o: ChainBenchOptions,
  print: (line: string) => void,
): Promise<ChainBenchResult> {
  const { chain, stores, terminals } = await startBenchChain(dir, o);
  try {
    print(
      `chain up: HAProxy ${chain.url}, ${o.replicas} replicas, PostgreSQL, sandbox; ` +
        `${o.stores} stores × ${o.terminalsPerStore} counters = ${terminals.length} terminals ` +
        `(establishments 1, 3 … ${stores.at(-1)})`,
    );
    const warm = await runLoad({
      url: chain.url,
      terminals,
      rate: o.rate,
      seconds: o.warmupSeconds,
    });
    print(`warm-up: ${warm.postings.length} postings in ${o.warmupSeconds} s`);
    const parts = chain.parts();
    const cpu0 = parts.map((p) => treeCpuMs(p.pid));
    const self0 = process.cpuUsage();
    const upstream = () =>
      Promise.all(chain.replicas.map((r) => metricSum(r.url, 'pdv_upstream_calls_total')));
    const up0 = await upstream();
    const t0 = performance.now();
    const run = await runLoad({
      url: chain.url,
      terminals,
      rate: o.rate,
      seconds: o.seconds,
      onSecond: (s, ps) => {
        if (s % 30 === 0) {
          const acked = ps.filter((p) => p.acknowledged).length;
          print(`  ${s} s: ${ps.length} sent, ${acked} acknowledged`);
        }
      },
    });
    const elapsed = (performance.now() - t0) / 1000;
    const cpu1 = parts.map((p) => treeCpuMs(p.pid));
    const self = process.cpuUsage(self0);
    const up1 = await upstream();
    const loadAverage = loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
    const acked = run.postings.filter((p) => p.acknowledged);
    const n = Math.max(1, acked.length);
    const cpu = new Map<string, number>();
    parts.forEach((p, i) => {
      const part = p.name.startsWith('replica') ? 'app server (all replicas)' : p.name;
      cpu.set(part, (cpu.get(part) ?? 0) + (cpu1[i]! - cpu0[i]!));
    });
    cpu.set('load generator', (self.user + self.system) / 1000);
    const all = [...warm.postings, ...run.postings];
    const t = tally(countInService(chain.sandbox.dbPath, all), all);
    const s = summarize(acked.map((p) => p.ms!));
    return {
      offered: run.postings.length,
      acknowledged: acked.length,
      perSecond: acked.length / elapsed,
      p50: s.median,
      p95: s.p95,
      cpuPerPosting: [...cpu].map(([part, ms]) => ({ part, ms: ms / n })),
      upstreamPerPosting: (up1.reduce((a, b) => a + b, 0) - up0.reduce((a, b) => a + b, 0)) / n,
      doubles: t.doubles,
      lost: t.lost,
      crossStore: t.crossStore,
      unacknowledged: all.filter((p) => !p.acknowledged).length,
      held: run.held,
      loadAverage,
    };
  } finally {
    await chain.stop();
  }
}
