// Vigilância's rules per posting over a big journal (`npm run bench`, section 8d): a SQLite
// store with 1,000,000 journal entries over 90 days (2 stores, 12 counters, 4 of them with an
// integrated PDV whose sales are in `pdv_sales`), bulk-inserted in a temporary folder; then
// the evaluation of today's postings, one at a time, timed in process through the service the
// journal calls once a posting settles (every read and the alerts' writes included).

import { openStore } from '../server/store';
import { createVigilancia } from '../server/app/domain/vigilancia/service';
import { addDays, localDate, startOfLocalDay } from '#contract/rules/time';
import { DAY_MS, INSERT_JOURNAL, loadInBatches, openForBulkLoad } from './bulk-journal';
import { percentiles, quantile, seededRandom, type Percentiles } from './stats';

export interface VigilanciaBenchResult extends Percentiles {
  entries: number;
  buildMs: number;
  /** The first evaluation (it reads the store's 30-day percentile, then kept for the day). */
  firstMs: number;
  evaluated: number;
  /** The same evaluations' CPU time (this process, user + system): what the scheduler adds apart. */
  cpuP95: number;
  alerts: number;
}

async function build(dbPath: string, entries: number, days: number, nowMs: number) {
  const db = await openForBulkLoad(dbPath);
  // Bulk load without the indexes, then build them once (sorted: far faster than 1.3 M
  // random inserts into each).
  const indexes = db
    .prepare(
      `select name, sql from sqlite_master where type = 'index' and sql is not null
         and tbl_name in ('posting_journal', 'pdv_sales')`,
    )
    .all() as { name: string; sql: string }[];
  for (const i of indexes) db.exec(`drop index "${i.name}"`);
  const terminal = db.prepare(
    `insert into terminals (id, name, role, created_at, counter_id) values (?, ?, ?, 0, ?)`,
  );
  for (let t = 1; t <= 12; t++) terminal.run(t, `Caixa ${t}`, 'caixa', null);
  for (let t = 1; t <= 4; t++) terminal.run(100 + t, `PDV ${t}`, 'integracao', t);
  const insert = db.prepare(
    `${INSERT_JOURNAL}
     values (?, ?, ?, null, 'f', ?, null, ?, 'lançado', null, 200, null, null, null, ?, null, ?,
       ?, ?, ?, ?, null, 0, null, null, null, 'pontos', null)`,
  );
  const sale = db.prepare(
    `insert into pdv_sales (id, terminal_id, counter_id, sale_id, fingerprint, amount, items,
       state, posting_key, auto, points, customer, rewards, message, created_at, expires_at,
       updated_at, settled_at)
     values (?, ?, ?, ?, 'f', ?, null, 'lançada', ?, 0, ?, null, null, null, ?, ?, ?, ?)`,
  );
  const rand = seededRandom(7);
  const span = days * DAY_MS;
  const lunch = startOfLocalDay(addDays(localDate(nowMs), -1)) + 11 * 3_600_000;
  const write = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      // The last 2,000 entries are of yesterday's lunch (the ones evaluated, within the
      // store's hours), the rest over the 90 days.
      const at =
        i >= entries - 2_000
          ? lunch + Math.floor(rand() * 7_200_000)
          : nowMs - Math.floor(rand() * span);
      const t = 1 + (i % 12);
      const amount = 500 + Math.floor(rand() * 30_000);
      const key = `k-${i}`;
      insert.run(
        key,
        t <= 6 ? 1 : 2,
        String(t),
        `+55119${String(Math.floor(rand() * 300_000)).padStart(8, '0')}`,
        amount,
        Math.floor(amount / 100),
        at,
        at,
        at + 300,
        at + 300,
        at + 300,
      );
      if (t <= 4)
        sale.run(
          `s-${i}`,
          100 + t,
          t,
          `v-${i}`,
          amount,
          key,
          Math.floor(amount / 100),
          at - 20_000,
          at + 600_000,
          at,
          at,
        );
    }
  });
  return loadInBatches(db, entries, write, () => {
    for (const i of indexes) db.exec(i.sql);
  });
}

export async function vigilanciaBench(
  dbPath: string,
  o: { entries: number; evaluations: number },
): Promise<VigilanciaBenchResult> {
  const nowMs = Date.now();
  const buildMs = await build(dbPath, o.entries, 90, nowMs);
  const store = await openStore({ sqlitePath: dbPath });
  try {
    const vigilancia = createVigilancia({ store, establishmentId: 1 });
    const keys = Array.from({ length: o.evaluations }, (_, i) => `k-${o.entries - 1 - i}`);
    // The first of each store reads its 30-day percentile (kept for the day): timed apart.
    const t0 = performance.now();
    await vigilancia.evaluateKey(keys[0]!);
    const firstMs = performance.now() - t0;
    const other = keys.find((k) => Number(k.slice(2)) % 12 >= 6)!;
    await vigilancia.evaluateKey(other);
    const samples: number[] = [];
    const cpu: number[] = [];
    for (const key of keys.slice(1).filter((k) => k !== other)) {
      const c = process.cpuUsage();
      const t = performance.now();
      await vigilancia.evaluateKey(key);
      samples.push(performance.now() - t);
      const used = process.cpuUsage(c);
      cpu.push((used.user + used.system) / 1000);
    }
    cpu.sort((a, b) => a - b);
    const alerts = await store.db
      .selectFrom('vigilancia_alerts')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    return {
      entries: o.entries,
      buildMs,
      firstMs,
      evaluated: samples.length,
      ...percentiles(samples),
      cpuP95: quantile(cpu, 0.95),
      alerts: Number(alerts.n),
    };
  } finally {
    await store.close();
  }
}

if (process.argv[1]?.endsWith('vigilancia-bench.ts')) {
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const path = await import('node:path');
  const dir = mkdtempSync(path.join(tmpdir(), 'vigilancia-bench-'));
  try {
    const entries = Number(process.env.VIGILANCIA_BENCH_ENTRIES ?? 1_000_000);
    console.log(await vigilanciaBench(path.join(dir, 'app.db'), { entries, evaluations: 1_000 }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
