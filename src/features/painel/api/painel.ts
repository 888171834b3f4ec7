// The manager's dashboard: a period's figures from the app server (`GET /api/painel`), its
// journal's and, for rewards, the service's. Parsed with the contract both sides share.
import { queryOptions, useQuery, keepPreviousData } from '@tanstack/react-query';
import { serverRequest } from '@/api/client';
import { Painel, type PainelQuery } from '#contract/api/painel';

export interface Period {
  /** Local calendar dates `YYYY-MM-DD`, both included. */
  de: string;
  ate: string;
}

export const painelKeys = {
  all: ['painel'] as const,
  period: (p: Period) => [...painelKeys.all, p.de, p.ate] as const,
};

/** This browser's offset from UTC in minutes (-180 in Brasília). */
const offsetMinutes = () => -new Date().getTimezoneOffset();

export function fetchPainel(p: Period, signal?: AbortSignal): Promise<Painel> {
  const query: PainelQuery = { de: p.de, ate: p.ate, fuso: String(offsetMinutes()) };
  return serverRequest({ method: 'GET', path: '/api/painel', query, schema: Painel, signal });
}

export const painelQuery = (p: Period) =>
  queryOptions({
    queryKey: painelKeys.period(p),
    queryFn: ({ signal }) => fetchPainel(p, signal),
    placeholderData: keepPreviousData,
  });

export const usePainel = (p: Period) => useQuery(painelQuery(p));
