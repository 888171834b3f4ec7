/**
 * The PDV's side: a sale arrives (idempotent on its `id_venda`), is posted at once when the
 * PDV named a customer already registered, or waits for the counter; the PDV reads it (a
 * bounded long poll) and cancels it while nobody posted it.
 *
 * A known customer's posting goes through the journal with the sale's `posting_key`, chosen
 * when the sale is inserted: a resend of the same sale (after a crash of this process too)
 * submits the same key again, and the journal posts nothing twice. An unknown CPF or phone is
 * never registered from here (the customer has not consented): the sale waits at the counter.
 */
import { randomUUID } from 'node:crypto';
import type { PdvSaleRequest } from '#contract/api/integracao';
import type { PdvSaleRow, Terminal } from '../../../store';
import { pontuarBody } from '../journal/pontuar-body';
import { KIOSK_CHANNEL } from '../kiosk/sales';
import { ServiceUnavailable } from '../kiosk/service';
import type { PdvDeps } from './deps';
import { fingerprintOf } from './deps';
import { toDisplay } from './display';
import { isEventOf, PDV_SALE_FINAL, pdvMessages, pdvSaleLife } from './pdv-sale';
import { refresh } from './settle';

type Request = {
  id_venda: string;
  valor_gasto: number;
  itens?: PdvSaleRequest['itens'];
  cpf?: string | null | undefined;
  celular?: string | null | undefined;
};

export type ReceiveOutcome =
  { kind: 'created' | 'same'; sale: PdvSaleRow } | { kind: 'conflict'; sale: PdvSaleRow };

/** Receives a sale of `pdv` (an `integracao` terminal). */
export async function receiveSale(
  deps: PdvDeps,
  pdv: Terminal,
  body: Request,
): Promise<ReceiveOutcome> {
  const cpf = body.cpf ? body.cpf.replace(/\D/g, '') : null;
  const celular = body.celular ?? null;
  const canonical = { ...body, cpf, celular, itens: body.itens ?? null };
  const fingerprint = fingerprintOf(deps.secret, canonical);
  const identified = (cpf !== null || celular !== null) && deps.password !== null;
  const { created, sale } = await deps.sales.insert({
    id: randomUUID(),
    terminalId: pdv.id,
    counterId: pdv.counterId,
    saleId: body.id_venda,
    fingerprint,
    amount: body.valor_gasto,
    items: body.itens == null ? null : JSON.stringify(body.itens),
    // Named a customer: being posted until the lookup says otherwise (a crash before then
    // leaves it `lançando` with a key the journal never saw: the sweep gives it back).
    state: identified ? 'lançando' : 'aguardando',
    postingKey: identified ? randomUUID() : null,
    expiresAt: deps.store.now() + deps.expiryMs,
  });
  if (!created && sale.fingerprint !== fingerprint) return { kind: 'conflict', sale };
  if (created) await pdvSaleLife.received(deps, sale);
  // A resend of a sale whose posting was never journaled (this process died first) goes on.
  const resumable =
    identified &&
    sale.state === 'lançando' &&
    sale.auto === 1 &&
    sale.posting_key !== null &&
    (created || (await deps.postings.get(sale.posting_key)) === null);
  let now = resumable ? await postKnown(deps, sale, { cpf, celular }) : await refresh(deps, sale);
  // A new sale left for a person: straight to the counter's customer display, when it has one.
  if (created) now = await toDisplay(deps, now);
  return { kind: created ? 'created' : 'same', sale: now };
}

/** The customer's phone when the service has them (by phone, else CPF); null when unknown. */
async function knownPhone(
  deps: PdvDeps,
  key: { cpf: string | null; celular: string | null },
): Promise<string | null> {
  const data =
    key.celular !== null
      ? await deps.service.find(key.celular)
      : await deps.service.findCpf(key.cpf!);
  const phone = data?.celular;
  return typeof phone === 'string' && phone !== '' ? phone : null;
}

