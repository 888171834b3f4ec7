// The manager's dashboard: a period's figures from the app server (`GET /api/painel`), its
// journal's and, for rewards, the service's. Parsed with the contract both sides share.
import { queryOptions, useQuery, keepPreviousData } from '@tanstack/react-query';
import { serverRequest } from '@/api/client';
import { storeHeaders } from '@/api/rede';
import { Painel, type PainelQuery } from '#contract/api/painel';
import { RedePainel } from '#contract/api/rede';

export interface Period {
  /** Local calendar dates `YYYY-MM-DD`, both included. */
  de: string;
  ate: string;
}

export const painelKeys = {
  all: ['painel'] as const,
  period: (p: Period, loja: number | null = null) =>
    [...painelKeys.all, p.de, p.ate, loja] as const,
};

/** This browser's offset from UTC in minutes (-180 in Brasília). */
const offsetMinutes = () => -new Date().getTimezoneOffset();

/** The dashboard of a period; `loja`: the chain's store a rede reads (null: its own). */
export function fetchPainel(
  p: Period,
  signal?: AbortSignal,
  loja: number | null = null,
): Promise<Painel> {
  const query: PainelQuery = { de: p.de, ate: p.ate, fuso: String(offsetMinutes()) };
  const headers = storeHeaders(loja);
  return serverRequest({
    method: 'GET',
    path: '/api/painel',
    query,
    schema: Painel,
    signal,
    headers,
  });
}

export const painelQuery = (p: Period, loja: number | null = null) =>
  queryOptions({
    queryKey: painelKeys.period(p, loja),
    queryFn: ({ signal }) => fetchPainel(p, signal, loja),
    placeholderData: keepPreviousData,
  });

export const usePainel = (p: Period, loja: number | null = null, enabled = true) =>
  useQuery({ ...painelQuery(p, loja), enabled });

/** The chain's roll-up of a period (a rede terminal): every store's row and their sums. */
export const redePainelQuery = (p: Period) =>
  queryOptions({
    queryKey: ['rede', 'painel', p.de, p.ate] as const,
    queryFn: ({ signal }) =>
      serverRequest({
        method: 'GET',
        path: '/api/rede/painel',
        query: { de: p.de, ate: p.ate, fuso: String(offsetMinutes()) },
        schema: RedePainel,
        signal,
        timeoutMs: 30_000,
      }),
    placeholderData: keepPreviousData,
  });
