// The PDV's sales as the counter sees them (`GET /api/integracao/balcao/vendas`): the ones
// waiting for this counter, the period's identification counts and its unidentified sales.
// Posting one goes through postPoints (its `pdv` option), with the posting flow's journal key.
import { serverRequest } from '@/api/client';
import { PdvCounterAnswer } from '#contract/api/integracao';

export interface PdvListQuery {
  /** The period as ISO instants; by default (both absent) today in São Paulo. */
  de?: string;
  ate?: string;
  /** One counter's id (a manager); a cashier sees its own. */
  terminal?: string;
}

export function fetchPdvSales(query: PdvListQuery = {}, signal?: AbortSignal) {
  return serverRequest({
    method: 'GET',
    path: '/api/integracao/balcao/vendas',
    query: { ...query },
    schema: PdvCounterAnswer,
    signal,
  });
}

/** "Pontuadas 14 de 20 vendas do PDV" (null before the first sale of the period). */
export function pdvSummaryText(r: { pontuadas: number; total: number }): string | null {
  return r.total > 0 ? `Pontuadas ${r.pontuadas} de ${r.total} vendas do PDV` : null;
}