/** Back to the counter (unknown customer, service unreachable, a refusal). */
async function toCounter(deps: PdvDeps, s: PdvSaleRow, message: string): Promise<PdvSaleRow> {
  const moved = await pdvSaleLife.backToCounter(deps, s, s.posting_key, message);
  return moved ?? (await deps.sales.get(s.id)) ?? s;
}

/** Posts a sale whose PDV named a customer, when registered; otherwise it waits. */
async function postKnown(
  deps: PdvDeps,
  s: PdvSaleRow,
  key: { cpf: string | null; celular: string | null },
): Promise<PdvSaleRow> {
  let phone: string | null;
  try {
    phone = await knownPhone(deps, key);
  } catch (err) {
    if (!(err instanceof ServiceUnavailable)) throw err;
    return toCounter(deps, s, pdvMessages.waiting);
  }
  if (phone === null) return toCounter(deps, s, pdvMessages.unknownCustomer);
  const result = await deps.postings.submit({
    key: s.posting_key!,
    terminalId: s.counter_id === null ? null : String(s.counter_id),
    requestId: randomUUID(),
    body: pontuarBody(s, deps.password, { celular: phone }),
  });
  if (result.kind !== 'entry') {
    const message = result.kind === 'refused' ? pdvMessages.notPosted : result.message;
    return toCounter(deps, s, message);
  }
  return refresh(deps, s);
}

/** The PDV's sale by its own id, brought up to date; null when this PDV has none. */
export async function pdvSale(
  deps: PdvDeps,
  pdv: Terminal,
  saleId: string,
): Promise<PdvSaleRow | null> {
  const s = await deps.sales.bySaleId(pdv.id, saleId);
  return s === undefined ? null : refresh(deps, s);
}

/**
 * The sale once it changes from `seen` (its state when asked) or ends, waiting at most
 * `waitMs`: woken by the sale's own notifications (any replica's), checked every half second
 * for what it follows (the journal's entry, a kiosk's sale).
 */
export async function waitSale(deps: PdvDeps, s: PdvSaleRow, waitMs: number): Promise<PdvSaleRow> {
  const until = deps.store.now() + waitMs;
  let wake: (() => void) | null = null;
  const unlisten = await deps.store.listen(KIOSK_CHANNEL, (payload) => {
    if (isEventOf(payload, s)) wake?.();
  });
  try {
    let now = s;
    while (!PDV_SALE_FINAL.has(now.state) && now.state === s.state && deps.store.now() < until) {
      const left = until - deps.store.now();
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.min(500, Math.max(0, left)));
        wake = () => {
          clearTimeout(t);
          resolve();
        };
      });
      wake = null;
      const read = await deps.sales.get(s.id);
      if (read === null) break;
      now = await refresh(deps, read);
    }
    return now;
  } finally {
    await unlisten();
  }
}

/** Voids a sale not yet posted; when it can no longer be, the sale as it is. */
export async function cancelPdvSale(
  deps: PdvDeps,
  s: PdvSaleRow,
): Promise<{ ok: boolean; sale: PdvSaleRow }> {
  if (s.state === 'no quiosque' && s.posting_key !== null) {
    const k = await deps.kiosk.sales.get(s.posting_key);
    if (k !== null && k.state === 'aguardando' && (await deps.kiosk.sales.cancel(k)) === null) {
      return { ok: false, sale: await refresh(deps, s) };
    }
  }
  const cancelled = await pdvSaleLife.cancelled(deps, s);
  if (cancelled === null) {
    const now = await refresh(deps, (await deps.sales.get(s.id)) ?? s);
    // Posted already: the points stay (v4 has no reversal); a manager is told what to reverse.
    if (now.state === 'lançada' && deps.onPostedCancel) {
      await deps
        .onPostedCancel(now)
        .catch((err: unknown) =>
          deps.logger?.warn(
            { err: String(err), venda: now.id },
            'estorno após pontuação não registrado',
          ),
        );
    }
    return { ok: false, sale: now };
  }
  return { ok: true, sale: cancelled };
}
