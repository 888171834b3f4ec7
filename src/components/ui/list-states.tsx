import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { LoadFailed } from '@/components/ui/load-failed';
import { Pager } from '@/components/list-parts';

/**
 * What a read shows: `loading` (announced) while it runs; if it failed, an error titled
 * `failed` with its message (and "Tentar novamente" when `retry`); else `children` of its data.
 */
export function Loaded<T, E extends Error>({
  query,
  loading,
  failed,
  retry = false,
  children,
}: {
  query: UseQueryResult<T, E>;
  loading: string;
  failed: string;
  retry?: boolean;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <p role="status">{loading}</p>;
  if (query.isError) {
    return (
      <LoadFailed title={failed} error={query.error} onRetry={retry ? query.refetch : undefined} />
    );
  }
  return children(query.data);
}

/** A list with nothing to show: one line in a white box. */
export function EmptyNote({ children }: { children: ReactNode }) {
  return (
    <p className="rounded-md border border-slate-300 bg-white p-4 text-slate-800">{children}</p>
  );
}

/** What a paged list says: while loading, on failure, with nothing found, and its pages' name. */
export type PagedListWords = { loading: string; failed: string; empty: string; pages: string };

/**
 * A page of a filtered list read from the server: Loaded (with "Tentar novamente"), then the
 * `empty` note, or the rows `children` draw of its items and the pages' navigation.
 */
export function PagedList<I, E extends Error>({
  query,
  words,
  onPage,
  children,
}: {
  query: UseQueryResult<{ itens: readonly I[]; pagina: number; paginas: number }, E>;
  words: PagedListWords;
  onPage: (pagina: number) => void;
  children: (itens: readonly I[]) => ReactNode;
}) {
  return (
    <Loaded query={query} loading={words.loading} failed={words.failed} retry>
      {(page) =>
        page.itens.length === 0 ? (
          <EmptyNote>{words.empty}</EmptyNote>
        ) : (
          <>
            {children(page.itens)}
            <Pager
              label={words.pages}
              pagina={page.pagina}
              paginas={page.paginas}
              onPage={onPage}
            />
          </>
        )
      }
    </Loaded>
  );
}
