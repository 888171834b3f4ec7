/**
 * Sales staged for a kiosk: the counter (or the kiosk itself, with the attendant password)
 * puts an amount and basket on a kiosk; the customer claims it there with their phone.
 *
 * Each staged sale gets a server-generated UUID, which is also its journal Idempotency-Key.
 * The sales live in the store every replica shares (`kiosk_sales`, see store/kiosk-sales.ts):
 * the claim moves one from `aguardando` to `lançando` in one conditional update (a second tap,
 * a reload, another kiosk or another replica finds it taken), and even a repeated submission
 * of the key to the journal posts nothing twice. The attendant password is kept sealed
 * (AES-GCM under a key from APP_SECRET, bound to the sale's id) until the sale is claimed,
 * cancelled or expires, then erased; no view of a sale carries it.
 *
 * Every change is published on the store's `kiosk_events` channel (in process on SQLite,
 * PostgreSQL NOTIFY across replicas) by the replica that made it.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type * as z from 'zod/mini';
import { createKioskSalesStore, KIOSK_SALE_CLOSED } from '../../../store';
import type { KioskSaleRow, Store } from '../../../store';
import { seal, unseal } from '../journal/sealed';
import type { SealKey } from '../journal/sealed';
import type {
  KioskCustomer,
  SaleItem,
  SaleState,
  StagedSale as SaleView,
} from '#contract/api/kiosk';

export const KIOSK_CHANNEL = 'kiosk_events';
/** A staged sale not claimed within this is void. */
export const STAGED_TTL_MS = 5 * 60_000;
/** Settled sales stay readable (counter follow-up) this long. */
const KEEP_SETTLED_MS = 30 * 60_000;

/** A staged sale as the store keeps it (the attendant password only sealed). */
type StagedSale = KioskSaleRow;

/** What a kiosk and a counter see of a staged sale (never the password): the contract's. */
export function saleView(s: StagedSale): z.input<typeof SaleView> {
  const itens = s.items === null ? [] : (JSON.parse(s.items) as SaleItem[]);
  return {
    id: s.id,
    estado: s.state as SaleState,
    valor_gasto: s.amount,
    itens: itens.map((i) => ({
      ...(i.descricao === undefined ? {} : { descricao: i.descricao }),
      ...(i.qtde === undefined ? {} : { qtde: i.qtde }),
      valor: i.valor,
    })),
    criado_em: new Date(s.created_at).toISOString(),
    expira_em: new Date(s.expires_at).toISOString(),
    mensagem: s.message,
    pontos: s.points,
    cliente: s.customer === null ? null : (JSON.parse(s.customer) as KioskCustomer),
    quiosque: s.kiosk_id,
    balcao: s.counter_id,
  };
}

export const saleMessages = {
  cancelled: KIOSK_SALE_CLOSED.cancelado,
  expired: KIOSK_SALE_CLOSED.expirado,
  unknown: KIOSK_SALE_CLOSED.desconhecido,
  taken: 'Esta venda já foi usada.',
  busyKiosk:
    'Este quiosque já tem uma venda aguardando o cliente. Cancele-a antes de enviar outra.',
} as const;

export interface StageInput {
  /** The sale's id (a PDV sale passed to the kiosk names its own); default a new UUID. */
  id?: string;
  kioskId: number;
  counterId: number | null;
  valorGasto: number;
  itens: readonly SaleItem[] | null;
  password: string;
}

export interface StagedSalesOptions {
  /** Seals the attendant password at rest (from APP_SECRET, see postings/sealed.ts). */
  sealKey: SealKey;
  ttlMs?: number;
}

/** The parts of a settlement the routes set (the customer as the kiosk sees it). */
export interface SalePatch {
  state: SaleState;
  message?: string | null;
  pontos?: number | null;
  cliente?: z.input<typeof KioskCustomer> | null;
}

