/**
 * The manager's dashboard over the postings journal: one aggregate query per period, grouped
 * by local day, terminal, state and kind, reading the period's range of the ledger's index
 * `posting_journal_ledger` (establishment_id, created_at). Days are local to the browser's
 * offset (`offsetMs`, e.g. -3 h for Brasília): a day is `(created_at + offsetMs) / 86 400 000`,
 * integer division on both engines (every instant here is after 1970). The offset and the
 * day's length are literals, not parameters: PostgreSQL must see the grouped expression and
 * the selected one as the same.
 */
import { sql } from 'kysely';
import type { Store } from './store';

export const DAY_MS = 86_400_000;

export interface DashboardFilter {
  establishmentId: number;
  /** [from, to): epoch ms, the period's local midnights. */
  from: number;
  to: number;
  /** The local offset from UTC (ms, negative west of Greenwich). */
  offsetMs: number;
}

/** One group of the period: a local day, a terminal and a state. */
export interface DashboardGroup {
  /** Days since 1970-01-01 (local). */
  day: number;
  terminalId: string | null;
  state: string;
  /** A posting of points, or a reward handed over at the counter. */
  kind: 'pontos' | 'premio';
  /** Entries of points (hand-overs apart), their points, their amounts (cents). */
  postings: number;
  points: number;
  amount: number;
  /** Postings whose customer did not exist before (its snapshot says so): registered here. */
  registered: number;
  /** Kept sales (contingency), those delivered, their total and longest wait (ms). */
  kept: number;
  keptDelivered: number;
  keptWaitMs: number;
  keptMaxWaitMs: number;
}

/** How a snapshot of a customer that did not exist yet reads (JSON written by the journal). */
const ABSENT_SNAPSHOT = '%"exists":false%';

/** The period's groups, one aggregate query over the covering index. */
export async function dashboardGroups(
  store: Store,
  filter: DashboardFilter,
): Promise<DashboardGroup[]> {
  const offset = sql.lit(Math.trunc(filter.offsetMs));
  const day = sql<number>`(created_at + ${offset}) / ${sql.lit(DAY_MS)}`;
  const kept = sql`body is not null`;
  const wait = sql`case when body is not null and sent_at is not null then sent_at - created_at else 0 end`;
  const rows = await store.db
    .selectFrom('posting_journal')
    .select([
      day.as('day'),
      'terminal_id',
      'state',
      'kind',
      sql<number>`count(*)`.as('postings'),
      sql<number>`coalesce(sum(points), 0)`.as('points'),
      sql<number>`coalesce(sum(amount), 0)`.as('amount'),
      sql<number>`sum(case when snapshot like ${ABSENT_SNAPSHOT} then 1 else 0 end)`.as(
        'registered',
      ),
      sql<number>`sum(case when ${kept} then 1 else 0 end)`.as('kept'),
      sql<number>`sum(case when ${kept} and sent_at is not null then 1 else 0 end)`.as(
        'kept_delivered',
      ),
      sql<number>`coalesce(sum(${wait}), 0)`.as('kept_wait'),
      sql<number>`coalesce(max(${wait}), 0)`.as('kept_max_wait'),
    ])
    .where('establishment_id', '=', filter.establishmentId)
    .where('created_at', '>=', filter.from)
    .where('created_at', '<', filter.to)
    .groupBy([day, 'terminal_id', 'state', 'kind'])
    .execute();
  return rows.map((r) => ({
    day: Number(r.day),
    terminalId: r.terminal_id,
    state: r.state,
    kind: r.kind === 'premio' ? 'premio' : 'pontos',
    postings: Number(r.postings),
    points: Number(r.points),
    amount: Number(r.amount),
    registered: Number(r.registered),
    kept: Number(r.kept),
    keptDelivered: Number(r.kept_delivered),
    keptWaitMs: Number(r.kept_wait),
    keptMaxWaitMs: Number(r.kept_max_wait),
  }));
}
