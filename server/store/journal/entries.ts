/** Journal entries: creating, patching, claiming the stale, listing and pruning them. */
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Database } from '../schema';
import type { Store } from '../store';
import { fromRow, newRow, toColumns } from './rows';
import { IN_FLIGHT, UNSETTLED, type GetEntry, type JournalEntry, type JournalStore } from './types';

type EntryQueries = Pick<
  JournalStore,
  'create' | 'update' | 'claimStale' | 'list' | 'listUnsettled' | 'prune'
>;

/** The entries' queries built with Kysely (see `kyselyJournal`). */
export function kyselyEntries(store: Store, get: GetEntry): EntryQueries {
  const db = store.db;

  /**
   * The store's entries that `match`, of one terminal when `f.terminalId` is set: newest
   * first, `f.limit` (1,000) at most.
   */
  const newest = async (
    f: {
      establishmentId: number;
      /** These stores' entries instead (the chain's ledger). */
      establishmentIds?: readonly number[];
      terminalId?: string | null;
      limit?: number;
    },
    match: (eb: ExpressionBuilder<Database, 'posting_journal'>) => Expression<SqlBool>,
  ) => {
    const terminalId = f.terminalId ?? null;
    const rows = await db
      .selectFrom('posting_journal')
      .selectAll()
      .where((eb) =>
        f.establishmentIds === undefined
          ? eb('establishment_id', '=', f.establishmentId)
          : eb('establishment_id', 'in', [...f.establishmentIds, -1]),
      )
      .where(match)
      .$if(terminalId !== null, (q) => q.where('terminal_id', '=', terminalId!))
      .orderBy('created_at', 'desc')
      .orderBy('key', 'desc')
      .limit(f.limit ?? 1000)
      .execute();
    return rows.map(fromRow);
  };

  return {
    async create(e) {
      const res = await db
        .insertInto('posting_journal')
        .values(newRow(e))
        .onConflict((oc) => oc.column('key').doNothing())
        .executeTakeFirst();
      if (Number(res.numInsertedOrUpdatedRows ?? 0n) === 1) return { created: true };
      const existing = await get(e.key);
      if (existing === null) throw new Error('journal entry vanished after a key conflict');
      return { created: false, existing };
    },

    async update(key, owner, patch, now, states) {
      let q = db
        .updateTable('posting_journal')
        .set({ ...toColumns(patch), updated_at: now })
        .where('key', '=', key)
        .where('owner', '=', owner);
      if (states !== undefined) q = q.where('state', 'in', [...states]);
      const res = await q.executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },

    async claimStale(establishmentId, now, owner, leaseUntil, limit) {
      const candidates = await db
        .selectFrom('posting_journal')
        .select('key')
        .where('establishment_id', '=', establishmentId)
        .where((eb) =>
          eb.or([
            eb.and([eb('state', 'in', ['enviando', 'verificando']), eb('lease_until', '<', now)]),
            eb.and([
              eb('state', '=', 'desconhecido'),
              eb('next_check_at', '<=', now),
              eb('lease_until', '<', now),
            ]),
          ]),
        )
        .orderBy('created_at')
        .limit(limit)
        .execute();
      const claimed: JournalEntry[] = [];
      for (const { key } of candidates) {
        const res = await db
          .updateTable('posting_journal')
          .set({ owner, lease_until: leaseUntil, updated_at: now })
          .where('key', '=', key)
          .where('lease_until', '<', now)
          .where('state', 'in', [...IN_FLIGHT])
          .executeTakeFirst();
        if (Number(res.numUpdatedRows) !== 1) continue;
        const entry = await get(key);
        if (entry !== null) claimed.push(entry);
      }
      return claimed;
    },

    list: (f) =>
      newest(f, (eb) => eb.and([eb('created_at', '>=', f.from), eb('created_at', '<', f.to)])),

    listUnsettled: (f) =>
      newest(f, (eb) =>
        eb.and([eb('state', 'in', [...UNSETTLED]), eb('created_at', '<', f.before)]),
      ),

    async prune(before) {
      const res = await db
        .deleteFrom('posting_journal')
        .where('created_at', '<', before)
        .where('state', 'not in', [...UNSETTLED])
        .executeTakeFirst();
      return Number(res.numDeletedRows);
    },
  };
}
