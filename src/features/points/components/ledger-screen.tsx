import { useQuery } from '@tanstack/react-query';
import type { ListScope } from '@/api/rede';
import { StoreFilter, useChainStore, type ChainStore } from '@/components/store-filter';
import { LoadFailed } from '@/components/ui/load-failed';
import type { LedgerEntry, LedgerQuery } from '@/features/points/api/ledger';
import { fetchScopedLedger } from '@/features/points/api/chain-ledger';
import { LedgerExport } from '@/features/points/components/ledger-export';
import { LedgerFilterBar, useLedgerFilter } from '@/features/points/components/ledger-filter';
import { LedgerTable } from '@/features/points/components/ledger-table';

/**
 * "Lançamentos": the shift ledger as a manager screen. A store's gerente reads its own store's
 * (every terminal's, or one); the chain's rede one store's or every store's ("Todas as lojas",
 * with a "Loja" column), by day and terminal, and exports it as a CSV (a rede's with "Loja").
 * The counter's "Lançamentos do turno" dialog lists the same rows; this screen reads, it
 * decides nothing.
 */
export function LedgerScreen() {
  const chain = useChainStore();
  // A rede's store chosen or every store: a list of its own (its terminal filter starts over).
  const scope: ListScope = chain.rede ? (chain.loja ?? 'todas') : null;
  return <LedgerList key={String(scope)} scope={scope} chain={chain} />;
}

function LedgerList({ scope, chain }: { scope: ListScope; chain: ChainStore }) {
  const filter = useLedgerFilter();
  const { query, isToday } = filter;
  const ledger = useQuery({
    queryKey: ['lancamentos', scope, query] as const,
    queryFn: ({ signal }) => fetchScopedLedger(query, scope, signal),
  });
  const shown = ledger.data ?? null;
  const terminals = shown?.terminais ?? [];
  const lojaOf =
    scope === 'todas'
      ? (l: LedgerEntry) => (l.loja === undefined ? '—' : chain.nameOf(l.loja))
      : null;
  const download =
    scope === null
      ? undefined
      : async (q: LedgerQuery) => {
          const { downloadChainLedgerCsv } = await import('@/features/points/ledger-csv');
          return downloadChainLedgerCsv(q, scope, chain.nameOf);
        };
  return (
    <main className="mx-auto w-full max-w-6xl space-y-4 p-4">
      <h1 className="text-2xl font-bold">Lançamentos</h1>
      <p className="text-slate-700">
        Os lançamentos de pontos e as entregas de prêmios de um dia, por terminal, mais recentes
        primeiro; os que ainda não se resolveram, de dias anteriores, vêm no topo.
      </p>
      {chain.rede && <StoreFilter />}
      <LedgerFilterBar
        filter={filter}
        terminals={terminals}
        className="rounded-md border border-slate-300 bg-slate-50 p-3"
      >
        <LedgerExport ledger={ledger.isFetching ? null : shown} query={query} download={download} />
      </LedgerFilterBar>
      <div
        className="overflow-x-auto"
        role="region"
        aria-label="Lista de lançamentos"
        aria-busy={ledger.isFetching || undefined}
        tabIndex={0}
      >
        {ledger.isPending ? (
          <p role="status">Carregando os lançamentos…</p>
        ) : ledger.isError ? (
          <LoadFailed
            title="Não foi possível carregar os lançamentos."
            error={ledger.error}
            onRetry={ledger.refetch}
          />
        ) : ledger.data.lancamentos.length === 0 ? (
          <p className="rounded-md border border-slate-300 bg-white p-4 text-slate-800">
            {isToday ? 'Nenhum lançamento hoje.' : 'Nenhum lançamento neste dia.'}
          </p>
        ) : (
          <>
            <LedgerTable
              entries={ledger.data.lancamentos}
              allTerminals={query.terminal === null}
              stale={false}
              manager={false}
              onDecided={() => void ledger.refetch()}
              lojaOf={lojaOf}
            />
            {ledger.data.truncado && (
              <p className="mt-2 text-sm text-slate-700">Mostrando os lançamentos mais recentes.</p>
            )}
          </>
        )}
      </div>
    </main>
  );
}
