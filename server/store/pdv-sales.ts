/**
 * Sales the store's PDV sent (table `pdv_sales`, migration 0009), shared by every replica.
 *
 * - `(terminal_id, sale_id)` is unique: the PDV's `id_venda` is its idempotency key, and of
 *   two requests with one id (two replicas, a resend after a crash) one row wins.
 * - Every change of state is a conditional `update … where state in (…)`: of any number of
 *   writers (the PDV's cancel, the counter's posting, the expiry, the kiosk) one wins.
 * - The CPF or phone the PDV sent is never stored: only inside the request's fingerprint (an
 *   HMAC under the app's secret).
 */
import { sql, type ExpressionBuilder, type Selectable } from 'kysely';
import type { Database, PdvSalesTable } from './schema';
import { storeTerminalIds } from './terminals';
import type { StoreScope } from './terminals';
import type { Store } from './store';

export type PdvSaleRow = Selectable<PdvSalesTable>;

/** Waiting for someone (the counter, the kiosk, the journal). */
export const PDV_OPEN_STATES = ['aguardando', 'no quiosque', 'lançando'] as const;

export interface NewPdvSale {
  id: string;
  terminalId: number;
  counterId: number | null;
  saleId: string;
  fingerprint: string;
  amount: number;
  items: string | null;
  state: 'aguardando' | 'lançando';
  postingKey: string | null;
  expiresAt: number;
}

export interface PdvSalePatch {
  state: string;
  postingKey?: string | null;
  auto?: boolean;
  points?: number | null;
  customer?: string | null;
  rewards?: string | null;
  message?: string | null;
}

const FINAL = new Set(['lançada', 'recusada', 'cancelada', 'não identificada']);

/** The PDV sales of one store (`scope`: those whose PDV is that store's terminal) or of all. */
export function createPdvSalesStore(store: Store, scope?: StoreScope | null) {
  const { db } = store;
  /** Whether a sale is this store's (its PDV is the store's terminal); always, unscoped. */
  const ofStore = (eb: ExpressionBuilder<Database, 'pdv_sales'>) =>
    scope === undefined || scope === null
      ? eb.lit(true)
      : eb('pdv_sales.terminal_id', 'in', storeTerminalIds(db, scope));
  return {
    /** Inserts the sale, or answers the one already under this PDV's `id_venda`. */
    async insert(n: NewPdvSale): Promise<{ created: boolean; sale: PdvSaleRow }> {
      const now = store.now();
      const created = await db
        .insertInto('pdv_sales')
        .values({
          id: n.id,
          terminal_id: n.terminalId,
          counter_id: n.counterId,
          sale_id: n.saleId,
          fingerprint: n.fingerprint,
          amount: n.amount,
          items: n.items,
          state: n.state,
          posting_key: n.postingKey,
          auto: n.state === 'lançando' ? 1 : 0,
          created_at: now,
          expires_at: n.expiresAt,
          updated_at: now,
        })
        .onConflict((oc) => oc.columns(['terminal_id', 'sale_id']).doNothing())
        .returningAll()
        .executeTakeFirst();
      if (created !== undefined) return { created: true, sale: created };
      const existing = await this.bySaleId(n.terminalId, n.saleId);
      return { created: false, sale: existing! };
    },
    bySaleId(terminalId: number, saleId: string): Promise<PdvSaleRow | undefined> {
      return db
        .selectFrom('pdv_sales')
        .selectAll()
        .where('terminal_id', '=', terminalId)
        .where('sale_id', '=', saleId)
        .executeTakeFirst();
    },
    async get(id: string): Promise<PdvSaleRow | null> {
      return (
        (await db
          .selectFrom('pdv_sales')
          .selectAll()
          .where('id', '=', id)
          .where(ofStore)
          .executeTakeFirst()) ?? null
      );
    },
    /** Moves the sale from one of `from` (and, when given, the posting key it holds). */
    async move(
      id: string,
      from: readonly string[],
      patch: PdvSalePatch,
      postingKey?: string | null,
    ): Promise<PdvSaleRow | null> {
      const now = store.now();
      let q = db
        .updateTable('pdv_sales')
        .set({
          state: patch.state,
          updated_at: now,
          settled_at: FINAL.has(patch.state) ? now : null,
          ...(patch.postingKey === undefined ? {} : { posting_key: patch.postingKey }),
          ...(patch.auto === undefined ? {} : { auto: patch.auto ? 1 : 0 }),
          ...(patch.points === undefined ? {} : { points: patch.points }),
          ...(patch.customer === undefined ? {} : { customer: patch.customer }),
          ...(patch.rewards === undefined ? {} : { rewards: patch.rewards }),
          ...(patch.message === undefined ? {} : { message: patch.message }),
        })
        .where('id', '=', id)
        .where('state', 'in', [...from]);
      if (postingKey !== undefined) {
        q =
          postingKey === null
            ? q.where('posting_key', 'is', null)
            : q.where('posting_key', '=', postingKey);
      }
      return (await q.returningAll().executeTakeFirst()) ?? null;
    },
    /** Waiting sales past their time: `não identificada`, answered to be published. */
    async expire(): Promise<PdvSaleRow[]> {
      const now = store.now();
      return db
        .updateTable('pdv_sales')
        .set({
          state: 'não identificada',
          updated_at: now,
          settled_at: now,
          message: 'Venda não identificada: ninguém informou o cliente a tempo.',
        })
        .where('state', '=', 'aguardando')
        .where('expires_at', '<=', now)
        .where(ofStore)
        .returningAll()
        .execute();
    },
    /** Sales whose settlement follows another record (the journal's entry, a kiosk's sale). */
    following(): Promise<PdvSaleRow[]> {
      return db
        .selectFrom('pdv_sales')
        .selectAll()
        .where('state', 'in', ['lançando', 'no quiosque'])
        .where(ofStore)
        .limit(200)
        .execute();
    },
    /** One counter's (or, null, every counter's) sales created in [from, to). */
    list(filter: { counterId: number | null; from: number; to: number }): Promise<PdvSaleRow[]> {
      let q = db
        .selectFrom('pdv_sales')
        .selectAll()
        .where('created_at', '>=', filter.from)
        .where('created_at', '<', filter.to)
        .where(ofStore);
      if (filter.counterId !== null) q = q.where('counter_id', '=', filter.counterId);
      return q.orderBy('created_at', 'desc').limit(2000).execute();
    },
    /** The sales still waiting for a counter (oldest first). */
    waiting(counterId: number | null): Promise<PdvSaleRow[]> {
      let q = db
        .selectFrom('pdv_sales')
        .selectAll()
        .where('state', 'in', [...PDV_OPEN_STATES])
        .where(ofStore);
      if (counterId !== null) q = q.where('counter_id', '=', counterId);
      return q.orderBy('created_at', 'asc').limit(200).execute();
    },
  };
}

