// The manager's dashboard over a big journal (`npm run bench -- --scale`): a SQLite store with
// a year of postings (1,000,000 entries by default, 12 terminals, every state and kind), and
// the dashboard's answer for today, 7, 30 and 92 days, timed in process through the domain
// function the route calls (the service's reward figures left out: only the store's reads).
// The first answer of a period reads its past days from the journal and keeps them
// (`dashboard_days`); the answers after it read today only, and the cache: both are printed.

import { openStore } from '../server/store';
import { painel } from '../server/app/domain/painel';
import { PainelQuery } from '#contract/api/painel';
import { DAY_MS, INSERT_JOURNAL, loadInBatches, openForBulkLoad } from './bulk-journal';
import { percentiles, seededRandom, type Percentiles } from './stats';

const STATES = ['lançado', 'lançado', 'lançado', 'lançado', 'lançado', 'lançado', 'recusado'];

export interface DashboardScaleResult {
  entries: number;
  buildMs: number;
  periods: ({
    label: string;
    days: number;
    rows: number;
    /** The first answer (past days not cached yet). */
    first: number;
  } & Percentiles)[];
}

/** Writes `entries` journal rows over the `days` before `nowMs` into a migrated store. */
async function build(dbPath: string, entries: number, days: number, nowMs: number) {
  const db = await openForBulkLoad(dbPath);
  const insert = db.prepare(
    `${INSERT_JOURNAL}
     values (?, 1, ?, null, 'f', ?, null, ?, ?, null, 200, null, ?, null, ?, null, ?, ?, ?, ?, ?,
       null, 0, null, ?, null, ?, null)`,
  );
  const span = days * DAY_MS;
  const rand = seededRandom(42);
  const write = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const at = nowMs - Math.floor(rand() * span);
      const handOver = i % 50 === 0;
      const kept = i % 40 === 0;
      const state = handOver ? 'lançado' : STATES[i % STATES.length]!;
      const amount = handOver ? 0 : 500 + Math.floor(rand() * 30_000);
      insert.run(
        `k-${i}`,
        String(1 + (i % 12)),
        `+55119${String(i % 900_000).padStart(8, '0')}`,
        amount,
        state,
        `{"exists":${i % 25 === 0 ? 'false' : 'true'},"compras":3}`,
        state === 'lançado' && !handOver ? Math.floor(amount / 100) : null,
        at,
        at + (kept ? 600_000 : 200),
        at + 300,
        at + 300,
        at + 300,
        kept ? '{"valor_gasto":1000}' : null,
        handOver ? 'premio' : 'pontos',
      );
    }
  });
  return loadInBatches(db, entries, write);
}

export async function dashboardScaleBench(
  dbPath: string,
  o: { entries: number; days: number; requests: number },
): Promise<DashboardScaleResult> {
  const nowMs = Date.now();
  const buildMs = await build(dbPath, o.entries, o.days, nowMs);
  const store = await openStore({ sqlitePath: dbPath });
  const deps = {
    store,
    client: null,
    establishmentId: 1,
    terminalNames: () => Promise.resolve(new Map<string, string>()),
  };
  const local = (ms: number) => new Date(ms - 3 * 3_600_000).toISOString().slice(0, 10);
  const periods = [];
  try {
    for (const [label, days] of [
      ['today', 1],
      ['7 days', 7],
      ['30 days', 30],
      ['92 days (the longest)', 92],
    ] as const) {
      const query = PainelQuery.parse({
        de: local(nowMs - (days - 1) * DAY_MS),
        ate: local(nowMs),
        fuso: '-180',
      });
      const samples: number[] = [];
      let rows = 0;
      let first = 0;
      for (let i = 0; i <= o.requests; i++) {
        const t0 = performance.now();
        const answer = await painel(deps, query);
        const ms = performance.now() - t0;
        if (i === 0) first = ms;
        else samples.push(ms);
        rows = answer.totais.lancamentos + answer.totais.premios_entregues;
      }
      periods.push({ label, days, rows, first, ...percentiles(samples) });
    }
  } finally {
    await store.close();
  }
  return { entries: o.entries, buildMs, periods };
}
