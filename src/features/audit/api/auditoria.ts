// The audit trail from the app server (`GET /api/auditoria`, a manager's), a page at a time,
// and every entry of the filters for the CSV (`GET /api/auditoria/exportar`: the server records
// that export itself). Parsed with the contract both sides share.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { serverRequest } from '@/api/client';
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
  page: (f: AuditFilters, pagina: number) =>
    [...auditKeys.all, f.de, f.ate, f.acao, f.terminal, pagina] as const,
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

export function fetchAuditPage(
  f: AuditFilters,
  pagina: number,
  signal?: AbortSignal,
): Promise<AuditPage> {
  const query = { ...toQuery(f), pagina: String(pagina) };
  return serverRequest({ method: 'GET', path: '/api/auditoria', query, schema: AuditPage, signal });
}

export const auditPageQuery = (f: AuditFilters, pagina: number) =>
  queryOptions({
    queryKey: auditKeys.page(f, pagina),
    queryFn: ({ signal }) => fetchAuditPage(f, pagina, signal),
    placeholderData: keepPreviousData,
  });

export const useAuditPage = (f: AuditFilters, pagina: number) =>
  useQuery(auditPageQuery(f, pagina));

/** Every entry of the filters (the server records this export with its filters and rows). */
export function fetchAuditExport(f: AuditFilters, signal?: AbortSignal): Promise<AuditExport> {
  return serverRequest({
    method: 'GET',
    path: '/api/auditoria/exportar',
    query: toQuery(f),
    schema: AuditExport,
    signal,
    timeoutMs: 60_000,
  });
}
