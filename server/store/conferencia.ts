/**
 * The conferência's store (migration 0008): runs of a local day and, per run, one row per
 * customer to re-read. "Only one" is held by the store, not by a process:
 * - one run of a day at a time: a partial unique index on (establishment, day) while
 *   `em andamento`; one nightly run of a day: the same on `origin = 'noite'`;
 * - a run is worked on by the process holding its lease; a process that dies leaves the lease
 *   to run out, and any process then takes the run over (`claimStale`) and goes on with the
 *   customers still `pendente`;
 * - the result is reported once: `markReported` is a conditional update.
 * Also the journal's side of the matching: the postings the service took, by the time they
 * were sent (`lançado`, kind `pontos`).
 */
import type { Selectable } from 'kysely';
import type { ReconciliationRunsTable } from './schema';
import type { Store } from './store';
import { isUniqueViolation } from './engine';

export * from './conferencia-customers';
export * from './conferencia-posted';

export type RunOrigin = 'noite' | 'gerente';
/**
 * What started a nightly run: the check at CONFERENCIA_HORA, the first check of a process that
 * started past that hour, or a later check catching up (the hour passed without one).
 */
export type NightlyTrigger = 'on_time' | 'startup' | 'late';
const TRIGGERS: readonly string[] = ['on_time', 'startup', 'late'] satisfies NightlyTrigger[];

export interface ConferenciaRun {
  id: number;
  establishmentId: number;
  day: string;
  offsetMin: number;
  origin: RunOrigin;
  /** A nightly run's start; null for a manager's run (or a run older than the column). */
  trigger: NightlyTrigger | null;
  state: 'em andamento' | 'concluída';
  owner: string | null;
  leaseUntil: number;
  startedAt: number;
  finishedAt: number | null;
  reportedAt: number | null;
  customers: number;
  done: number;
  reads: number;
  postings: number;
  confirmed: number;
  findings: number;
  summary: Record<string, number> | null;
}

function fromRow(r: Selectable<ReconciliationRunsTable>): ConferenciaRun {
  return {
    id: Number(r.id),
    establishmentId: Number(r.establishment_id),
    day: r.day,
    offsetMin: Number(r.offset_min),
    origin: r.origin === 'noite' ? 'noite' : 'gerente',
    trigger:
      r.nightly_trigger !== null && TRIGGERS.includes(r.nightly_trigger)
        ? (r.nightly_trigger as NightlyTrigger)
        : null,
    state: r.state === 'concluída' ? 'concluída' : 'em andamento',
    owner: r.owner,
    leaseUntil: Number(r.lease_until),
    startedAt: Number(r.started_at),
    finishedAt: r.finished_at === null ? null : Number(r.finished_at),
    reportedAt: r.reported_at === null ? null : Number(r.reported_at),
    customers: Number(r.customers),
    done: Number(r.done),
    reads: Number(r.reads),
    postings: Number(r.postings),
    confirmed: Number(r.confirmed),
    findings: Number(r.findings),
    summary: r.summary === null ? null : (JSON.parse(r.summary) as Record<string, number>),
  };
}

export interface NewRun {
  establishmentId: number;
  day: string;
  offsetMin: number;
  origin: RunOrigin;
  /** Given for a nightly run (`origin` 'noite'). */
  trigger?: NightlyTrigger;
  owner: string;
  leaseUntil: number;
  /** The day's customers (their keys) and how many postings they have. */
  customers: readonly string[];
  postings: number;
}

/**
 * Starts a run with its customers, unless one of the day is running (or, for the nightly
 * origin, the night's run of that day exists): then answers that one.
 */
export async function createRun(
  store: Store,
  run: NewRun,
): Promise<
  { created: true; run: ConferenciaRun } | { created: false; run: ConferenciaRun | null }
