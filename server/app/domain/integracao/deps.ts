/**
 * What the integration's domain functions work over: the store, its PDV sales, the postings
 * journal (every posting goes through it, exactly once), the service's reads of a customer,
 * the kiosk's staging (F7) and the settings.
 */
import { createHmac } from 'node:crypto';
import type { Logger } from 'pino';
import type * as z from 'zod/mini';
import type { PdvSale as PdvSaleWire } from '#contract/api/integracao';
import type { KioskCustomer, SaleItem } from '#contract/api/kiosk';
import { createPdvSalesStore } from '../../../store';
import type { PdvSaleRow, PdvSalesStore, Store, StoreScope } from '../../../store';
import type { PostingService } from '../journal/service';
import type { KioskDeps } from '../kiosk/deps';
import type { KioskService } from '../kiosk/service';
import type { SweepGate } from '../sweep-gate';

/** A sale nobody identifies is `não identificada` after this (PDV_VENDA_EXPIRA_MIN). */
export const PDV_EXPIRY_DEFAULT_MS = 10 * 60_000;

export interface PdvSetup {
  store: Store;
  postings: Pick<PostingService, 'submit' | 'get' | 'wait'>;
  service: Pick<KioskService, 'find' | 'findCpf' | 'pendingRewards'>;
  /** The kiosk's deps: F7 stages a PDV sale there. */
  kiosk: KioskDeps;
  /** APP_SECRET: keys the fingerprint of a request (its CPF or phone is never stored). */
  secret: string;
  /** The attendant password of the PDV's own postings; null: known customers wait too. */
  password: string | null;
  expiryMs?: number;
  logger?: Logger;
  /** The store whose PDV sales these are (a chain's); absent: every sale in the store. */
  scope?: StoreScope | null;
  /**
   * The PDV cancelled a sale already posted (answered 409): Vigilância records it once as
   * "estorno após pontuação". Absent: nothing recorded.
   */
  onPostedCancel?: ((sale: PdvSaleRow) => Promise<unknown>) | null;
  /** A chain's gate of the periodic sweep (see domain/sweep-gate.ts); null: every tick. */
  sweepGate?: SweepGate | null;
}

export interface PdvDeps extends Omit<PdvSetup, 'expiryMs'> {
  sales: PdvSalesStore;
  expiryMs: number;
}

export function createPdvDeps(setup: PdvSetup): PdvDeps {
  return {
    ...setup,
    sales: createPdvSalesStore(setup.store, setup.scope),
    expiryMs: setup.expiryMs ?? PDV_EXPIRY_DEFAULT_MS,
  };
}

export type PdvView = z.input<typeof PdvSaleWire>;

/** What the PDV and the counter see of a sale (never a CPF or a full phone). */
export function pdvView(s: PdvSaleRow): PdvView {
  const itens = s.items === null ? [] : (JSON.parse(s.items) as SaleItem[]);
  return {
    id: s.id,
    id_venda: s.sale_id,
    estado: s.state as PdvView['estado'],
    valor_gasto: s.amount,
    itens,
    quantidade_itens: itens.reduce((n, i) => n + (i.qtde ?? 1), 0),
    criado_em: new Date(s.created_at).toISOString(),
    expira_em: new Date(s.expires_at).toISOString(),
    pontos: s.points,
    premios: s.rewards === null ? [] : (JSON.parse(s.rewards) as PdvView['premios']),
    cliente: s.customer === null ? null : (JSON.parse(s.customer) as z.input<typeof KioskCustomer>),
    mensagem: s.message,
    automatica: s.auto === 1,
    balcao: s.counter_id,
    lancamento: s.state === 'no quiosque' ? null : s.posting_key,
  };
}

/** The request's fingerprint: an HMAC of its canonical JSON (keys sorted, CPF as digits). */
export function fingerprintOf(secret: string, body: Record<string, unknown>): string {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canonical)
      : v !== null && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .filter((k) => (v as Record<string, unknown>)[k] != null)
              .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
          )
        : v;
  return createHmac('sha256', secret)
    .update('pdv-venda\0')
    .update(JSON.stringify(canonical(body)))
    .digest('hex');
}
