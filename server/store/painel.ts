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

export interface PainelFilter {
  establishmentId: number;
  /** [from, to): epoch ms, the period's local midnights. */
  from: number;
  to: number;
  /** The local offset from UTC (ms, negative west of Greenwich). */
  offsetMs: number;
}

/** One group of the period: a local day, a terminal and a state. */
export interface PainelGroup {
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

/** The period's groups, one aggregate query over the ledger's index (no cache). */
export async function painelGroups(store: Store, filter: PainelFilter): Promise<PainelGroup[]> {
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

/**
 * How long before a day's groups were read an entry's change still makes them stale: the
 * replicas' clocks may differ (updated_at is written by whichever replica changed the entry).
 */
const CLOCK_MARGIN_MS = 5 * 60_000;

/** Days (numbers) in `[from, to]` grouped into runs of consecutive days. */
function runs(days: readonly number[]): [number, number][] {
  const out: [number, number][] = [];
  for (const d of [...days].sort((a, b) => a - b)) {
    const last = out[out.length - 1];
    if (last !== undefined && last[1] === d - 1) last[1] = d;
    else out.push([d, d]);
  }
  return out;
}

/**
 * The period's groups, past days from the `dashboard_days` cache. A local day that ended more
 * than the clock margin ago is read once and kept; it is read again when one of its entries
 * changed since (a kept sale delivered days later, a discard): the journal's updated_at,
 * found through `posting_journal_updated` (establishment_id, updated_at), which scans only
 * what changed since the oldest cached day was read. Today and yesterday's last minutes are
 * always read from the journal. The answer equals `painelGroups` of the same period.
 */
export async function painelGroupsCached(
  store: Store,
  filter: PainelFilter,
  now: number = Date.now(),
): Promise<PainelGroup[]> {
  const offsetMs = Math.trunc(filter.offsetMs);
  const firstDay = Math.floor((filter.from + offsetMs) / DAY_MS);
  const lastDay = Math.floor((filter.to - 1 + offsetMs) / DAY_MS);
  // Days whose local end is past the margin, whole in the period: cacheable.
  const closedUntil = Math.min(
    lastDay,
    Math.floor((now - CLOCK_MARGIN_MS + offsetMs) / DAY_MS) - 1,
  );
  const wholeFrom = filter.from === firstDay * DAY_MS - offsetMs ? firstDay : firstDay + 1;
  if (closedUntil < wholeFrom) return painelGroups(store, filter);

  const cached = await store.db
    .selectFrom('dashboard_days')
    .select(['day', 'computed_at', 'groups'])
    .where('establishment_id', '=', filter.establishmentId)
    .where('offset_ms', '=', offsetMs)
    .where('day', '>=', wholeFrom)
    .where('day', '<=', closedUntil)
    .execute();
  const fresh = new Map<number, PainelGroup[]>();
  if (cached.length > 0) {
    const oldest = Math.min(...cached.map((c) => Number(c.computed_at)));
    const day = sql<number>`(created_at + ${sql.lit(offsetMs)}) / ${sql.lit(DAY_MS)}`;
    const changed = await store.db
      .selectFrom('posting_journal')
      .select([day.as('day'), sql<number>`max(updated_at)`.as('last')])
      .where('establishment_id', '=', filter.establishmentId)
      .where('updated_at', '>=', oldest - CLOCK_MARGIN_MS)
      .groupBy(day)
      .execute();
    const lastChange = new Map(changed.map((c) => [Number(c.day), Number(c.last)]));
    for (const c of cached) {
      const last = lastChange.get(Number(c.day));
      if (last === undefined || last < Number(c.computed_at) - CLOCK_MARGIN_MS) {
        fresh.set(Number(c.day), JSON.parse(c.groups) as PainelGroup[]);
      }
    }
  }

  const toRead: number[] = [];
  for (let d = wholeFrom; d <= closedUntil; d++) if (!fresh.has(d)) toRead.push(d);
  const readAt = Date.now();
  const read = async (fromDay: number, toDay: number) =>
    painelGroups(store, {
      ...filter,
      from: fromDay * DAY_MS - offsetMs,
      to: (toDay + 1) * DAY_MS - offsetMs,
    });
  const [missing, edges] = await Promise.all([
    Promise.all(runs(toRead).map(([a, b]) => read(a, b))),
    // The partial first day (a period not starting at a local midnight) and the open days.
    Promise.all([
      wholeFrom > firstDay
        ? painelGroups(store, { ...filter, to: wholeFrom * DAY_MS - offsetMs })
        : [],
      closedUntil < lastDay
        ? painelGroups(store, { ...filter, from: (closedUntil + 1) * DAY_MS - offsetMs })
        : [],
    ]),
  ]);
  const byDay = new Map<number, PainelGroup[]>(toRead.map((d) => [d, []]));
  for (const g of missing.flat()) byDay.get(g.day)?.push(g);
  if (byDay.size > 0) {
    await store.db
      .insertInto('dashboard_days')
      .values(
        [...byDay].map(([d, groups]) => ({
          establishment_id: filter.establishmentId,
          offset_ms: offsetMs,
          day: d,
          computed_at: readAt,
          groups: JSON.stringify(groups),
        })),
      )
      .onConflict((oc) =>
        oc.columns(['establishment_id', 'offset_ms', 'day']).doUpdateSet((eb) => ({
          computed_at: eb.ref('excluded.computed_at'),
          groups: eb.ref('excluded.groups'),
        })),
      )
      .execute();
  }
  return [...[...fresh.values()].flat(), ...missing.flat(), ...edges.flat()];
}
