// Vigilância's alerts from the app server (a manager's): a page of them under the filters,
// one with its evidence, a decision with a note, and every alert of the filters for the CSV
// (the server records that export itself). Parsed with the contract both sides share.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type * as z from 'zod/mini';
import { serverRequest } from '@/api/client';
import { listAt, storeHeaders, type ListScope } from '@/api/rede';
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
  page: (f: AlertFilters, pagina: number, scope: ListScope) =>
    [...alertKeys.all, 'page', scope, f.regra, f.estado, f.dia, f.celular, pagina] as const,
  /** `loja`: the chain's store a rede reads it from (null: the terminal's own). */
  detail: (id: number, loja: number | null = null) =>
    [...alertKeys.all, 'detail', id, loja] as const,
};

/**
 * One store's Vigilância setting (`GET /api/vigilancia/<part>`: its rules, its webhook's
 * deliveries); `loja`: the chain's store a rede reads (null: the terminal's own).
 */
export const storeSettingQuery = <S extends z.ZodMiniType>(
  part: 'regras' | 'entregas',
  schema: S,
  loja: number | null,
) =>
  queryOptions({
    queryKey: [...alertKeys.all, part, loja] as const,
    queryFn: ({ signal }) =>
      serverRequest({
        method: 'GET',
        path: `/api/vigilancia/${part}`,
        schema,
        signal,
        headers: storeHeaders(loja),
      }),
  });

function toQuery(f: AlertFilters): Record<string, string> {
  const q: Record<string, string> = {};
  if (f.regra) q.regra = f.regra;
  if (f.estado) q.estado = f.estado;
  if (f.dia) q.dia = f.dia;
  if (f.celular) q.celular = f.celular;
  return q;
}

/** A page of alerts: the terminal's own store's, one store's of the chain, or every store's. */
export const alertPageQuery = (f: AlertFilters, pagina: number, scope: ListScope = null) =>
  queryOptions({
    queryKey: alertKeys.page(f, pagina, scope),
    queryFn: ({ signal }) =>
      serverRequest({
        method: 'GET',
        ...listAt('/api/vigilancia/alertas', scope),
        query: { ...toQuery(f), pagina: String(pagina) },
        schema: AlertPage,
        signal,
      }),
    placeholderData: keepPreviousData,
  });

export const useAlertDetail = (id: number, loja: number | null = null) =>
  useQuery({
    queryKey: alertKeys.detail(id, loja),
    queryFn: ({ signal }) =>
      serverRequest({
        method: 'GET',
        path: `/api/vigilancia/alertas/${id}`,
        schema: AlertDetail,
        signal,
        headers: storeHeaders(loja),
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

export function fetchAlertExport(f: AlertFilters, scope: ListScope = null): Promise<AlertExport> {
  return serverRequest({
    method: 'GET',
    ...listAt('/api/vigilancia/exportar', scope),
    query: toQuery(f),
    schema: AlertExport,
    timeoutMs: 60_000,
  });
}
