/**
 * The life of a PDV sale, whole: its states, every transition between them (one conditional
 * update each in the store, so of any number of writers one wins), and the event each
 * publishes. The rest of the integration decides *when* a transition happens (sales.ts: the
 * PDV's side; counter.ts: the counter's; settle.ts: following the journal or a kiosk;
 * display.ts: a customer display); only this module moves a sale.
 *
 * ```
 *                 ┌──────── cancelada (the PDV cancels)
 *   new ──► aguardando ──► lançando ──► lançada
 *     │        │  ▲   ▲       │
 *     │        │  │   └───────┘ back to the counter (refused, unknown customer, no answer)
 *     │        ▼  │
 *     │     no quiosque ──► lançando (claimed, being posted) or lançada
 *     └──► lançando (the PDV named a registered customer)
 *   aguardando past its time ──► não identificada (the sweep)
 * ```
 *
 * Events: every transition a counter or the PDV may see is published on the kiosk channel as
 * `venda_pdv` (to the sale's counter, and to whoever waits on the sale: the PDV's long poll),
 * with the sale's view. Reserving a sale for a kiosk is published only once the kiosk staged it
 * (`staged`); a reservation the kiosk refused goes back silently (`unreserved`): nobody saw it
 * leave.
 */
import { PDV_EVENT, PDV_SALE_STATES } from '#contract/api/integracao';
import type { PdvSaleRow, PdvSalePatch } from '../../../store';
import { KIOSK_CHANNEL } from '../kiosk/sales';
import type { PdvDeps } from './deps';
import { pdvView } from './deps';

/** Every state of a PDV sale (`pdv_sales.state`), as the contract names them. */
export type PdvSaleState = (typeof PDV_SALE_STATES)[number];

/** States a sale never leaves. */
export const PDV_SALE_FINAL: ReadonlySet<string> = new Set<PdvSaleState>([
  'lançada',
  'recusada',
  'cancelada',
  'não identificada',
]);

/** What the counter and the PDV read of a sale's state (`mensagem`). */
export const pdvMessages = {
  posted: 'Pontos lançados.',
  waiting: 'Aguardando o caixa identificar o cliente.',
  unknownCustomer: 'Cliente não cadastrado: a venda aguarda o caixa.',
  notPosted: 'Não lançado: a venda aguarda o caixa.',
  checking: 'Conferindo o lançamento.',
  cancelled: 'Venda cancelada pelo PDV.',
  atKiosk: 'No quiosque: o cliente pontua lá.',
  displayBusy: 'O quiosque do cliente está ocupado: a venda aguarda o caixa.',
} as const;

type Deps = Pick<PdvDeps, 'store' | 'sales'>;

/**
 * Tells the sale's counter (its event stream, `venda_pdv`) and anyone waiting on the sale (the
 * PDV's long poll) that it changed. PostgreSQL: every replica hears it.
 */
async function publish(deps: Pick<PdvDeps, 'store'>, s: PdvSaleRow | null): Promise<void> {
  if (s === null) return;
  const to = s.counter_id === null ? [] : [s.counter_id];
  const msg = { to, evento: PDV_EVENT, pdv: s.id, venda: pdvView(s) };
  await deps.store.notify(KIOSK_CHANNEL, JSON.stringify(msg)).catch(() => undefined);
}

/** One transition: the conditional move, then its event (null: another writer won). */
async function move(
  deps: Deps,
  s: PdvSaleRow,
  from: readonly PdvSaleState[],
  patch: PdvSalePatch & { state: PdvSaleState },
  postingKey: string | null | undefined,
  announce = true,
): Promise<PdvSaleRow | null> {
  const moved = await deps.sales.move(s.id, from, patch, postingKey);
  if (announce) await publish(deps, moved);
  return moved;
}

/** Whether a kiosk-channel event is this sale's (the PDV's long poll wakes on it). */
export const isEventOf = (payload: string, s: PdvSaleRow): boolean =>
  payload.includes(`"pdv":"${s.id}"`);

export const pdvSaleLife = {
  /** A new sale, as inserted (`aguardando`, or `lançando` when the PDV named a customer). */
  received: (deps: Deps, s: PdvSaleRow) => publish(deps, s),

  /** aguardando → lançando: the counter posts it under its own key. */
  takenByCounter: (deps: Deps, s: PdvSaleRow, key: string) =>
    move(
      deps,
      s,
      ['aguardando'],
      { state: 'lançando', postingKey: key, auto: false, message: pdvMessages.checking },
      null,
    ),

  /**
   * lançando → aguardando, its key dropped: known not posted (refused, the customer unknown,
   * the service unreachable, nothing journaled, or a sender that died before journaling).
   */
  backToCounter: (deps: Deps, s: PdvSaleRow, key: string | null, message: string) =>
    move(
      deps,
      s,
      ['lançando'],
      { state: 'aguardando', postingKey: null, auto: false, message },
      key,
    ),

  /** aguardando → no quiosque under the staged sale's key; published once staged. */
  reservedForKiosk: (deps: Deps, s: PdvSaleRow, key: string) =>
    move(
      deps,
      s,
      ['aguardando'],
      { state: 'no quiosque', postingKey: key, message: pdvMessages.atKiosk },
      null,
      false,
    ),

  /** The kiosk staged the reserved sale: now the counter sees it there. */
  staged: (deps: Deps, s: PdvSaleRow) => publish(deps, s),

  /** no quiosque → aguardando: the kiosk refused to stage it (never published as staged). */
  unreserved: (deps: Deps, s: PdvSaleRow, key: string) =>
    move(
      deps,
      s,
      ['no quiosque'],
      { state: 'aguardando', postingKey: null, message: pdvMessages.waiting },
      key,
      false,
    ),

  /** no quiosque → aguardando: known not posted there (cancelled, expired, refused). */
  backFromKiosk: (deps: Deps, s: PdvSaleRow, key: string, message: string | null) =>
    move(
      deps,
      s,
      ['no quiosque'],
      { state: 'aguardando', postingKey: null, message: message ?? pdvMessages.waiting },
      key,
    ),

  /** no quiosque → lançando: the customer claimed it at the kiosk, being posted. */
  postingAtKiosk: (deps: Deps, s: PdvSaleRow, key: string) =>
    move(deps, s, ['no quiosque'], { state: 'lançando', message: pdvMessages.checking }, key),

  /** → lançada: its journal entry is `lançado` (points, the customer's view, rewards won). */
  posted: (
    deps: Deps,
    s: PdvSaleRow,
    result: { points: number | null; customer: string | null; rewards: string | null },
  ) =>
    move(
      deps,
      s,
      ['lançando', 'no quiosque', 'aguardando'],
      { state: 'lançada', ...result, message: pdvMessages.posted },
      s.posting_key,
    ),

  /** aguardando → aguardando: its counter's customer display is busy; it waits at the counter. */
  displayBusy: (deps: Deps, s: PdvSaleRow) =>
    move(deps, s, ['aguardando'], { state: 'aguardando', message: pdvMessages.displayBusy }, null),

  /** aguardando / no quiosque → cancelada: the PDV voids it while nobody posted it. */
  cancelled: (deps: Deps, s: PdvSaleRow) =>
    move(
      deps,
      s,
      ['aguardando', 'no quiosque'],
      { state: 'cancelada', postingKey: null, message: pdvMessages.cancelled },
      undefined,
    ),

  /** aguardando past its time → não identificada (the sweep), each published. */
  async expired(deps: Deps): Promise<void> {
    for (const s of await deps.sales.expire()) await publish(deps, s);
  },
};
