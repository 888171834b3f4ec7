import { AUDIT_ACTIONS, type AuditAction, type AuditEntry } from '#contract/api/auditoria';
import type { ListScope } from '@/api/rede';
import { FilterBar, useFilterDraft, type DraftRead } from '@/components/filter-bar';
import { ExportBar, ListTable, useCsvExport, usePagedFilters } from '@/components/list-parts';
import { PerStoreList, StoreFilter, type ChainStore } from '@/components/store-filter';
import type { FitColumn } from '@/components/ui/fit-table';
import { DateField, dateTextToWire } from '@/components/ui/date-field';
import { ChoiceField, choicesOf } from '@/components/ui/choice-field';
import { PagedList, type PagedListWords } from '@/components/ui/list-states';
import { auditPageQuery, fetchAuditExport, type AuditFilters } from '../api/auditoria';
import { ACTION_LABELS, actionLabel, detailsText, whenText } from '../labels';

const NO_FILTERS: AuditFilters = { de: null, ate: null, acao: null, terminal: null };

const AUDIT_WORDS: PagedListWords = {
  loading: 'Carregando a auditoria…',
  failed: 'Não foi possível carregar a auditoria.',
  empty: 'Nenhum registro com estes filtros.',
  pages: 'Páginas da auditoria',
};

type Draft = { de: string; ate: string; acao: string; terminal: string };
const NO_DRAFT: Draft = { de: '', ate: '', acao: '', terminal: '' };

/** The period's two date fields: the draft's key and the label. */
const PERIOD_FIELDS = [
  ['de', 'De'],
  ['ate', 'Até'],
] as const;

/** The draft's filters, or what is wrong with it (by field). */
function readDraft(d: Draft): DraftRead<Draft, AuditFilters> {
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
  const { draft, errors, set, apply } = useFilterDraft(NO_DRAFT, readDraft, onApply);
  return (
    <FilterBar label="Filtros da auditoria" onApply={apply}>
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
    </FilterBar>
  );
}

/** The trail's columns (every store's list adds the store's first). */
const ENTRY_COLUMNS: readonly FitColumn[] = [
  { header: 'Quando', cell: 'whitespace-nowrap tabular-nums' },
  { header: 'Terminal' },
  { header: 'Ação', cell: 'font-semibold' },
  { header: 'Detalhes', cell: 'min-w-48' },
  { header: 'Requisição', cell: 'font-mono text-xs break-all text-slate-700' },
];

const entryCells = (e: AuditEntry) => [
  whenText(e.quando),
  <>
    {e.terminal ? (e.terminal.nome ?? `nº ${e.terminal.id}`) : 'Linha de comando'}
    {e.papel && e.terminal && <span className="block text-slate-700">{e.papel}</span>}
  </>,
  actionLabel(e.acao),
  detailsText(e),
  e.requisicao ?? '—',
];

/** "Auditoria": who did what from which terminal, filtered, a page at a time, and its CSV. */
export const AuditScreen = () => <PerStoreList list={AuditList} />;

function AuditList({ scope, chain }: { scope: ListScope; chain: ChainStore }) {
  const { filters, page, setPagina, apply } = usePagedFilters(NO_FILTERS, (f, n) =>
    auditPageQuery(f, n, scope),
  );
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
  return (
    <main className="mx-auto w-full max-w-6xl space-y-4 p-4">
      <h1 className="text-2xl font-bold">Auditoria</h1>
      <p className="text-slate-700">
        Quem registrou ou revogou terminais, decidiu vendas guardadas, cancelou vendas do quiosque,
        saiu do modo quiosque, teve a senha bloqueada, entregou prêmios e exportou dados.
      </p>
      {chain.rede && <StoreFilter />}
      <Filters terminals={page.data?.terminais ?? []} onApply={apply} />
      <ExportBar page={page} noun={['registro', 'registros']} exporter={exporter} />
      <PagedList query={page} words={AUDIT_WORDS} onPage={setPagina}>
        {(itens) => (
          <ListTable
            label="Registros de auditoria"
            lojaOf={scope === 'todas' ? lojaOf : null}
            rowHeader={2}
            columns={ENTRY_COLUMNS}
            items={itens}
            cells={entryCells}
          />
        )}
      </PagedList>
    </main>
  );
}
