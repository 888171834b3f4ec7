// The chain's store filter (a `rede` terminal's manager screens): every store or one, kept in
// the address so a reload, the history and a link keep it.
import { useId, type ComponentType } from 'react';
import { useQuery } from '@tanstack/react-query';
import { configQuery } from '@/api/client';
import { redeLojasQuery, storeFromSearch, withStore, type ListScope } from '@/api/rede';
import { navigate, useLocation } from '@/lib/router';

/**
 * The store a manager screen reads: `rede` (a chain's terminal), `loja` the store it chose
 * (null: every store; for any other terminal always null, its own store), and the stores' names.
 */
export function useChainStore() {
  const { search } = useLocation();
  // The config is the app shell's, already read (enabled: false: never fetched here).
  const rede = useQuery({ ...configQuery(), enabled: false }).data?.terminal?.role === 'rede';
  const lojas = useQuery({ ...redeLojasQuery(), enabled: rede });
  const names = new Map((lojas.data?.lojas ?? []).map((l) => [l.id, l.nome]));
  return {
    rede,
    loja: rede ? storeFromSearch(search) : null,
    /** The first store (a screen that needs one store opens on it). */
    first: lojas.data?.lojas[0]?.id ?? null,
    nameOf: (id: number) => names.get(id) ?? `Loja ${id}`,
  };
}

export type ChainStore = ReturnType<typeof useChainStore>;

/**
 * A manager list of the terminal's own store (scope null), of the store a rede chose, or of
 * every store ('todas'): each scope draws a list of its own, whose page and filters start over.
 */
export function PerStoreList({
  list: List,
}: {
  list: ComponentType<{ scope: ListScope; chain: ChainStore }>;
}) {
  const chain = useChainStore();
  const scope: ListScope = chain.rede ? (chain.loja ?? 'todas') : null;
  return <List key={String(scope)} scope={scope} chain={chain} />;
}

export function StoreFilter({ allowAll = true }: { allowAll?: boolean }) {
  const id = useId();
  const { pathname, search } = useLocation();
  const lojas = useQuery(redeLojasQuery());
  const chosen = storeFromSearch(search);
  const list = lojas.data?.lojas ?? [];
  const value = chosen ?? (allowAll ? '' : (list[0]?.id ?? ''));
  return (
    <div className="flex flex-wrap items-center gap-2">
      <label htmlFor={id} className="font-medium">
        Loja
      </label>
      <select
        id={id}
        className="min-h-10 rounded-md border border-slate-400 bg-white px-2 py-1"
        value={String(value)}
        disabled={lojas.isPending}
        onChange={(e) => {
          const next = e.target.value === '' ? null : Number(e.target.value);
          navigate(withStore(pathname, search, next));
        }}
      >
        {allowAll && <option value="">Todas as lojas</option>}
        {chosen !== null && !list.some((l) => l.id === chosen) && (
          <option value={chosen}>Loja {chosen}</option>
        )}
        {list.map((l) => (
          <option key={l.id} value={l.id}>
            {l.nome}
          </option>
        ))}
      </select>
      {lojas.isError && (
        <span role="alert" className="text-red-800">
          Não foi possível carregar as lojas.
        </span>
      )}
    </div>
  );
}
