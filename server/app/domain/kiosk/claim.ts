/**
 * A customer claims a staged sale at the kiosk with their phone: the sale is taken in one
 * conditional update (sales.ts), then posted through the journal with the sale's id as its
 * Idempotency-Key, followed until the journal settles it, and the staged sale settled with
 * the outcome (points, the customer's view, or why it was not posted).
 */
import { randomUUID } from 'node:crypto';
import type { JournalEntry } from '../../../store';
import { backoffMs } from '../journal/backoff';
import { pontuarBody } from '../journal/pontuar-body';
import { envelopeMessage } from '../journal/readings';
import type { PostingService } from '../journal/service';
import { logConsent, readCustomer } from './customer';
import type { KioskDeps } from './deps';
import { ServiceUnavailable } from './service';
import { saleMessages } from './sales';
import type { StagedSale } from './sales';

export interface ClaimRequest {
  kioskId: number;
  saleId: string;
  celular: string;
  nome?: string | undefined;
  consent: boolean;
}

export type ClaimOutcome =
  | { kind: 'not-found' }
  | { kind: 'taken'; sale: StagedSale }
  | { kind: 'needs-consent' }
  | { kind: 'unavailable' }
  | { kind: 'done'; sale: StagedSale };

/** How long a claim whose posting is being verified is followed in the background. */
const FOLLOW_MS = 15 * 60_000;

const settled = {
  posted: 'Pontos lançados.',
  checking: 'Conferindo o lançamento…',
  notPosted: 'Não lançado. Chame o caixa.',
  failed: 'Não foi possível confirmar o lançamento. Chame o caixa.',
  kept: 'Serviço indisponível: a compra foi guardada e será lançada quando o serviço voltar.',
} as const;

/** The claim of one kiosk's waiting sale; a new customer's consent registers them with it. */
export async function claimSale(deps: KioskDeps, request: ClaimRequest): Promise<ClaimOutcome> {
  const s = await deps.sales.get(request.saleId);
  if (s === null || s.kiosk_id !== request.kioskId) return { kind: 'not-found' };
  if (s.state !== 'aguardando') return { kind: 'taken', sale: s };
  let existing: Record<string, unknown> | null;
  try {
    existing = await deps.service.find(request.celular);
  } catch (err) {
    if (err instanceof ServiceUnavailable) return { kind: 'unavailable' };
    throw err;
  }
  if (existing === null && !request.consent) return { kind: 'needs-consent' };
  const claimed = await deps.sales.beginClaim(s);
  if (claimed === null) return { kind: 'taken', sale: (await deps.sales.get(s.id)) ?? s };
  if (existing === null) logConsent(deps, request.kioskId);
  const sale = await postClaimed(deps, {
    sale: claimed.sale,
    password: claimed.password,
    celular: request.celular,
    nome: existing === null ? request.nome : undefined,
  });
  return { kind: 'done', sale };
}

/** The message of the service's refusal, for the customer at the kiosk. */
const refusalMessage = (body: string): string => envelopeMessage(body) || settled.notPosted;

interface Claimed {
  sale: StagedSale;
  password: string;
  celular: string;
  nome?: string | undefined;
}

/** Posts a claimed sale through the journal (its id is the Idempotency-Key) and follows it. */
async function postClaimed(deps: KioskDeps, claimed: Claimed): Promise<StagedSale> {
  const { sale: s, password, celular, nome } = claimed;
  let result: Awaited<ReturnType<PostingService['submit']>>;
  try {
    result = await deps.postings.submit({
      key: s.id,
      terminalId: String(s.counter_id ?? s.kiosk_id),
      requestId: randomUUID(),
      body: pontuarBody(s, password, { celular, ...(nome ? { nome } : {}) }),
    });
  } catch (err) {
    deps.logger?.error({ sale: s.id, err: String(err) }, 'kiosk posting failed');
    return deps.sales.settle(s, { state: 'desconhecido', message: settled.failed });
  }
  if (result.kind === 'invalid' || result.kind === 'full') {
    return deps.sales.settle(s, { state: 'recusado', message: result.message });
  }
  if (result.kind === 'refused') {
    return deps.sales.settle(s, { state: 'recusado', message: refusalMessage(result.body) });
  }
  return follow(deps, s, result.entry, celular);
}

const undecided = (e: JournalEntry) =>
  e.state === 'enviando' || e.state === 'verificando' || e.state === 'desconhecido';

/** Settles a decided entry now; an undecided one is followed in the background. */
async function follow(
  deps: KioskDeps,
  s: StagedSale,
  entry: JournalEntry,
  celular: string,
): Promise<StagedSale> {
  if (entry.state === 'lançado' || entry.state === 'recusado') {
    return settleFrom(deps, s, entry, celular);
  }
  // Not settled yet (lost answer being verified): keep following in the background.
  const checking = await deps.sales.settle(s, { state: 'lançando', message: settled.checking });
  void followInBackground(deps, s, entry, celular).catch((err: unknown) =>
    deps.logger?.error({ sale: s.id, err: String(err) }, 'kiosk follow failed'),
  );
  return checking;
}

async function followInBackground(
  deps: KioskDeps,
  s: StagedSale,
  entry: JournalEntry,
  celular: string,
): Promise<void> {
  const until = deps.store.now() + FOLLOW_MS;
  let e = entry;
  for (let turn = 1; undecided(e) && deps.store.now() < until; turn += 1) {
    const next = await deps.postings.wait(s.id).catch(() => null);
    if (next !== null) e = next;
    // Not decided yet (or not readable): asked again later, less often each time.
    if (next === null || e.state === 'desconhecido') {
      await new Promise((r) => setTimeout(r, backoffMs(turn, 2_000, 30_000)));
    }
  }
  await settleFrom(deps, s, e, celular);
}

/** The staged sale settled as the journal's entry ended. */
async function settleFrom(
  deps: KioskDeps,
  s: StagedSale,
  entry: JournalEntry,
  celular: string,
): Promise<StagedSale> {
  if (entry.state === 'lançado') {
    // The answer's balance delta misses points a reward consumed: the new credit tells.
    const after = await readCustomer(deps, celular).catch(() => null);
    return deps.sales.settle(s, {
      state: 'lançado',
      pontos: after?.lastCredit ?? entry.points,
      cliente: after?.view ?? null,
      message: settled.posted,
    });
  }
  if (entry.state === 'recusado') {
    return deps.sales.settle(s, { state: 'recusado', message: entry.reason ?? settled.notPosted });
  }
  if (entry.body !== null && entry.state === 'aguardando envio') {
    // Contingency: kept by the journal, delivered when the service returns.
    return deps.sales.settle(s, { state: 'desconhecido', message: settled.kept });
  }
  return deps.sales.settle(s, { state: 'desconhecido', message: saleMessages.unknown });
}
