import { useState } from 'react';
import { AUDIT_ACTIONS, type AuditAction, type AuditEntry } from '#contract/api/auditoria';
import type { ListScope } from '@/api/rede';
import { ExportBar, useCsvExport } from '@/components/list-parts';
import { StoreFilter, useChainStore } from '@/components/store-filter';
import { Button } from '@/components/ui/button';
import { FitTable } from '@/components/ui/fit-table';
import { DateField, dateTextToWire } from '@/components/ui/date-field';
import { ChoiceField, choicesOf } from '@/components/ui/choice-field';
import { PagedList, type PagedListWords } from '@/components/ui/list-states';
import { fetchAuditExport, useAuditPage, type AuditFilters } from '../api/auditoria';
import { ACTION_LABELS, actionLabel, detailsText, whenText } from '../labels';

const NO_FILTERS: AuditFilters = { de: null, ate: null, acao: null, terminal: null };

const AUDIT_WORDS: PagedListWords = {
  loading: 'Carregando a auditoria…',
  failed: 'Não foi possível carregar a auditoria.',
  empty: 'Nenhum registro com estes filtros.',
  pages: 'Páginas da auditoria',
};

type Draft = { de: string; ate: string; acao: string; terminal: string };

/** The period's two date fields: the draft's key and the label. */
const PERIOD_FIELDS = [
  ['de', 'De'],
  ['ate', 'Até'],
] as const;

/** The draft's filters, or what is wrong with it (by field). */
function readDraft(d: Draft): { filters: AuditFilters } | { errors: Partial<Draft> } {
  const errors: Partial<Draft> = {};
  const de = d.de.trim() === '' ? null : dateTextToWire(d.de);
  const ate = d.ate.trim() === '' ? null : dateTextToWire(d.ate);
  if (d.de.trim() !== '' && de === null) errors.de = 'Data inválida: use dd/mm/aaaa.';
  if (d.ate.trim() !== '' && ate === null) errors.ate = 'Data inválida: use dd/mm/aaaa.';
  if (de !== null && ate !== null && ate < de) {
    errors.ate = 'A data final deve ser igual ou posterior à inicial.';
  }
  if (Object.keys(errors).length > 0) return { errors };
  return {
    filters: {
      de,
      ate,
      acao: d.acao === '' ? null : (d.acao as AuditAction),
      terminal: d.terminal === '' ? null : Number(d.terminal),
    },
  };
}

function Filters({
  terminals,
  onApply,
}: {
  terminals: readonly { id: number; nome: string }[];
  onApply: (f: AuditFilters) => void;
}) {
  const [draft, setDraft] = useState<Draft>({ de: '', ate: '', acao: '', terminal: '' });
  const [errors, setErrors] = useState<Partial<Draft>>({});
  const set = (k: keyof Draft) => (v: string) => setDraft((d) => ({ ...d, [k]: v }));
  return (
    <form
      aria-label="Filtros da auditoria"
      className="flex flex-wrap items-end gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        const read = readDraft(draft);
        if ('errors' in read) return setErrors(read.errors);
        setErrors({});
        onApply(read.filters);
      }}
    >
      {PERIOD_FIELDS.map(([k, label]) => (
        <DateField
          key={k}
          label={label}
          className="w-36"
          value={draft[k]}
          error={errors[k]}
          onValueChange={set(k)}
        />
      ))}
      <ChoiceField
        label="Ação"
        className="w-60"
        value={draft.acao}
        first="Todas"
        choices={choicesOf(AUDIT_ACTIONS, ACTION_LABELS)}
        onValue={set('acao')}
      />
      <ChoiceField
        label="Terminal"
        className="w-48"
        value={draft.terminal}
        first="Todos"
        choices={terminals.map((t) => ({ value: String(t.id), text: `${t.nome} (nº ${t.id})` }))}
        onValue={set('terminal')}
      />
      <Button type="submit" size="sm">
        Filtrar
      </Button>
    </form>
  );
}

/** The trail's entries; `lojaOf` (every store of the chain): a first column naming the store. */
function Entries({
  items,
  lojaOf,
}: {
  items: readonly AuditEntry[];
  lojaOf: ((e: AuditEntry) => string) | null;
}) {
  const store = lojaOf === null ? [] : [{ header: 'Loja', cell: 'font-medium' }];
  return (
    <FitTable
      label="Registros de auditoria"
      cards="text"
      rowHeader={store.length + 2}
      columns={[
        ...store,
        { header: 'Quando', cell: 'whitespace-nowrap tabular-nums' },
        { header: 'Terminal' },
        { header: 'Ação', cell: 'font-semibold' },
        { header: 'Detalhes', cell: 'min-w-48' },
        { header: 'Requisição', cell: 'font-mono text-xs break-all text-slate-700' },
      ]}
      rows={items.map((e) => ({
        key: String(e.id),
        cells: [
          ...(lojaOf === null ? [] : [lojaOf(e)]),
          whenText(e.quando),
          <>
            {e.terminal ? (e.terminal.nome ?? `nº ${e.terminal.id}`) : 'Linha de comando'}
            {e.papel && e.terminal && <span className="block text-slate-700">{e.papel}</span>}
          </>,
          actionLabel(e.acao),
          detailsText(e),
          e.requisicao ?? '—',
        ],
      }))}
    />
  );
}

/** "Auditoria": who did what from which terminal, filtered, a page at a time, and its CSV. */
export function AuditScreen() {
  const chain = useChainStore();
  // A rede's store chosen or every store: a list of its own (its page and filters start over).
  const scope: ListScope = chain.rede ? (chain.loja ?? 'todas') : null;
  return <AuditList key={String(scope)} scope={scope} chain={chain} />;
}

function AuditList({
  scope,
  chain,
}: {
  scope: ListScope;
  chain: ReturnType<typeof useChainStore>;
}) {
  const [filters, setFilters] = useState<AuditFilters>(NO_FILTERS);
  const [pagina, setPagina] = useState(1);
  const page = useAuditPage(filters, pagina, scope);
  // The store of an entry: its own (every store's list) or the one chosen.
  const lojaOf = (e: AuditEntry) => chain.nameOf(e.loja ?? (typeof scope === 'number' ? scope : 0));
  const exporter = useCsvExport(async () => {
    const [found, { downloadAuditCsv }] = await Promise.all([
      fetchAuditExport(filters, undefined, scope),
      import('../audit-csv'),
    ]);
    const filename = downloadAuditCsv(found.itens, new Date(), chain.rede ? lojaOf : undefined);
    return { filename, rows: found.itens.length };
  });
  const data = page.data;
  return (
    <main className="mx-auto w-full max-w-6xl space-y-4 p-4">
      <h1 className="text-2xl font-bold">Auditoria</h1>
      <p className="text-slate-700">
        Quem registrou ou revogou terminais, decidiu vendas guardadas, cancelou vendas do quiosque,
        saiu do modo quiosque, teve a senha bloqueada, entregou prêmios e exportou dados.
      </p>
      {chain.rede && <StoreFilter />}
      <Filters
        terminals={data?.terminais ?? []}
        onApply={(f) => {
          setFilters(f);
          setPagina(1);
        }}
      />
      <ExportBar
        total={data ? data.total : null}
        noun={['registro', 'registros']}
        updating={page.isFetching && !page.isPending}
        exporter={exporter}
      />
      <PagedList query={page} words={AUDIT_WORDS} onPage={setPagina}>
        {(itens) => <Entries items={itens} lojaOf={scope === 'todas' ? lojaOf : null} />}
      </PagedList>
    </main>
  );
}
