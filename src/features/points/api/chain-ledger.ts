// The shift ledger as a manager screen reads it (`/lancamentos`): a store's gerente its own
// store's, a rede one store's (`X-Loja`) or every store's (`GET /api/rede/lancamentos`, each
// posting naming its store). The rede's CSV is read from the chain's export route, which
// records the export in the trail of each store whose postings it carries. Only the screen's
// lazy chunk imports it.
import { serverRequest } from '@/api/client';
import { listAt, storeHeaders, type ListScope } from '@/api/rede';
import { Ledger } from '#contract/api/postings';
import { ledgerParams, type LedgerQuery } from './ledger';

export function fetchScopedLedger(
  q: LedgerQuery,
  scope: ListScope,
  signal?: AbortSignal,
): Promise<Ledger> {
  return serverRequest({
    method: 'GET',
    ...listAt('/api/lancamentos', scope),
    query: ledgerParams(q),
    schema: Ledger,
    signal,
  });
}

/** A rede's export of the ledger (every store's, or the one named): recorded by the server. */
export function fetchChainLedgerExport(
  q: LedgerQuery,
  scope: 'todas' | number,
  signal?: AbortSignal,
): Promise<Ledger> {
  return serverRequest({
    method: 'GET',
    path: '/api/rede/lancamentos/exportar',
    headers: storeHeaders(scope === 'todas' ? null : scope),
    query: ledgerParams(q),
    schema: Ledger,
    signal,
    timeoutMs: 60_000,
  });
}
