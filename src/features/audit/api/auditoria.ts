// The audit trail from the app server (`GET /api/auditoria`, a manager's), a page at a time,
// and every entry of the filters for the CSV (`GET /api/auditoria/exportar`: the server records
// that export itself). Parsed with the contract both sides share.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { serverRequest } from '@/api/client';
import { listAt, type ListScope } from '@/api/rede';
import { AuditExport, AuditPage, type AuditAction, type AuditQuery } from '#contract/api/auditoria';

export interface AuditFilters {
  /** Local calendar dates `YYYY-MM-DD`, both included; null: unbounded. */
  de: string | null;
  ate: string | null;
  acao: AuditAction | null;
  terminal: number | null;
}

export const auditKeys = {
  all: ['auditoria'] as const,
  page: (f: AuditFilters, pagina: number, scope: ListScope) =>
    [...auditKeys.all, scope, f.de, f.ate, f.acao, f.terminal, pagina] as const,
};

/** The filters as the query string carries them, with this browser's offset (east, minutes). */
function toQuery(f: AuditFilters): AuditQuery {
  return {
    de: f.de ?? undefined,
    ate: f.ate ?? undefined,
    acao: f.acao ?? undefined,
    terminal: f.terminal === null ? undefined : String(f.terminal),
    fuso: String(-new Date().getTimezoneOffset()),
  };
}

/** A page of the trail: the terminal's own store's, one store's of the chain, or every store's. */
export function fetchAuditPage(
  f: AuditFilters,
  pagina: number,
  signal?: AbortSignal,
  scope: ListScope = null,
): Promise<AuditPage> {
  const query = { ...toQuery(f), pagina: String(pagina) };
  return serverRequest({
    method: 'GET',
    ...listAt('/api/auditoria', scope),
    query,
    schema: AuditPage,
    signal,
  });
}

export const auditPageQuery = (f: AuditFilters, pagina: number, scope: ListScope = null) =>
  queryOptions({
    queryKey: auditKeys.page(f, pagina, scope),
    queryFn: ({ signal }) => fetchAuditPage(f, pagina, signal, scope),
    placeholderData: keepPreviousData,
  });

/**
 * Every entry of the filters (the server records this export, with its filters and rows, in
 * the trail of each store it exported).
 */
export function fetchAuditExport(
  f: AuditFilters,
  signal?: AbortSignal,
  scope: ListScope = null,
): Promise<AuditExport> {
  return serverRequest({
    method: 'GET',
    ...listAt('/api/auditoria/exportar', scope),
    query: toQuery(f),
    schema: AuditExport,
    signal,
    timeoutMs: 60_000,
  });
}
