/**
 * Sales staged for a kiosk, in the store every replica shares (table `kiosk_sales`,
 * migration 0005). A sale waits for a customer (`aguardando`), is claimed once (`lançando`)
 * and ends `lançado`, `recusado`, `desconhecido`, `cancelado` or `expirado`.
 *
 * - One waiting sale per kiosk: a partial unique index (`state = 'aguardando'`), so two
 *   replicas staging for one kiosk at once cannot both win.
 * - The claim is a conditional `update … where state = 'aguardando' and expires_at > now`:
 *   of any number of claims, from any replicas, exactly one changes the row.
 * - The attendant password is stored only sealed (the caller seals it, see
 *   app/postings/sealed.ts) and erased (`secret = null`) by the claim, a cancel or the expiry.
 *
 * Every write answers the row as it is after it, so the caller can publish it.
 */
import type { Selectable } from 'kysely';
import type { KioskSalesTable } from './schema';
import type { Store } from './store';
import { isUniqueViolation } from './engine';

export type KioskSaleRow = Selectable<KioskSalesTable>;

export const KIOSK_SALE_OPEN = ['aguardando', 'lançando'] as const;

export interface NewKioskSale {
  id: string;
  kioskId: number;
  counterId: number | null;
  amount: number;
  /** JSON of the basket, or null. */
  items: string | null;
  /** The sealed attendant password. */
  secret: string;
  ttlMs: number;
}

export type StageResult =
  { ok: true; sale: KioskSaleRow; replaced: KioskSaleRow[] } | { ok: false; reason: 'busy' };

/** The fields a settlement may change. */
export interface KioskSalePatch {
  state: string;
  message?: string | null;
  points?: number | null;
  customer?: string | null;
}

/** What the kiosk and the counter read on a sale closed unclaimed (or its claim lost). */
export const KIOSK_SALE_CLOSED = {
  cancelado: 'O caixa cancelou esta venda.',
  expirado: 'O tempo para pontuar esta venda acabou.',
  desconhecido: 'Ainda não se sabe se os pontos foram lançados. O caixa confere.',
} as const;

export function createKioskSalesStore(store: Store) {
  const { db } = store;

  return {
    /** Stages a sale: see stageSale. */
    stage: (n: NewKioskSale): Promise<StageResult> => stageSale(store, n),

    async get(id: string): Promise<KioskSaleRow | null> {
      return (
        (await db.selectFrom('kiosk_sales').selectAll().where('id', '=', id).executeTakeFirst()) ??
        null
      );
    },

    /** The kiosk's sale waiting for a customer, else the newest one being posted, if any. */
    async openFor(kioskId: number): Promise<KioskSaleRow | null> {
      const open = await db
        .selectFrom('kiosk_sales')
        .selectAll()
        .where('kiosk_id', '=', kioskId)
        .where('state', 'in', [...KIOSK_SALE_OPEN])
        .where((eb) => eb.or([eb('state', '!=', 'aguardando'), eb('expires_at', '>', store.now())]))
        .orderBy('created_at', 'desc')
        .execute();
      return open.find((s) => s.state === 'aguardando') ?? open[0] ?? null;
    },

    /**
     * The claim: `aguardando` → `lançando` in one conditional update, erasing the sealed
     * password. Answers the sealed password and the row, or null when the sale was not free
     * (claimed by another tap, kiosk or replica; cancelled; expired).
     */
    async claim(id: string): Promise<{ secret: string; sale: KioskSaleRow } | null> {
      return store.transaction(async (trx) => {
        const now = store.now();
        const before = await store
          .lock(trx.selectFrom('kiosk_sales').select(['secret', 'state']).where('id', '=', id))
          .executeTakeFirst();
        if (before?.state !== 'aguardando' || before.secret === null) return null;
        const sale = await trx
          .updateTable('kiosk_sales')
          .set({ state: 'lançando', message: null, secret: null, updated_at: now })
          .where('id', '=', id)
          .where('state', '=', 'aguardando')
          .where('expires_at', '>', now)
          .returningAll()
          .executeTakeFirst();
        return sale === undefined ? null : { secret: before.secret, sale };
      });
    },

    /** Cancels a waiting sale (null when it is no longer waiting). */
    async cancel(id: string): Promise<KioskSaleRow | null> {
      return close(db, id, 'cancelado', store.now());
    },

    /** A claimed sale's outcome (or a progress note while it stays `lançando`). */
    async settle(id: string, patch: KioskSalePatch): Promise<KioskSaleRow | null> {
      const now = store.now();
      const open = patch.state === 'lançando';
      return (
        (await db
          .updateTable('kiosk_sales')
          .set({
            ...patch,
            secret: null,
            updated_at: now,
            ...(open ? {} : { settled_at: now }),
          })
          .where('id', '=', id)
          .where('state', '=', 'lançando')
          .returningAll()
          .executeTakeFirst()) ?? null
      );
    },

    /** Closes expired and orphaned sales, deletes old settled ones: see sweepSales. */
    sweep: (keepSettledMs: number, staleClaimMs = 20 * 60_000): Promise<KioskSaleRow[]> =>
      sweepSales(store, keepSettledMs, staleClaimMs),
  };
}

