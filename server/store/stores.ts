/**
 * The stores a deployment serves besides its default one (`stores`, migration 0015). The
 * access-token arrives here already sealed (domain/stores.ts) and is only ever stored so.
 */
import type { Store } from './store';

export interface StoreRow {
  establishmentId: number;
  name: string;
  /** The access-token, sealed under APP_SECRET: opened only by the app server and the CLIs. */
  tokenSealed: string;
  createdAt: number;
  updatedAt: number;
}

export async function listStores(store: Store): Promise<StoreRow[]> {
  const rows = await store.db
    .selectFrom('stores')
    .selectAll()
    .orderBy('establishment_id')
    .execute();
  return rows.map((r) => ({
    establishmentId: Number(r.establishment_id),
    name: r.name,
    tokenSealed: r.token_sealed,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  }));
}

/** Adds a store; false when one with this establishment id is already there. */
export async function insertStore(
  store: Store,
  input: { establishmentId: number; name: string; tokenSealed: string },
): Promise<boolean> {
  const now = store.now();
  const res = await store.db
    .insertInto('stores')
    .values({
      establishment_id: input.establishmentId,
      name: input.name,
      token_sealed: input.tokenSealed,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.column('establishment_id').doNothing())
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0n) > 0;
}

/** Replaces a store's sealed token; false when there is no such store. */
export async function updateStoreToken(
  store: Store,
  establishmentId: number,
  tokenSealed: string,
): Promise<boolean> {
  const res = await store.db
    .updateTable('stores')
    .set({ token_sealed: tokenSealed, updated_at: store.now() })
    .where('establishment_id', '=', establishmentId)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Removes a store from the list (its terminals and records stay); false when absent. */
export async function deleteStore(store: Store, establishmentId: number): Promise<boolean> {
  const res = await store.db
    .deleteFrom('stores')
    .where('establishment_id', '=', establishmentId)
    .executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}
