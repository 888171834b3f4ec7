/**
 * Which stores' sweeps have something to do now: one statement per table for every store of
 * the shared store, instead of each store's sweep asking every second (a chain's idle stores
 * cost nothing). A superset, never fewer: a store listed may find nothing; a store not listed
 * would have found nothing.
 */
import { IN_FLIGHT } from './journal/types';
import type { Store } from './store';

export interface StoresToSweep {
  /** Journal: entries whose lease ran out (stale or due for a re-check), or kept sales waiting. */
  journal: Set<number>;
  /** PDV sales due to expire or following a posting. `null`: a terminal of no named store (or none). */
  pdv: Set<number | null>;
}

export async function storesToSweep(store: Store, now: number): Promise<StoresToSweep> {
  const { db } = store;
  const [journal, pdv] = await Promise.all([
    db
      .selectFrom('posting_journal')
      .select('establishment_id')
      .distinct()
      .where((eb) =>
        eb.or([
          eb.and([eb('state', 'in', [...IN_FLIGHT]), eb('lease_until', '<', now)]),
          eb('state', '=', 'aguardando envio'),
        ]),
      )
      .execute(),
    db
      .selectFrom('pdv_sales')
      .leftJoin('terminals', 'terminals.id', 'pdv_sales.terminal_id')
      .select('terminals.establishment_id')
      .distinct()
      .where((eb) =>
        eb.or([
          eb.and([eb('pdv_sales.state', '=', 'aguardando'), eb('pdv_sales.expires_at', '<=', now)]),
          eb('pdv_sales.state', 'in', ['lançando', 'no quiosque']),
        ]),
      )
      .execute(),
  ]);
  return {
    journal: new Set(journal.map((r) => r.establishment_id)),
    pdv: new Set(pdv.map((r) => r.establishment_id)),
  };
}
