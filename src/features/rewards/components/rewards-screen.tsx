// The managers' reward table: filters in the URL, one page of the service's list at a time.
import { useCallback, useDeferredValue, useEffect, useRef } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiError } from '@/api/errors';
import type { RewardPage } from '@/api/schemas';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { navigate, useLocation } from '@/lib/router';
import { rewardsQuery } from '@/features/rewards/api/list-rewards';
import {
  FILTER_PARAMS,
  applyFilterChange,
  clearedFilters,
  dateRangeError,
  hasActiveFilters,
  parseRewardSearch,
  rewardsHref,
  toRequestFilters,
  type FilterParam,
  type RewardListFilters,
} from '../filters';
import { RewardsFilters, type FilterErrors } from './rewards-filters';
import { pageLabel, PageSizeSelect, RewardsPagination, rangeText } from './rewards-pagination';
import { StoreFilter, useChainStore } from '@/components/store-filter';
import { ExportButtons, ExportFeedback, useRewardsExport } from './export-rewards';
import { RewardsList } from './rewards-table';
import { StatusTotals } from './status-totals';

/** The filters as the URL holds them right now (not as of the last render). */
const currentFilters = () => parseRewardSearch(window.location.search).filters;

/** A new history entry with the change applied to the filters in the address bar. */
function changeFilters(change: Partial<RewardListFilters>) {
  navigate(rewardsHref(applyFilterChange(currentFilters(), change)));
}

const FORM_FIELDS = new Set<FilterParam>(FILTER_PARAMS.filter((p) => p !== 'page' && p !== 'loja'));

/**
 * A 422 lands on the filter it names; what no filter owns stays in the error box
 * (`allPlaced` tells whether every message found its filter). A bad range is the form's own.
 */
function placeErrors(
  error: Pick<ApiError, 'status' | 'fieldErrors'> | null,
  rangeError: string | null,
): { errors: FilterErrors; allPlaced: boolean } {
  const serverErrors: FilterErrors = {};
  let unplaced = false;
  if (error?.status === 422) {
    for (const [path, messages] of Object.entries(error.fieldErrors)) {
      if (FORM_FIELDS.has(path as FilterParam)) serverErrors[path as FilterParam] = messages[0];
      else unplaced = true;
    }
  }
  const allPlaced = Object.keys(serverErrors).length > 0 && !unplaced;
  const errors = rangeError ? { ...serverErrors, data_fim: rangeError } : serverErrors;
  return { errors, allPlaced };
}

/** The screen's title (a customer's rewards: with the button that drops that filter). */
function ScreenHeader({
  headingRef,
  customerId,
  onRemoveCustomer,
}: {
  headingRef: React.RefObject<HTMLHeadingElement | null>;
  customerId: number | undefined;
  onRemoveCustomer: () => void;
}) {
  return (
    <header className="flex flex-wrap items-center gap-x-4 gap-y-2">
      <h1 ref={headingRef} tabIndex={-1} className="text-2xl font-bold">
        {customerId === undefined ? 'Prêmios' : `Prêmios do cliente #${customerId}`}
      </h1>
      {customerId !== undefined && (
        <Button variant="secondary" onClick={onRemoveCustomer}>
          <span aria-hidden="true">✕</span> Remover filtro do cliente
        </Button>
      )}
    </header>
  );
}

/** What the list shows now, spoken: its range, loading, or what to correct. */
function ListStatus({ busy, text }: { busy: boolean; text: string }) {
  return (
    <p role="status" className="flex min-h-6 items-center gap-2 text-slate-800 tabular">
      {busy && (
        <span
          aria-hidden="true"
          className="size-4 animate-spin rounded-full border-2 border-current border-r-transparent"
        />
      )}
      {text}
    </p>
  );
}