export type PdvSalesStore = ReturnType<typeof createPdvSalesStore>;

/** One group of the dashboard's PDV figures: a local day, a counter and a state. */
export interface PdvPainelGroup {
  /** Days since 1970-01-01 (local, as the journal's dashboard). */
  day: number;
  counterId: number | null;
  state: string;
  sales: number;
}

/**
 * The PDV sales created in [from, to), counted by local day (`offsetMs` from UTC, as
 * dashboard.ts counts), counter and state: one aggregate read of the covering index
 * `pdv_sales_created` (created_at, counter_id, state), on both engines. The offset and the
 * day's length are literals: PostgreSQL must see the grouped and the selected expression as one.
 */
export async function pdvPainelGroups(
  store: Store,
  filter: { from: number; to: number; offsetMs: number; scope?: StoreScope | null },
): Promise<PdvPainelGroup[]> {
  const scope = filter.scope;
  const day = sql<number>`(created_at + ${sql.lit(Math.trunc(filter.offsetMs))}) / ${sql.lit(86_400_000)}`;
  const rows = await store.db
    .selectFrom('pdv_sales')
    .select([day.as('day'), 'counter_id', 'state', sql<number>`count(*)`.as('sales')])
    .where('created_at', '>=', filter.from)
    .where('created_at', '<', filter.to)
    .where((eb) =>
      scope === undefined || scope === null
        ? eb.lit(true)
        : eb('pdv_sales.terminal_id', 'in', storeTerminalIds(store.db, scope)),
    )
    .groupBy([day, 'counter_id', 'state'])
    .execute();
  return rows.map((r) => ({
    day: Number(r.day),
    counterId: r.counter_id === null ? null : Number(r.counter_id),
    state: r.state,
    sales: Number(r.sales),
  }));
}
