// Vigilância's alerts from the app server (a manager's): a page of them under the filters,
// one with its evidence, a decision with a note, and every alert of the filters for the CSV
// (the server records that export itself). Parsed with the contract both sides share.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { serverRequest } from '@/api/client';
import {
  AlertDetail,
  AlertExport,
  AlertPage,
  type AlertState,
  type RuleCode,
} from '#contract/api/vigilancia';

export interface AlertFilters {
  regra: RuleCode | null;
  estado: AlertState | null;
  /** `YYYY-MM-DD`. */
  dia: string | null;
  /** Digits of the customer's phone. */
  celular: string | null;
}

export const alertKeys = {
  all: ['vigilancia'] as const,
  page: (f: AlertFilters, pagina: number) =>
    [...alertKeys.all, 'page', f.regra, f.estado, f.dia, f.celular, pagina] as const,
  detail: (id: number) => [...alertKeys.all, 'detail', id] as const,
};

function toQuery(f: AlertFilters): Record<string, string> {
  const q: Record<string, string> = {};
  if (f.regra) q.regra = f.regra;
  if (f.estado) q.estado = f.estado;
  if (f.dia) q.dia = f.dia;
  if (f.celular) q.celular = f.celular;
  return q;
}

export const alertPageQuery = (f: AlertFilters, pagina: number) =>
  queryOptions({
    queryKey: alertKeys.page(f, pagina),
    queryFn: ({ signal }) =>
      serverRequest({
        method: 'GET',
        path: '/api/vigilancia/alertas',
        query: { ...toQuery(f), pagina: String(pagina) },
        schema: AlertPage,
        signal,
      }),
    placeholderData: keepPreviousData,
  });

export const useAlertPage = (f: AlertFilters, pagina: number) =>
  useQuery(alertPageQuery(f, pagina));

export const useAlertDetail = (id: number) =>
  useQuery({
    queryKey: alertKeys.detail(id),
    queryFn: ({ signal }) =>
      serverRequest({
        method: 'GET',
        path: `/api/vigilancia/alertas/${id}`,
        schema: AlertDetail,
        signal,
      }),
  });

export function decideAlert(
  id: number,
  acao: 'reconhecer' | 'descartar',
  nota: string,
): Promise<AlertDetail> {
  return serverRequest({
    method: 'POST',
    path: `/api/vigilancia/alertas/${id}/decisao`,
    body: { acao, nota },
    schema: AlertDetail,
  });
}

export function fetchAlertExport(f: AlertFilters): Promise<AlertExport> {
  return serverRequest({
    method: 'GET',
    path: '/api/vigilancia/exportar',
    query: toQuery(f),
    schema: AlertExport,
    timeoutMs: 60_000,
  });
}
