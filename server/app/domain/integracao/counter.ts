/**
 * The counter's side of the PDV's sales: the ones waiting and the period's counts, posting one
 * for the customer the cashier found (the PDV's amount and basket, the cashier's password),
 * and passing one to a kiosk (F7), where the customer claims it.
 */
import { pontuarBody } from '../journal/pontuar-body';
import type { SubmitResult } from '../journal/submit';
import type { PdvSaleRow, Terminal } from '../../../store';
import { DAY_MS, localDate, startOfLocalDay } from '#contract/rules/time';
import { stageSale } from '../kiosk/stage';
import type { StageOutcome, StageRequest } from '../kiosk/stage';
import type { PdvDeps } from './deps';
import { pdvMessages, pdvSaleLife } from './pdv-sale';
import { refresh } from './settle';

/** A caixa sees its own PDV's sales; a gerente every counter's. */
export async function counterPdvSale(
  deps: PdvDeps,
  viewer: Pick<Terminal, 'id' | 'role'>,
  id: string,
): Promise<PdvSaleRow | null> {
  const s = await deps.sales.get(id);
  if (s === null) return null;
  if (viewer.role !== 'gerente' && s.counter_id !== viewer.id) return null;
  return refresh(deps, s);
}

export type CounterPostOutcome =
  | { kind: 'busy'; sale: PdvSaleRow }
  | { kind: 'submitted'; result: SubmitResult; sale: PdvSaleRow };

/**
 * Posts a waiting sale with the counter's `Idempotency-Key`: the sale moves `aguardando` →
 * `lançando` with that key in one conditional update (so neither the kiosk, the PDV's cancel
 * nor another counter can take it meanwhile), then the journal posts it. The same key again
 * (a lost answer) submits again and the journal answers what it did; another key while it is
 * being posted is refused.
 */
export async function postAtCounter(
  deps: PdvDeps,
  s: PdvSaleRow,
  request: { key: string; terminalId: number; cliente: Record<string, unknown>; senha: string },
): Promise<CounterPostOutcome> {
  const key = request.key.trim().toLowerCase();
  if (s.posting_key !== key) {
    const taken = await pdvSaleLife.takenByCounter(deps, s, key);
    if (taken === null) return { kind: 'busy', sale: await refresh(deps, s) };
    s = taken;
  }
  const result = await deps.postings.submit({
    key,
    terminalId: String(request.terminalId),
    requestId: null,
    body: pontuarBody(s, request.senha, request.cliente),
    counter: true,
  });
  if (result.kind !== 'entry') {
    // Nothing journaled: back to waiting, for another try.
    const back = await pdvSaleLife.backToCounter(deps, s, key, pdvMessages.waiting);
    return { kind: 'submitted', result, sale: back ?? s };
  }
  // The answer leaves now: the sale follows the posting (its customer read for the PDV's
  // display) in the background, as the PDV's sweep would a second later.
  void refresh(deps, s).catch((err: unknown) =>
    deps.logger?.warn({ sale: s.id, err: String(err) }, 'pdv sale not followed'),
  );
  return { kind: 'submitted', result, sale: s };
}

export type ToKioskOutcome =
  | { kind: 'busy'; sale: PdvSaleRow }
  | { kind: 'staged'; sale: PdvSaleRow; staged: Extract<StageOutcome, { ok: true }>['sale'] }
  | { kind: 'refused'; outcome: Exclude<StageOutcome, { ok: true }> };

/**
 * F7: the waiting sale staged on a kiosk (its staged sale's id is the posting's key). The
 * cashier's password is checked under the terminal's lockout; `trusted`: the server's own
 * PDV_SENHA_ATENDENTE (a customer display, see display.ts) is not a guess to count, and a
 * wrong one shows as the claim's refusal, as the PDV's own postings do.
 */
export async function toKiosk(
  deps: PdvDeps,
  s: PdvSaleRow,
  request: { terminalId: number; kioskId: number; senha: string; trusted?: boolean },
): Promise<ToKioskOutcome> {
  if (s.state !== 'aguardando') return { kind: 'busy', sale: s };
  const key = crypto.randomUUID();
  const taken = await pdvSaleLife.reservedForKiosk(deps, s, key);
  if (taken === null) return { kind: 'busy', sale: await refresh(deps, s) };
  const stage: StageRequest = {
    id: key,
    terminalId: request.terminalId,
    kioskId: request.kioskId,
    counterId: request.terminalId,
    valorGasto: s.amount,
    itens: s.items === null ? null : JSON.parse(s.items),
    senha: request.senha,
  };
  const staged: StageOutcome = request.trusted
    ? await deps.kiosk.sales
        .stage({ ...stage, password: stage.senha })
        .then((r) => (r.ok ? r : { ok: false as const, reason: 'busy' as const }))
    : await stageSale(deps.kiosk, stage);
  if (!staged.ok) {
    await pdvSaleLife.unreserved(deps, s, key);
    return { kind: 'refused', outcome: staged };
  }
  await pdvSaleLife.staged(deps, taken);
  return { kind: 'staged', sale: taken, staged: staged.sale };
}

export interface PdvSummaryCounts {
  total: number;
  pontuadas: number;
  nao_identificadas: number;
  em_aberto: number;
  canceladas: number;
}

/** The identification counts of a list of sales. */
export function summarise(rows: readonly PdvSaleRow[]): PdvSummaryCounts {
  const count = (states: string[]) => rows.filter((r) => states.includes(r.state)).length;
  const canceladas = count(['cancelada']);
  return {
    total: rows.length - canceladas,
    pontuadas: count(['lançada']),
    nao_identificadas: count(['não identificada']),
    em_aberto: count(['aguardando', 'no quiosque', 'lançando']),
    canceladas,
  };
}

/** The counter's view: what waits for it, the period's counts and the unidentified sales. */
export async function counterOverview(
  deps: PdvDeps,
  filter: { counterId: number | null; from: number; to: number },
): Promise<{ waiting: PdvSaleRow[]; period: PdvSaleRow[] }> {
  const waiting = await Promise.all(
    (await deps.sales.waiting(filter.counterId)).map((s) => refresh(deps, s)),
  );
  const period = await deps.sales.list(filter);
  return { waiting: waiting.filter((s) => s.state !== 'lançada'), period };
}

/** [from, to) of a period given as ISO instants; by default today in São Paulo. */
export function periodOf(now: number, de?: string, ate?: string): { from: number; to: number } {
  const from = de === undefined ? startOfLocalDay(localDate(now)) : Date.parse(de);
  const to = ate === undefined ? from + DAY_MS : Date.parse(ate);
  return { from, to };
}
