// The conferência of a day (`GET|POST /api/painel/conferencia`): the journal's postings
// matched with the service's history. Polled every second while it runs.
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { serverRequest } from '@/api/client';
import { storeHeaders } from '@/api/rede';
import { Conferencia, type ConferenciaQuery } from '#contract/api/conferencia';

export const conferenciaKeys = {
  all: ['conferencia'] as const,
  day: (dia: string, loja: number | null = null) => [...conferenciaKeys.all, dia, loja] as const,
};

/** This browser's offset from UTC in minutes (-180 in Brasília). */
const offsetMinutes = () => -new Date().getTimezoneOffset();

const request = (
  method: 'GET' | 'POST',
  dia: string,
  signal?: AbortSignal,
  loja: number | null = null,
) => {
  const query: ConferenciaQuery = { dia, fuso: String(offsetMinutes()) };
  return serverRequest({
    method,
    path: '/api/painel/conferencia',
    query,
    body: method === 'POST' ? {} : undefined,
    schema: Conferencia,
    signal,
    headers: storeHeaders(loja),
  });
};

export const conferenciaQuery = (dia: string, loja: number | null = null) =>
  queryOptions({
    queryKey: conferenciaKeys.day(dia, loja),
    queryFn: ({ signal }) => request('GET', dia, signal, loja),
    refetchInterval: (q) => (q.state.data?.situacao === 'em andamento' ? 1_000 : false),
  });

/** `enabled` false: the day's run is not read yet (see useNextTask). */
export const useConferencia = (dia: string, loja: number | null = null, enabled = true) =>
  useQuery({ ...conferenciaQuery(dia, loja), enabled });

/**
 * Starts the day's conferência (or joins the one running) and puts the answer in the cache.
 * A plain function, not `useMutation`: that hook, used nowhere else on the dashboard, made the
 * bundler split TanStack Query out of the entry into a chunk of its own (+1.5 KB gzip on the
 * counter's first load).
 */
export async function startConferencia(qc: QueryClient, dia: string): Promise<void> {
  const data = await request('POST', dia);
  qc.setQueryData(conferenciaKeys.day(dia), data);
}
