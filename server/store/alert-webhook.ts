/**
 * The outbound webhook's deliveries (migration 0016, `alert_webhook_deliveries`): one row per
 * alert event (unique per establishment + `dedup`, so an event recorded twice is one
 * delivery), its body as sent, its state, attempts, the receiver's last answer and when the
 * next attempt is due. A process delivers a row only under its lease (claimed by a conditional
 * update that one process wins, as the journal's), so with several replicas sharing the store
 * each delivery has one sender at a time, and a crashed sender's row is taken over once its
 * lease runs out.
 */
import type { Selectable } from 'kysely';
import type { AlertWebhookDeliveriesTable } from './schema';
import type { Store } from './store';

export type DeliveryRow = Selectable<AlertWebhookDeliveriesTable>;
export type DeliveryStatus = 'pendente' | 'entregue' | 'falhou';

export interface NewDelivery {
  establishmentId: number;
  event: string;
  alertId: number | null;
  dedup: string;
  body: string;
}

/** An attempt's outcome, written only by the lease's owner. */
export interface AttemptResult {
  status: DeliveryStatus;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  /** When the next attempt is due (pendente only). */
  nextAttemptAt: number;
}

const num = (v: unknown): number => Number(v);
const numOrNull = (v: unknown): number | null => (v === null ? null : Number(v));

function row(r: DeliveryRow): DeliveryRow {
  return {
    ...r,
    id: num(r.id),
    alert_id: numOrNull(r.alert_id),
    attempts: num(r.attempts),
    last_status: numOrNull(r.last_status),
    next_attempt_at: num(r.next_attempt_at),
    lease_until: num(r.lease_until),
    created_at: num(r.created_at),
    updated_at: num(r.updated_at),
    delivered_at: numOrNull(r.delivered_at),
  };
}

export function createDeliveryStore(store: Store) {
  const { db } = store;
  return {
    /** Records a delivery due now; false when this event was already recorded. */
    async enqueue(d: NewDelivery): Promise<boolean> {
      const now = store.now();
      const r = await db
        .insertInto('alert_webhook_deliveries')
        .values({
          establishment_id: d.establishmentId,
          event: d.event,
          alert_id: d.alertId,
          dedup: d.dedup,
          body: d.body,
          status: 'pendente',
          attempts: 0,
          last_status: null,
          last_error: null,
          next_attempt_at: now,
          owner: null,
          lease_until: 0,
          created_at: now,
          updated_at: now,
          delivered_at: null,
        })
        .onConflict((oc) => oc.columns(['establishment_id', 'dedup']).doNothing())
        .returning('id')
        .executeTakeFirst();
      return r !== undefined;
    },

    /**
     * Claims up to `limit` deliveries due by `now` that nobody holds (every store's: one
     * sender per process serves the deployment). A row is claimed by one process only: the
     * update checks the lease again, and the loser's update changes nothing.
     */
    async claimDue(
      now: number,
      owner: string,
      leaseUntil: number,
      limit: number,
    ): Promise<DeliveryRow[]> {
      const due = await db
        .selectFrom('alert_webhook_deliveries')
        .select('id')
        .where('status', '=', 'pendente')
        .where('next_attempt_at', '<=', now)
        .where('lease_until', '<', now)
        .orderBy('next_attempt_at')
        .limit(limit)
        .execute();
      const claimed: DeliveryRow[] = [];
      for (const { id } of due) {
        const r = await db
          .updateTable('alert_webhook_deliveries')
          .set({ owner, lease_until: leaseUntil, updated_at: now })
          .where('id', '=', num(id))
          .where('status', '=', 'pendente')
          .where('lease_until', '<', now)
          .returningAll()
          .executeTakeFirst();
        if (r !== undefined) claimed.push(row(r));
      }
      return claimed;
    },

    /** Writes an attempt's outcome if `owner` still holds the lease; false otherwise. */
    async settle(id: number, owner: string, result: AttemptResult): Promise<boolean> {
      const now = store.now();
      const r = await db
        .updateTable('alert_webhook_deliveries')
        .set({
          status: result.status,
          attempts: result.attempts,
          last_status: result.lastStatus,
          last_error: result.lastError,
          next_attempt_at: result.nextAttemptAt,
          owner: null,
          lease_until: 0,
          updated_at: now,
          delivered_at: result.status === 'entregue' ? now : null,
        })
        .where('id', '=', id)
        .where('owner', '=', owner)
        .where('status', '=', 'pendente')
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    /** A store's deliveries, newest first. */
    async list(establishmentId: number, limit: number): Promise<DeliveryRow[]> {
      const rows = await db
        .selectFrom('alert_webhook_deliveries')
        .selectAll()
        .where('establishment_id', '=', establishmentId)
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(row);
    },

    /**
     * Deletes up to `limit` of a store's settled deliveries (entregue, falhou) last changed
     * before `before`, oldest first; answers how many. Pending ones are never deleted.
     */
    async prune(establishmentId: number, before: number, limit: number): Promise<number> {
      const old = await db
        .selectFrom('alert_webhook_deliveries')
        .select('id')
        .where('establishment_id', '=', establishmentId)
        .where('status', 'in', ['entregue', 'falhou'])
        .where('updated_at', '<', before)
        .orderBy('id')
        .limit(limit)
        .execute();
      if (old.length === 0) return 0;
      const r = await db
        .deleteFrom('alert_webhook_deliveries')
        .where(
          'id',
          'in',
          old.map((o) => num(o.id)),
        )
        .where('status', 'in', ['entregue', 'falhou'])
        .executeTakeFirst();
      return Number(r.numDeletedRows);
    },

    /** Pending deliveries by store (the metrics' gauge). */
    async pendingByStore(): Promise<Map<number, number>> {
      const rows = await db
        .selectFrom('alert_webhook_deliveries')
        .select(['establishment_id', (eb) => eb.fn.countAll().as('n')])
        .where('status', '=', 'pendente')
        .groupBy('establishment_id')
        .execute();
      return new Map(rows.map((r) => [num(r.establishment_id), num(r.n)]));
    },

    /** Deliveries by status (every store's; the metrics, the tests). */
    async counts(): Promise<Record<string, number>> {
      const rows = await db
        .selectFrom('alert_webhook_deliveries')
        .select(['status', (eb) => eb.fn.countAll().as('n')])
        .groupBy('status')
        .execute();
      return Object.fromEntries(rows.map((r) => [r.status, num(r.n)]));
    },
  };
}
