// The shift ledger: the postings of a day, from the app server's journal. A cashier's terminal
// reads its own; a manager's every terminal's, or one (the server decides, by the terminal's
// role, and lists the terminals only to a manager).
import { serverRequest } from '@/api/client';
import {
  Lancamento,
  Ledger,
  type LedgerQuery as LedgerParams,
  type ResendBody,
} from '#contract/api/postings';

export type LedgerEntry = Ledger['lancamentos'][number];

export interface LedgerQuery {
  /** The day, `YYYY-MM-DD`, in this terminal's timezone. */
  day: string;
  /** One terminal's id; null: what the role sees (a cashier its own, a manager every one). */
  terminal: string | null;
}

/** The ledger's query on the wire: the local day's period and the terminal, if one. */
export function ledgerParams(q: LedgerQuery): LedgerParams {
  const [year, month, date] = q.day.split('-').map(Number) as [number, number, number];
  const from = new Date(year, month - 1, date);
  const to = new Date(year, month - 1, date + 1);
  return {
    de: from.toISOString(),
    ate: to.toISOString(),
    ...(q.terminal === null ? {} : { terminal: q.terminal }),
  };
}

/** The day's postings (newest first, unsettled ones of earlier days on top). */
export function fetchLedger(q: LedgerQuery, signal?: AbortSignal): Promise<Ledger> {
  return serverRequest({
    method: 'GET',
    path: '/api/lancamentos',
    query: ledgerParams(q),
    schema: Ledger,
    signal,
  });
}

/**
 * A manager's decision on a kept sale the service refused at delivery ("precisa de atenção"):
 * send it again with the corrected attendant password, or discard it (nothing is posted).
 */
export function decideKept(
  chave: string,
  decision: { resend: string } | 'discard',
  signal?: AbortSignal,
): Promise<Lancamento> {
  const action = decision === 'discard' ? 'descartar' : 'reenviar';
  const resend: ResendBody | null =
    decision === 'discard' ? null : { senha_atendente: decision.resend };
  return serverRequest({
    method: 'POST',
    path: `/api/lancamentos/${encodeURIComponent(chave)}/${action}`,
    body: resend ?? {},
    schema: Lancamento,
    signal,
  });
}
