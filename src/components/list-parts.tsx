// The pieces the manager's filtered lists share (the audit trail, Vigilância's alerts): the
// filters and the page read, the store column of every store's list, the count line with the
// CSV export's button, the export's outcome, and the pages' navigation (the filter bar itself:
// filter-bar.tsx). Only the manager screens' lazy chunks import it.
import { useState, type ReactNode } from 'react';
import { useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FitTable, type FitColumn } from '@/components/ui/fit-table';
import { formatInteger } from '@/lib/points';

/**
 * A page of a manager's list: a FitTable (on a phone, cards of text), a row per item keyed by
 * its id. Every store's list (`lojaOf`) starts with a column naming each row's store.
 */
export function ListTable<R extends { id: number }>({
  label,
  lojaOf,
  rowHeader,
  columns,
  items,
  cells,
}: {
  label: string;
  lojaOf: ((item: R) => string) | null;
  /** The column that names each row, counted without the store's. */
  rowHeader: number;
  columns: readonly FitColumn[];
  items: readonly R[];
  cells: (item: R) => ReactNode[];
}) {
  const store = lojaOf === null ? [] : [{ header: 'Loja', cell: 'font-medium' }];
  return (
    <FitTable
      label={label}
      cards="text"
      rowHeader={store.length + rowHeader}
      columns={[...store, ...columns]}
      rows={items.map((r) => ({
        key: String(r.id),
        cells: lojaOf === null ? cells(r) : [lojaOf(r), ...cells(r)],
      }))}
    />
  );
}

type ExportState =
  | { kind: 'idle' | 'running' }
  | { kind: 'done'; filename: string; rows: number }
  | { kind: 'failed'; message: string };

/** A CSV export: `write` reads the rows, writes the file and says its name and rows. */
export function useCsvExport(write: () => Promise<{ filename: string; rows: number }>) {
  const [state, setState] = useState<ExportState>({ kind: 'idle' });
  const run = async () => {
    setState({ kind: 'running' });
    try {
      setState({ kind: 'done', ...(await write()) });
    } catch (e) {
      setState({ kind: 'failed', message: e instanceof Error ? e.message : 'Erro desconhecido.' });
    }
  };
  return { state, start: () => void run() };
}

/** `1 registro`, `2 registros`. */
const counted = (n: number, noun: [string, string]) =>
  `${formatInteger(n)} ${n === 1 ? noun[0] : noun[1]}`;

/**
 * A filtered list read a page at a time (`pageQuery`): its filters, the page asked for and its
 * read; applying other filters goes back to the first page.
 */
export function usePagedFilters<F, T, E, K extends QueryKey>(
  initial: F | (() => F),
  pageQuery: (filters: F, pagina: number) => UseQueryOptions<T, E, T, K>,
) {
  const [filters, setFilters] = useState(initial);
  const [pagina, setPagina] = useState(1);
  const page = useQuery(pageQuery(filters, pagina));
  return {
    filters,
    page,
    setPagina,
    apply: (f: F) => {
      setFilters(f);
      setPagina(1);
    },
  };
}

/** The list's count (once its page is read), the export's button, and what the export did. */
export function ExportBar({
  page,
  noun,
  exporter,
}: {
  /** The page's read: its total, and whether another page is on its way. */
  page: { data?: { total: number } | undefined; isFetching: boolean; isPending: boolean };
  noun: [string, string];
  exporter: ReturnType<typeof useCsvExport>;
}) {
  const total = page.data ? page.data.total : null;
  const updating = page.isFetching && !page.isPending;
  const { state } = exporter;
  const running = state.kind === 'running';
  return (
    <>
      <div className="flex flex-wrap items-center gap-3">
        <p className="text-slate-700" aria-live="polite">
          {total === null ? '' : counted(total, noun)}
          {updating && ' · atualizando…'}
        </p>
        <Button
          variant="secondary"
          size="sm"
          className="ml-auto"
          onClick={exporter.start}
          disabled={total === null || total === 0 || running}
          busy={running}
        >
          {!running && <span aria-hidden="true">⬇</span>} Exportar CSV
        </Button>
      </div>
      <div role="status" className="empty:hidden">
        {state.kind === 'done' && (
          <p>
            <span aria-hidden="true">✓ </span>
            Arquivo {state.filename} gerado com {counted(state.rows, noun)}.
          </p>
        )}
      </div>
      {state.kind === 'failed' && (
        <Alert tone="error" title="Não foi possível exportar.">
          <p>{state.message}</p>
        </Alert>
      )}
    </>
  );
}

/** "Anterior · Página 2 de 5 · Próxima". */
export function Pager({
  label,
  pagina,
  paginas,
  onPage,
}: {
  label: string;
  pagina: number;
  paginas: number;
  onPage: (pagina: number) => void;
}) {
  return (
    <nav aria-label={label} className="flex items-center gap-3">
      <Button
        size="sm"
        variant="secondary"
        disabled={pagina <= 1}
        onClick={() => onPage(pagina - 1)}
      >
        Anterior
      </Button>
      <span className="tabular-nums">
        Página {pagina} de {paginas}
      </span>
      <Button
        size="sm"
        variant="secondary"
        disabled={pagina >= paginas}
        onClick={() => onPage(pagina + 1)}
      >
        Próxima
      </Button>
    </nav>
  );
}
