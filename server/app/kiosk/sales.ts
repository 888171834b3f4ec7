/**
 * Sales staged for a kiosk: the counter (or the kiosk itself, with the attendant password)
 * puts an amount and basket on a kiosk; the customer claims it there with their phone.
 *
 * Each staged sale gets a server-generated UUID, which is also its journal Idempotency-Key:
 * the claim moves it from `aguardando` to `lançando` in one synchronous step (a second tap,
 * a reload or another kiosk finds it taken), and even a repeated submission of the key to the
 * journal posts nothing twice. The attendant password lives only here, in this process's
 * memory, until the sale is submitted, cancelled or expires; no view of a sale carries it.
 *
 * Updates are published on the store's `kiosk_events` channel (in process on SQLite,
 * PostgreSQL NOTIFY across replicas); the staged sales themselves live in the process that
 * staged them.
 */
import { randomUUID } from 'node:crypto';
import type { Store } from '../../store';
import type { KioskCustomer } from './view';

export const KIOSK_CHANNEL = 'kiosk_events';
/** A staged sale not claimed within this is void. */
export const STAGED_TTL_MS = 5 * 60_000;
/** Settled sales stay readable (counter follow-up) this long. */
const KEEP_SETTLED_MS = 30 * 60_000;

export type SaleState =
  'aguardando' | 'lançando' | 'lançado' | 'recusado' | 'desconhecido' | 'cancelado' | 'expirado';

export interface SaleItem {
  descricao?: string;
  qtde?: number;
  valor: number;
}

interface StagedSale {
  id: string;
  kioskId: number;
  /** The counter that staged it; null when staged on the kiosk itself. */
  counterId: number | null;
  valorGasto: number;
  itens: SaleItem[] | null;
  password: string | null;
  createdAt: number;
  expiresAt: number;
  state: SaleState;
  message: string | null;
  pontos: number | null;
  cliente: KioskCustomer | null;
  settledAt: number | null;
}

/** What a kiosk and a counter see of a staged sale (never the password). */
export interface SaleView {
  id: string;
  estado: SaleState;
  valor_gasto: number;
  itens: SaleItem[];
  criado_em: string;
  expira_em: string;
  mensagem: string | null;
  pontos: number | null;
  cliente: KioskCustomer | null;
  quiosque: number;
  balcao: number | null;
}

export function saleView(s: StagedSale): SaleView {
  return {
    id: s.id,
    estado: s.state,
    valor_gasto: s.valorGasto,
    itens: (s.itens ?? []).map((i) => ({
      ...(i.descricao === undefined ? {} : { descricao: i.descricao }),
      ...(i.qtde === undefined ? {} : { qtde: i.qtde }),
      valor: i.valor,
    })),
    criado_em: new Date(s.createdAt).toISOString(),
    expira_em: new Date(s.expiresAt).toISOString(),
    mensagem: s.message,
    pontos: s.pontos,
    cliente: s.cliente,
    quiosque: s.kioskId,
    balcao: s.counterId,
  };
}

const OPEN: readonly SaleState[] = ['aguardando', 'lançando'];

export const saleMessages = {
  cancelled: 'O caixa cancelou esta venda.',
  expired: 'O tempo para pontuar esta venda acabou.',
  taken: 'Esta venda já foi usada.',
  busyKiosk:
    'Este quiosque já tem uma venda aguardando o cliente. Cancele-a antes de enviar outra.',
} as const;

export interface StageInput {
  kioskId: number;
  counterId: number | null;
  valorGasto: number;
  itens: SaleItem[] | null;
  password: string;
}

export function createStagedSales(store: Store, ttlMs = STAGED_TTL_MS) {
  const sales = new Map<string, StagedSale>();

  function publish(s: StagedSale): void {
    const to = s.counterId === null ? [s.kioskId] : [s.kioskId, s.counterId];
    void store
      .notify(KIOSK_CHANNEL, JSON.stringify({ to, venda: saleView(s) }))
      .catch(() => undefined);
  }

  function update(s: StagedSale, patch: Partial<StagedSale>): StagedSale {
    Object.assign(s, patch);
    if (!OPEN.includes(s.state)) {
      s.password = null;
      s.settledAt ??= store.now();
    }
    publish(s);
    return s;
  }

  /** Expires what is due and forgets what settled long ago. */
  function sweep(): void {
    const now = store.now();
    for (const s of sales.values()) {
      if (s.state === 'aguardando' && now >= s.expiresAt) {
        update(s, { state: 'expirado', message: saleMessages.expired });
      } else if (s.settledAt !== null && now - s.settledAt > KEEP_SETTLED_MS) {
        sales.delete(s.id);
      }
    }
  }

  return {
    sweep,
    /** Stages a sale; one waiting sale per kiosk (the same counter's earlier one is replaced). */
    stage(input: StageInput): { ok: true; sale: StagedSale } | { ok: false; reason: 'busy' } {
      sweep();
      for (const s of sales.values()) {
        if (s.kioskId !== input.kioskId || s.state !== 'aguardando') continue;
        if (input.counterId === null || s.counterId !== input.counterId) {
          return { ok: false, reason: 'busy' };
        }
        update(s, { state: 'cancelado', message: saleMessages.cancelled });
      }
      const now = store.now();
      const sale: StagedSale = {
        id: randomUUID(),
        kioskId: input.kioskId,
        counterId: input.counterId,
        valorGasto: input.valorGasto,
        itens: input.itens,
        password: input.password,
        createdAt: now,
        expiresAt: now + ttlMs,
        state: 'aguardando',
        message: null,
        pontos: null,
        cliente: null,
        settledAt: null,
      };
      sales.set(sale.id, sale);
      publish(sale);
      return { ok: true, sale };
    },
    get(id: string): StagedSale | null {
      sweep();
      return sales.get(id) ?? null;
    },
    /** The kiosk's sale waiting for a customer or being posted, if any. */
    openFor(kioskId: number): StagedSale | null {
      sweep();
      let open: StagedSale | null = null;
      for (const s of sales.values()) {
        if (s.kioskId === kioskId && OPEN.includes(s.state)) open = s;
      }
      return open;
    },
    /**
     * The claim: `aguardando` → `lançando`, synchronously (no await between the check and the
     * change). Answers the password to submit with, or null when the sale is no longer free.
     */
    beginClaim(s: StagedSale): string | null {
      if (store.now() >= s.expiresAt && s.state === 'aguardando') sweep();
      if (s.state !== 'aguardando' || s.password === null) return null;
      const password = s.password;
      update(s, { state: 'lançando', message: null });
      // Submitted from here on: the journal holds the body; this copy is no longer needed.
      s.password = null;
      return password;
    },
    settle(s: StagedSale, patch: Pick<StagedSale, 'state'> & Partial<StagedSale>): StagedSale {
      return update(s, patch);
    },
    cancel(s: StagedSale): boolean {
      if (s.state !== 'aguardando') return false;
      update(s, { state: 'cancelado', message: saleMessages.cancelled });
      return true;
    },
    /** For tests: whether any staged sale still holds a password. */
    holdsPassword(id: string): boolean {
      return sales.get(id)?.password != null;
    },
  };
}

export type StagedSales = ReturnType<typeof createStagedSales>;
export type { StagedSale };
