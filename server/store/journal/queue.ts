/**
 * The queue of kept sales (`aguardando envio`, `precisa de atenção`): keeping a sale, its
 * figures, claiming sales for delivery and a manager's decision.
 */
import type { Store } from '../store';
import { changed, newRow, type Trx } from './rows';
import { queuedOf } from './slots';
import { IN_FLIGHT, type GetEntry, type JournalEntry, type JournalStore } from './types';

type QueueQueries = Pick<
  JournalStore,
  'enqueue' | 'queueStats' | 'customerQueued' | 'claimWaiting' | 'resolveAttention'
>;

/** The queue's queries built with Kysely (see `kyselyJournal`). */
export function kyselyQueue(store: Store, get: GetEntry): QueueQueries {
  const db = store.db;
  return {
    async enqueue(e) {
      const res = await db
        .insertInto('posting_journal')
        .values({
          ...newRow(e),
          state: 'aguardando envio',
          reason: e.reason,
          owner: null,
          lease_until: 0,
          body: JSON.stringify(e.body),
          secret: e.secret,
        })
        .onConflict((oc) => oc.column('key').doNothing())
        .executeTakeFirst();
      if (changed(res)) return { created: true };
      const existing = await get(e.key);
      if (existing === null) throw new Error('journal entry vanished after a key conflict');
      return { created: false, existing };
    },

    async queueStats(establishmentId) {
      const rows = await db
        .selectFrom('posting_journal')
        .select((eb) => [
          'state',
          eb.fn.countAll<number | string | bigint>().as('n'),
          eb.fn.min('created_at').as('oldest'),
        ])
        .where('establishment_id', '=', establishmentId)
        .where('state', 'in', ['aguardando envio', 'precisa de atenção'])
        .groupBy('state')
        .execute();
      // Kept sales being delivered right now still wait, as far as the counter is concerned.
      const delivering = await db
        .selectFrom('posting_journal')
        .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
        .where('establishment_id', '=', establishmentId)
        .where('state', 'in', [...IN_FLIGHT])
        .where('settled_at', 'is', null)
        .where('body', 'is not', null)
        .executeTakeFirst();
      const of = (state: string) => rows.find((r) => r.state === state);
      const waitingRow = of('aguardando envio');
      return {
        waiting: Number(waitingRow?.n ?? 0) + Number(delivering?.n ?? 0),
        attention: Number(of('precisa de atenção')?.n ?? 0),
        oldestWaitingAt:
          waitingRow?.oldest === undefined || waitingRow.oldest === null
            ? null
            : Number(waitingRow.oldest),
      };
    },

    async customerQueued(establishmentId, customerKey) {
      const row = await queuedOf(db, establishmentId, customerKey).executeTakeFirst();
      return row !== undefined;
    },

    claimWaiting: (establishmentId, now, owner, leaseUntil, limit) =>
      claimWaitingSales(db, get, { establishmentId, now, owner, leaseUntil, limit }),

    async resolveAttention(key, now, decision) {
      const set =
        'resend' in decision
          ? {
              state: 'aguardando envio',
              secret: decision.resend.secret,
              reason: null,
              updated_at: now,
              settled_at: null,
              // A manager's resend starts afresh: its tries and backoff from zero.
              attempts: 0,
              next_check_at: null,
            }
          : {
              state: 'descartado',
              secret: null,
              reason: decision.discard.reason,
              updated_at: now,
              settled_at: now,
            };
      const res = await db
        .updateTable('posting_journal')
        .set(set)
        .where('key', '=', key)
        .where('state', '=', 'precisa de atenção')
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },
  };
}

/**
 * Claims waiting sales for delivery, oldest first, one per customer and none of a busy
 * customer (see `JournalStore.claimWaiting`).
 */
async function claimWaitingSales(
  db: Trx,
  get: GetEntry,
  { establishmentId, now, owner, leaseUntil, limit }: ClaimWaiting,
): Promise<JournalEntry[]> {
  // The queue first, then who is busy: a sale claimed in between is either seen busy or
  // still seen waiting (its claim here then fails), never skipped over.
  const queue = await db
    .selectFrom('posting_journal')
    .select(['key', 'customer_key', 'next_check_at'])
    .where('establishment_id', '=', establishmentId)
    .where('state', '=', 'aguardando envio')
    .orderBy('created_at')
    .orderBy('key')
    .limit(Math.max(limit * 20, 200))
    .execute();
  if (queue.length === 0) return [];
  const customers = [...new Set(queue.map((q) => q.customer_key))];
  const busy = new Set(
    (
      await db
        .selectFrom('posting_journal')
        .select('customer_key')
        .where('establishment_id', '=', establishmentId)
        .where('customer_key', 'in', customers)
        .where('state', 'in', [...IN_FLIGHT])
        .where('settled_at', 'is', null)
        .execute()
    ).map((r) => r.customer_key),
  );
  const seen = new Set<string>();
  const claimed: JournalEntry[] = [];
  for (const q of queue) {
    if (claimed.length >= limit) break;
    if (seen.has(q.customer_key)) continue;
    seen.add(q.customer_key);
    if (busy.has(q.customer_key)) continue;
    // Waiting out its backoff after a failed try: its customer's later sales wait too.
    if (q.next_check_at !== null && q.next_check_at > now) continue;
    const res = await db
      .updateTable('posting_journal')
      .set((eb) => ({
        state: 'enviando',
        owner,
        lease_until: leaseUntil,
        updated_at: now,
        sent_at: null,
        snapshot: null,
        ended_at: null,
        lost_kind: null,
        next_check_at: null,
        attempts: eb('attempts', '+', 1),
      }))
      .where('key', '=', q.key)
      .where('state', '=', 'aguardando envio')
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) continue;
    const entry = await get(q.key);
    if (entry !== null) claimed.push(entry);
  }
  return claimed;
}

interface ClaimWaiting {
  establishmentId: number;
  now: number;
  owner: string;
  leaseUntil: number;
  limit: number;
}