export function RewardsScreen() {
  const { search } = useLocation();
  const parsed = parseRewardSearch(search);
  const { ignored } = parsed;
  // A chain's rede reads one store's list (the service pages each establishment's own): the
  // one chosen, else the first; any other terminal, its own store's.
  const chain = useChainStore();
  const { loja: chosen, ...own } = parsed.filters;
  const loja = chain.rede ? (chosen ?? chain.first ?? undefined) : undefined;
  const filters: RewardListFilters = loja === undefined ? own : { ...own, loja };
  const searchText = search.toString();
  const rangeError = dateRangeError(filters);
  const requestFilters = toRequestFilters(filters);
  const query = useQuery({
    ...rewardsQuery(requestFilters),
    // data_inicio after data_fim: the form says so and nothing is sent; a rede: once its store
    // is known.
    enabled: rangeError === null && (!chain.rede || loja !== undefined),
  });
  const exporter = useRewardsExport(chain.nameOf);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const captionRef = useRef<HTMLElement>(null);

  const { errors, allPlaced } = placeErrors(query.error, rangeError);

  const requestedPage = filters.page ?? 1;
  const goToPage = (page: number) => {
    changeFilters({ page: page <= 1 ? undefined : page });
    const caption = captionRef.current;
    if (caption) {
      caption.focus({ preventScroll: true });
      caption.scrollIntoView({ block: 'start' });
    } else headingRef.current?.focus(); // from a page past the end: no table yet
  };
  // Stable between renders of the same address, so the memoized table skips re-rendering
  // when only the totals or the export progress change.
  const focusHeading = useCallback(() => headingRef.current?.focus(), []);
  const filteredByCustomer = filters.id_cliente !== undefined;
  const customerHref = useCallback(
    (id: number) =>
      rewardsHref(applyFilterChange(parseRewardSearch(searchText).filters, { id_cliente: id })),
    [searchText],
  );
  const removeCustomer = () => {
    changeFilters({ id_cliente: undefined });
    headingRef.current?.focus(); // the button goes away with the filter
  };

  // The page's rows are drawn in a transition: React Query's answer re-renders at once and in
  // one piece (a store update), and a page of rows on a slow phone is a long task; deferred,
  // React renders them in slices the browser can answer a tap between.
  const data = useDeferredValue(rangeError === null ? query.data : undefined);

  usePrefetchNextPage(query, data, searchText, loja);
  const busy = query.isPlaceholderData;
  let status = '';
  if (rangeError) status = 'Corrija o período para ver os prêmios.';
  else if (query.isPending || (data === undefined && !query.isError))
    status = 'Carregando prêmios…';
  else if (data && busy) status = `${rangeText(data)} · carregando…`;
  else if (data) status = rangeText(data);

  return (
    <main className="flex flex-col gap-4 p-4 lg:p-6">
      <ScreenHeader
        headingRef={headingRef}
        customerId={filters.id_cliente}
        onRemoveCustomer={removeCustomer}
      />

      {chain.rede && <StoreFilter allowAll={false} />}
      <RewardsFilters
        filters={filters}
        errors={errors}
        ignored={ignored}
        onChange={changeFilters}
        onClear={() => navigate(rewardsHref(clearedFilters(currentFilters())))}
        onDropIgnored={() => navigate(rewardsHref(currentFilters()), { replace: true })}
      />

      {rangeError === null && (
        <StatusTotals
          filters={requestFilters}
          selected={filters.status}
          onPick={(status) => changeFilters({ status })}
        />
      )}

      <section aria-label="Resultado" className="flex flex-col gap-3">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <ListStatus busy={busy} text={status} />
          <div className="flex w-full flex-wrap items-center justify-between gap-3 sm:w-auto sm:justify-end">
            <ExportButtons
              exporter={exporter}
              filters={requestFilters}
              enabled={rangeError === null && (data?.total ?? 0) > 0}
            />
            <PageSizeSelect
              value={filters.itens_por_pagina}
              onChange={(size) => changeFilters({ itens_por_pagina: size })}
              error={errors.itens_por_pagina}
            />
          </div>
        </div>

        <ExportFeedback exporter={exporter} />

        {rangeError ? null : query.isError ? (
          <LoadError
            message={
              query.error.status === 422 && allPlaced
                ? 'O serviço recusou um dos filtros: confira o campo marcado acima.'
                : query.error.message
            }
            retrying={query.isFetching}
            onRetry={() => void query.refetch()}
          />
        ) : query.isPending || data === undefined ? (
          <LoadingSkeleton />
        ) : data && data.total === 0 ? (
          <EmptyState filtered={hasActiveFilters(filters)} />
        ) : data && data.data.length === 0 ? (
          <MissingPage
            requested={requestedPage}
            lastPage={data.last_page}
            onLast={() => goToPage(data.last_page)}
          />
        ) : data ? (
          <>
            <RewardsList
              records={data.data}
              pageLabel={pageLabel(data)}
              busy={busy}
              captionRef={captionRef}
              customerHref={filteredByCustomer ? undefined : customerHref}
              onCustomerPick={focusHeading}
            />
            <RewardsPagination page={data} requested={requestedPage} onGo={goToPage} />
          </>
        ) : null}
      </section>
    </main>
  );
}

