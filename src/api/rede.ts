// The chain's view (a `rede` terminal): the store a screen reads, kept in the address
// (`?loja=3`; none: every store, where the screen sums them), the header that names it to the
// app server, and the chain's stores. Only the manager screens' lazy chunks import it.
import { queryOptions } from '@tanstack/react-query';
import { RedeLojas, STORE_HEADER } from '#contract/api/rede';
import { serverRequest } from './client';

/** The store `?loja=` names, or null (every store; or a store's terminal, its own). */
export function storeFromSearch(search: URLSearchParams): number | null {
  const text = search.get('loja') ?? '';
  return /^[1-9]\d{0,11}$/.test(text) ? Number(text) : null;
}

/** The same address with another store (null: every store), the other parameters kept. */
export function withStore(pathname: string, search: URLSearchParams, loja: number | null): string {
  const next = new URLSearchParams(search);
  if (loja === null) next.delete('loja');
  else next.set('loja', String(loja));
  // A list's page belongs to the store it was of.
  next.delete('page');
  const text = next.toString();
  return text ? `${pathname}?${text}` : pathname;
}

/** The header naming the store a rede reads (none: the terminal's own store). */
export const storeHeaders = (loja: number | null): Record<string, string> | undefined =>
  loja === null ? undefined : { [STORE_HEADER]: String(loja) };

/** Where a manager's list is read: every store of the chain, one store, or (null) its own. */
export type ListScope = 'todas' | number | null;

/** A list's path and headers: the chain's route for every store, `X-Loja` for one. */
export function listAt(
  path: `/api/${string}`,
  scope: ListScope,
): { path: `/api/${string}`; headers: Record<string, string> | undefined } {
  if (scope === 'todas') return { path: `/api/rede/${path.slice(5)}`, headers: undefined };
  return { path, headers: storeHeaders(scope) };
}

export const redeLojasQuery = () =>
  queryOptions({
    queryKey: ['rede', 'lojas'] as const,
    queryFn: ({ signal }) =>
      serverRequest({ method: 'GET', path: '/api/rede/lojas', schema: RedeLojas, signal }),
    staleTime: 60_000,
  });
