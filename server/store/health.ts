/**
 * What /readyz and /metrics read from the store: whether it answers and its schema is up to
 * date, and counts that hold no customer data (journal entries by state, open kiosk sales).
 */
import { sql } from 'kysely';
import { KIOSK_SALE_OPEN } from './kiosk-sales';
import { migrationNames } from './migrations';
import type { Store } from './store';

export interface StoreHealth {
  /** A query answered. */
  reachable: boolean;
  /** Every migration this code knows has run. */
  migrated: boolean;
}

export async function storeHealth(store: Store): Promise<StoreHealth> {
  try {
    const r = await sql<{ n: number | string }>`select count(*) as n from kysely_migration`.execute(
      store.db,
    );
    const done = Number(r.rows[0]?.n ?? 0);
    return { reachable: true, migrated: done >= migrationNames().length };
  } catch {
    return { reachable: false, migrated: false };
  }
}

export interface StoreCounts {
  /** The journal's entries (within its retention) by state. */
  postingsByState: Record<string, number>;
  /** Kiosk sales staged and not settled yet. */
  kioskOpen: number;
}

export async function storeCounts(store: Store): Promise<StoreCounts> {
  const rows = await store.db
    .selectFrom('posting_journal')
    .select(['state', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('state')
    .execute();
  const kiosk = await store.db
    .selectFrom('kiosk_sales')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('state', 'in', [...KIOSK_SALE_OPEN])
    .executeTakeFirst();
  return {
    postingsByState: Object.fromEntries(rows.map((r) => [r.state, Number(r.n)])),
    kioskOpen: Number(kiosk?.n ?? 0),
  };
}