function LoadingSkeleton() {
  return (
    <div aria-hidden="true" className="flex flex-col gap-2 rounded-lg border border-slate-300 p-3">
      {Array.from({ length: 6 }, (_, i) => (
        <div key={i} className="h-8 animate-pulse rounded bg-slate-200" />
      ))}
    </div>
  );
}

function EmptyState({ filtered }: { filtered: boolean }) {
  return (
    <div className="flex flex-col gap-1 rounded-lg border border-dashed border-slate-400 bg-white p-6">
      <p className="text-lg font-semibold">
        {filtered
          ? 'Nenhum prêmio encontrado com estes filtros.'
          : 'Nenhum prêmio conquistado até agora.'}
      </p>
      {filtered && <p className="text-slate-700">Mude os filtros acima ou use “Limpar filtros”.</p>}
    </div>
  );
}

/**
 * The next page fetched ahead, so "Próxima" shows it at once: once this page is drawn, when
 * the browser is idle (its request and answer stay out of the drawing).
 */
function usePrefetchNextPage(
  query: { isPlaceholderData: boolean; data: RewardPage | undefined },
  data: RewardPage | undefined,
  searchText: string,
  loja: number | undefined,
) {
  const queryClient = useQueryClient();
  const shown = !query.isPlaceholderData && data === query.data ? data : undefined;
  const nextPage =
    shown && shown.current_page < shown.last_page && shown.data.length > 0
      ? shown.current_page + 1
      : null;
  useEffect(() => {
    if (nextPage === null) return;
    const { filters: current } = parseRewardSearch(searchText);
    const prefetch = () =>
      void queryClient.prefetchQuery(
        rewardsQuery(toRequestFilters({ ...current, page: nextPage, loja })),
      );
    if (typeof requestIdleCallback !== 'function') {
      const timer = setTimeout(prefetch, 1);
      return () => clearTimeout(timer);
    }
    const idle = requestIdleCallback(prefetch, { timeout: 1_000 });
    return () => cancelIdleCallback(idle);
  }, [queryClient, searchText, nextPage, loja]);
}

function LoadError({
  message,
  retrying,
  onRetry,
}: {
  message: string;
  retrying: boolean;
  onRetry: () => void;
}) {
  return (
    <Alert tone="error" title="Não foi possível carregar os prêmios.">
      <p>{message}</p>
      <div>
        <Button onClick={onRetry} busy={retrying}>
          Tentar de novo
        </Button>
      </div>
    </Alert>
  );
}

/** A page past the list's end (an old link, a list that shrank). */
function MissingPage({
  requested,
  lastPage,
  onLast,
}: {
  requested: number;
  lastPage: number;
  onLast: () => void;
}) {
  return (
    <Alert tone="info" title={`A página ${requested} não existe nesta lista.`}>
      <p>{lastPage === 1 ? 'A lista tem 1 página.' : `A lista tem ${lastPage} páginas.`}</p>
      <div>
        <Button variant="secondary" onClick={onLast}>
          Ir para a última página
        </Button>
      </div>
    </Alert>
  );
}