/**
 * Stages a sale: the same counter's earlier waiting sale on this kiosk is cancelled
 * (and answered in `replaced`); another counter's, or one staged on the kiosk, makes it busy.
 */
async function stageSale(store: Store, n: NewKioskSale): Promise<StageResult> {
  try {
    return await store.transaction(async (trx) => {
      const now = store.now();
      const waiting = await store
        .lock(
          trx
            .selectFrom('kiosk_sales')
            .selectAll()
            .where('kiosk_id', '=', n.kioskId)
            .where('state', '=', 'aguardando'),
        )
        .execute();
      const replaced: KioskSaleRow[] = [];
      for (const w of waiting) {
        const mine = n.counterId !== null && w.counter_id === n.counterId;
        if (w.expires_at > now && !mine) return { ok: false, reason: 'busy' } as const;
        const state = w.expires_at > now ? 'cancelado' : 'expirado';
        const closed = await close(trx, w.id, state, now);
        if (closed === null) return { ok: false, reason: 'busy' } as const;
        replaced.push(closed);
      }
      const sale = await trx
        .insertInto('kiosk_sales')
        .values({
          id: n.id,
          kiosk_id: n.kioskId,
          counter_id: n.counterId,
          amount: n.amount,
          items: n.items,
          state: 'aguardando',
          message: null,
          points: null,
          customer: null,
          secret: n.secret,
          created_at: now,
          expires_at: now + n.ttlMs,
          updated_at: now,
          settled_at: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return { ok: true, sale, replaced } as const;
    });
  } catch (err) {
    // Another replica's insert won the kiosk between our read and our insert.
    if (isUniqueViolation(err)) return { ok: false, reason: 'busy' };
    throw err;
  }
}

/**
 * Expires waiting sales past their time (answers them, once across replicas: the update
 * is conditional), marks `desconhecido` a claim nobody settled within `staleClaimMs` (its
 * replica died while posting: the journal, shared, still settles the posting itself; the
 * counter checks it in "Lançamentos do turno") and deletes sales settled more than
 * `keepSettledMs` ago.
 */
async function sweepSales(
  store: Store,
  keepSettledMs: number,
  staleClaimMs: number,
): Promise<KioskSaleRow[]> {
  const { db } = store;
  const now = store.now();
  const expired = await db
    .updateTable('kiosk_sales')
    .set({
      state: 'expirado',
      message: KIOSK_SALE_CLOSED.expirado,
      secret: null,
      updated_at: now,
      settled_at: now,
    })
    .where('state', '=', 'aguardando')
    .where('expires_at', '<=', now)
    .returningAll()
    .execute();
  const orphaned = await db
    .updateTable('kiosk_sales')
    .set({
      state: 'desconhecido',
      message: KIOSK_SALE_CLOSED.desconhecido,
      updated_at: now,
      settled_at: now,
    })
    .where('state', '=', 'lançando')
    .where('updated_at', '<', now - staleClaimMs)
    .returningAll()
    .execute();
  await db
    .deleteFrom('kiosk_sales')
    .where('settled_at', 'is not', null)
    .where('settled_at', '<', now - keepSettledMs)
    .execute();
  return [...expired, ...orphaned];
}

/** Closes a sale still waiting (and not expired, unless expiring it); null when it was not. */
async function close(
  q: Store['db'],
  id: string,
  state: 'cancelado' | 'expirado',
  now: number,
): Promise<KioskSaleRow | null> {
  return (
    (await q
      .updateTable('kiosk_sales')
      .set({
        state,
        message: KIOSK_SALE_CLOSED[state],
        secret: null,
        updated_at: now,
        settled_at: now,
      })
      .where('id', '=', id)
      .where('state', '=', 'aguardando')
      .where('expires_at', state === 'expirado' ? '<=' : '>', now)
      .returningAll()
      .executeTakeFirst()) ?? null
  );
}