export function createStagedSales(store: Store, options: StagedSalesOptions) {
  const rows = createKioskSalesStore(store);
  const ttlMs = options.ttlMs ?? STAGED_TTL_MS;

  async function publish(s: StagedSale | null): Promise<StagedSale | null> {
    if (s === null) return null;
    const to = s.counter_id === null ? [s.kiosk_id] : [s.kiosk_id, s.counter_id];
    await store
      .notify(KIOSK_CHANNEL, JSON.stringify({ to, venda: saleView(s) }))
      .catch(() => undefined);
    return s;
  }

  /** A claimed sale's outcome; answers the row as it now is. */
  async function settle(s: StagedSale, patch: SalePatch): Promise<StagedSale> {
    const row = await rows.settle(s.id, {
      state: patch.state,
      ...(patch.message === undefined ? {} : { message: patch.message }),
      ...(patch.pontos === undefined ? {} : { points: patch.pontos }),
      ...(patch.cliente === undefined
        ? {}
        : { customer: patch.cliente === null ? null : JSON.stringify(patch.cliente) }),
    });
    return (await publish(row)) ?? (await rows.get(s.id)) ?? s;
  }

  /** Expires what is due (each expiry published once, by the replica that made it). */
  async function sweep(): Promise<void> {
    for (const s of await rows.sweep(KEEP_SETTLED_MS)) await publish(s);
  }

  return {
    sweep,
    /** Stages a sale; one waiting sale per kiosk (the same counter's earlier one is replaced). */
    async stage(
      input: StageInput,
    ): Promise<{ ok: true; sale: StagedSale } | { ok: false; reason: 'busy' }> {
      const id = input.id ?? randomUUID();
      const staged = await rows.stage({
        id,
        kioskId: input.kioskId,
        counterId: input.counterId,
        amount: input.valorGasto,
        items: input.itens === null ? null : JSON.stringify(input.itens),
        secret: seal(options.sealKey, input.password, id),
        ttlMs,
      });
      if (!staged.ok) return staged;
      for (const r of staged.replaced) await publish(r);
      await publish(staged.sale);
      return { ok: true, sale: staged.sale };
    },
    async get(id: string): Promise<StagedSale | null> {
      await sweep();
      return rows.get(id);
    },
    /** The kiosk's sale waiting for a customer or being posted, if any. */
    openFor(kioskId: number): Promise<StagedSale | null> {
      return rows.openFor(kioskId);
    },
    /**
     * The claim: `aguardando` → `lançando` in one conditional update of the shared row, so
     * one claim wins across taps, kiosks and replicas. Answers the password to submit with
     * (the stored copy is erased by the same update) and the row, or null when not free.
     */
    async beginClaim(s: StagedSale): Promise<{ password: string; sale: StagedSale } | null> {
      const claimed = await rows.claim(s.id);
      if (claimed === null) {
        await sweep();
        return null;
      }
      const password = unseal(options.sealKey, claimed.secret, s.id);
      await publish(claimed.sale);
      if (password === null) {
        // Sealed under another APP_SECRET (a replica misconfigured): nothing can be posted.
        await settle(s, {
          state: 'recusado',
          message: 'Não foi possível usar a senha do atendente. Chame o caixa.',
        });
        return null;
      }
      return { password, sale: claimed.sale };
    },
    settle,
    /** Cancels a waiting sale; null when it is no longer waiting. */
    async cancel(s: StagedSale): Promise<StagedSale | null> {
      return publish(await rows.cancel(s.id));
    },
    /** For tests: whether the store still holds the sale's (sealed) password. */
    async holdsPassword(id: string): Promise<boolean> {
      return ((await rows.get(id))?.secret ?? null) !== null;
    },
  };
}

export type StagedSales = ReturnType<typeof createStagedSales>;
export type { StagedSale };

/** One sweeper per shared store: the sweep is not a store's own (see startSweeper). */
const sweepers = new WeakMap<Store, { members: Set<SweepMember>; stop: () => void }>();
interface SweepMember {
  sales: StagedSales;
  logger?: Logger;
}

/**
 * Expires due sales every `everyMs` in the background; answers the function that stops it.
 * The sweep covers every kiosk of the shared store and publishes on its channel, whichever
 * store's app runs it: a chain's stores in one process share one sweeper instead of each
 * repeating the same statements every second.
 */
export function startSweeper(
  deps: { store: Store; sales: StagedSales; logger?: Logger },
  everyMs = 1_000,
): () => void {
  let shared = sweepers.get(deps.store);
  if (shared === undefined) {
    const members = new Set<SweepMember>();
    let running = false;
    const timer = setInterval(() => {
      const member = members.values().next().value;
      if (member === undefined || running) return;
      running = true;
      member.sales
        .sweep()
        .catch((err: unknown) =>
          member.logger?.warn({ err: String(err) }, 'kiosk sales sweep failed'),
        )
        .finally(() => (running = false));
    }, everyMs);
    timer.unref?.();
    shared = { members, stop: () => clearInterval(timer) };
    sweepers.set(deps.store, shared);
  }
  const member: SweepMember = { sales: deps.sales, logger: deps.logger };
  const { members, stop } = shared;
  members.add(member);
  return () => {
    members.delete(member);
    if (members.size > 0) return;
    stop();
    sweepers.delete(deps.store);
  };
}

/**
 * Follows the changes of `terminalId`'s staged sales on the store's channel (every replica's):
 * `onSale` gets each changed sale's view as JSON. Answers the function that stops listening.
 */
export function listenSales(
  store: Store,
  terminalId: number,
  onSale: (json: string, event?: string) => void,
): Promise<() => Promise<void>> {
  return store.listen(KIOSK_CHANNEL, (payload) => {
    try {
      // `evento`: another kind of sale on the same channel (the PDV's, `venda_pdv`).
      const msg = JSON.parse(payload) as { to: number[]; venda: unknown; evento?: string };
      if (msg.to.includes(terminalId)) onSale(JSON.stringify(msg.venda), msg.evento);
    } catch {
      // not ours
    }
  });
}