> {
  const now = store.now();
  try {
    const id = await store.transaction(async (trx) => {
      const row = await trx
        .insertInto('reconciliation_runs')
        .values({
          establishment_id: run.establishmentId,
          day: run.day,
          offset_min: run.offsetMin,
          origin: run.origin,
          nightly_trigger: run.trigger ?? null,
          state: 'em andamento',
          owner: run.owner,
          lease_until: run.leaseUntil,
          started_at: now,
          finished_at: null,
          reported_at: null,
          customers: run.customers.length,
          postings: run.postings,
          summary: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const runId = Number(row.id);
      // In slices: PostgreSQL takes at most 65 535 parameters in one statement.
      for (let i = 0; i < run.customers.length; i += 1_000) {
        await trx
          .insertInto('reconciliation_customers')
          .values(
            run.customers.slice(i, i + 1_000).map((customer_key) => ({
              run_id: runId,
              customer_key,
              id_cliente: null,
              state: 'pendente',
              findings: null,
              read_at: null,
            })),
          )
          .execute();
      }
      return runId;
    });
    return { created: true, run: (await getRun(store, id))! };
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const running = await store.db
      .selectFrom('reconciliation_runs')
      .selectAll()
      .where('establishment_id', '=', run.establishmentId)
      .where('day', '=', run.day)
      .where((eb) =>
        run.origin === 'noite'
          ? eb.or([eb('state', '=', 'em andamento'), eb('origin', '=', 'noite')])
          : eb('state', '=', 'em andamento'),
      )
      .orderBy('id', 'desc')
      .executeTakeFirst();
    return { created: false, run: running === undefined ? null : fromRow(running) };
  }
}

export async function getRun(store: Store, id: number): Promise<ConferenciaRun | null> {
  const r = await store.db
    .selectFrom('reconciliation_runs')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  return r === undefined ? null : fromRow(r);
}

/** The latest run of a day (running or finished), or null. */
export async function latestRun(
  store: Store,
  establishmentId: number,
  day: string,
  origin?: RunOrigin,
): Promise<ConferenciaRun | null> {
  let q = store.db
    .selectFrom('reconciliation_runs')
    .selectAll()
    .where('establishment_id', '=', establishmentId)
    .where('day', '=', day);
  if (origin !== undefined) q = q.where('origin', '=', origin);
  const r = await q.orderBy('id', 'desc').limit(1).executeTakeFirst();
  return r === undefined ? null : fromRow(r);
}

/** The latest finished run of the establishment (any day), for the metrics. */
export async function latestFinishedRun(
  store: Store,
  establishmentId: number,
): Promise<ConferenciaRun | null> {
  const r = await store.db
    .selectFrom('reconciliation_runs')
    .selectAll()
    .where('establishment_id', '=', establishmentId)
    .where('state', '=', 'concluída')
    .orderBy('finished_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return r === undefined ? null : fromRow(r);
}

/** Per day of [from, to] (`YYYY-MM-DD`), the findings of its latest finished run. */
export async function dayFindings(
  store: Store,
  establishmentId: number,
  from: string,
  to: string,
): Promise<Map<string, number>> {
  const rows = await store.db
    .selectFrom('reconciliation_runs')
    .select(['day', 'findings', 'id'])
    .where('establishment_id', '=', establishmentId)
    .where('day', '>=', from)
    .where('day', '<=', to)
    .where('state', '=', 'concluída')
    .orderBy('id', 'asc')
    .execute();
  const out = new Map<string, number>();
  for (const r of rows) out.set(r.day, Number(r.findings));
  return out;
}

/** Takes over the runs whose process stopped renewing their lease; answers them. */
export async function claimStaleRuns(
  store: Store,
  establishmentId: number,
  owner: string,
  leaseUntil: number,
): Promise<ConferenciaRun[]> {
  const rows = await store.db
    .updateTable('reconciliation_runs')
    .set({ owner, lease_until: leaseUntil })
    .where('establishment_id', '=', establishmentId)
    .where('state', '=', 'em andamento')
    .where('lease_until', '<', store.now())
    .returningAll()
    .execute();
  return rows.map(fromRow);
}

/** Extends this owner's lease; false when the run is no longer this owner's (or finished). */
export async function renewRun(
  store: Store,
  id: number,
  owner: string,
  leaseUntil: number,
): Promise<boolean> {
  const r = await store.db
    .updateTable('reconciliation_runs')
    .set({ lease_until: leaseUntil })
    .where('id', '=', id)
    .where('owner', '=', owner)
    .where('state', '=', 'em andamento')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Ends a run with its totals while it is this owner's; the finished run, or null. */
export async function finishRun(
  store: Store,
  id: number,
  owner: string,
  totals: { confirmed: number; findings: number; summary: Record<string, number> },
): Promise<ConferenciaRun | null> {
  const r = await store.db
    .updateTable('reconciliation_runs')
    .set({
      state: 'concluída',
      finished_at: store.now(),
      owner: null,
      confirmed: totals.confirmed,
      findings: totals.findings,
      summary: JSON.stringify(totals.summary),
    })
    .where('id', '=', id)
    .where('owner', '=', owner)
    .where('state', '=', 'em andamento')
    .returningAll()
    .executeTakeFirst();
  return r === undefined ? null : fromRow(r);
}

/** Finished runs not reported yet (their process died between finishing and reporting). */
export async function unreportedRuns(
  store: Store,
  establishmentId: number,
): Promise<ConferenciaRun[]> {
  const rows = await store.db
    .selectFrom('reconciliation_runs')
    .selectAll()
    .where('establishment_id', '=', establishmentId)
    .where('state', '=', 'concluída')
    .where('reported_at', 'is', null)
    .execute();
  return rows.map(fromRow);
}

/** True for the one caller that marks the run reported (whichever process, once). */
export async function markReported(store: Store, id: number): Promise<boolean> {
  const r = await store.db
    .updateTable('reconciliation_runs')
    .set({ reported_at: store.now() })
    .where('id', '=', id)
    .where('state', '=', 'concluída')
    .where('reported_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}
