/**
 * The customer's slot (tables `posting_slots` and `posting_turns`): taking it, reading it,
 * the fast path that journals and takes it at once, and freeing it when a posting settles.
 */
import type { Store } from '../store';
import {
  Rollback,
  changed,
  fromRow,
  lookupOf,
  startedRow,
  toColumns,
  type LookupColumns,
  type Trx,
} from './rows';
import {
  IN_FLIGHT,
  type GetEntry,
  type JournalStore,
  type StartResult,
} from './types';

/** Takes the customer's slot for `key` and counts the turn; false when another holds it. */
async function takeSlotIn(
  trx: Trx,
  establishmentId: number,
  customerKey: string,
  key: string,
  now: number,
  turn: number | null,
): Promise<boolean> {
  const slot = await trx
    .insertInto('posting_slots')
    .values({ establishment_id: establishmentId, customer_key: customerKey, key, taken_at: now })
    .onConflict((oc) => oc.columns(['establishment_id', 'customer_key']).doNothing())
    .executeTakeFirst();
  if (!changed(slot)) return false;
  const where = { establishment_id: establishmentId, customer_key: customerKey };
  if (turn === null || turn > 0) {
    let q = trx
      .updateTable('posting_turns')
      .set((eb) => ({ turn: eb('turn', '+', 1) }))
      .where('establishment_id', '=', establishmentId)
      .where('customer_key', '=', customerKey);
    if (turn !== null) q = q.where('turn', '=', turn);
    if (changed(await q.executeTakeFirst())) return true;
    if (turn !== null) return false;
  }
  const first = await trx
    .insertInto('posting_turns')
    .values({ ...where, turn: 1 })
    .onConflict((oc) =>
      turn === null
        ? oc
            .columns(['establishment_id', 'customer_key'])
            .doUpdateSet((eb) => ({ turn: eb('posting_turns.turn', '+', 1) }))
        : oc.columns(['establishment_id', 'customer_key']).doNothing(),
    )
    .executeTakeFirst();
  return changed(first);
}

/** The customer's kept sales not delivered yet (waiting, or being delivered): one row or none. */
export function queuedOf(db: Trx, establishmentId: number, customerKey: string) {
  return db
    .selectFrom('posting_journal')
    .select('key')
    .where('establishment_id', '=', establishmentId)
    .where('customer_key', '=', customerKey)
    .where((eb) =>
      eb.or([
        eb('state', '=', 'aguardando envio'),
        eb.and([
          eb('state', 'in', [...IN_FLIGHT]),
          eb('settled_at', 'is', null),
          eb('body', 'is not', null),
        ]),
      ]),
    )
    .limit(1);
}

type SlotQueries = Pick<
  JournalStore,
  'takeSlot' | 'slotState' | 'start' | 'finish' | 'releaseSlot'
>;

/** The slot's queries built with Kysely (see `kyselyJournal`). */
export function kyselySlots(store: Store, get: GetEntry): SlotQueries {
  const db = store.db;
  return {
    async takeSlot(establishmentId, customerKey, key, now) {
      const took = await store.transaction((trx) =>
        takeSlotIn(trx, establishmentId, customerKey, key, now, null),
      );
      if (took) return true;
      const holder = await db
        .selectFrom('posting_slots')
        .select('key')
        .where('establishment_id', '=', establishmentId)
        .where('customer_key', '=', customerKey)
        .executeTakeFirst();
      return holder?.key === key;
    },

    async slotState(establishmentId, customerKey, options) {
      // One statement (one round trip on PostgreSQL): the posting's path pays for each.
      const row = await db
        .selectNoFrom((eb) => [
          eb
            .selectFrom('posting_slots')
            .select('key')
            .where('establishment_id', '=', establishmentId)
            .where('customer_key', '=', customerKey)
            .as('slot'),
          eb
            .selectFrom('posting_turns')
            .select('turn')
            .where('establishment_id', '=', establishmentId)
            .where('customer_key', '=', customerKey)
            .as('turn'),
          options?.queued
            ? eb.exists(queuedOf(db, establishmentId, customerKey)).as('queued')
            : eb.val(0).as('queued'),
          ...(['turn', 'reading', 'read_at'] as const).map((column) =>
            eb
              .selectFrom('customer_lookups')
              .select(column)
              .where('establishment_id', '=', establishmentId)
              .where('terminal_id', '=', options?.lookup ?? '')
              .where('customer_key', '=', customerKey)
              .as(`lookup_${column}`),
          ),
        ])
        .executeTakeFirstOrThrow();
      const lookup = options?.lookup;
      return {
        held: row.slot !== null,
        ...(row.slot !== null ? { holder: row.slot } : {}),
        turn: row.turn === null ? 0 : Number(row.turn),
        ...(options?.queued ? { queued: Boolean(Number(row.queued)) } : {}),
        ...(lookup === undefined
          ? {}
          : { lookup: lookupOf(row as LookupColumns, establishmentId, lookup, customerKey) }),
      };
    },

    async start(e, turn) {
      let result: StartResult;
      try {
        result = await store.transaction(async (trx) => {
          const inserted = await trx
            .insertInto('posting_journal')
            .values(startedRow(e))
            .onConflict((oc) => oc.column('key').doNothing())
            .returningAll()
            .executeTakeFirst();
          if (inserted === undefined) throw new Rollback({ kind: 'moved' });
          if (!(await takeSlotIn(trx, e.establishmentId, e.customerKey, e.key, e.sentAt, turn))) {
            throw new Rollback({ kind: 'moved' });
          }
          return { kind: 'started', entry: fromRow(inserted) } as const;
        });
      } catch (err) {
        if (!(err instanceof Rollback)) throw err;
        result = err.result;
      }
      if (result.kind === 'started') return result;
      // Rolled back: the key may exist (then it is that sale), else the slot moved on.
      const existing = await get(e.key);
      return existing === null ? { kind: 'moved' } : { kind: 'exists', existing };
    },

    async finish(key, owner, patch, now, options) {
      return store.transaction(async (trx) => {
        const res = await trx
          .updateTable('posting_journal')
          .set({ ...toColumns(patch), updated_at: now })
          .where('key', '=', key)
          .where('owner', '=', owner)
          .executeTakeFirst();
        await trx.deleteFrom('posting_slots').where('key', '=', key).execute();
        return Number(res.numUpdatedRows) === 1;
      }, options);
    },

    async releaseSlot(key) {
      await db.deleteFrom('posting_slots').where('key', '=', key).execute();
    },
  };
}
