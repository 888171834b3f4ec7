import { useState } from 'react';
import {
  ALERT_STATES,
  RULES,
  type AlertState,
  type AlertWire,
  type RuleCode,
} from '#contract/api/vigilancia';
import type { ListScope } from '@/api/rede';
import { FilterBar, useFilterDraft, type DraftRead } from '@/components/filter-bar';
import { ExportBar, ListTable, useCsvExport, usePagedFilters } from '@/components/list-parts';
import { PerStoreList, StoreFilter, type ChainStore } from '@/components/store-filter';
import { Button } from '@/components/ui/button';
import { DateField, dateTextToWire } from '@/components/ui/date-field';
import { ChoiceField, choicesOf } from '@/components/ui/choice-field';
import { TextField } from '@/components/ui/field';
import { PagedList, type PagedListWords } from '@/components/ui/list-states';
import type { FitColumn } from '@/components/ui/fit-table';
import { formatBRL } from '@/lib/money';
import { useLocation } from '@/lib/router';
import { formatInteger } from '@/lib/points';
import { alertPageQuery, fetchAlertExport, type AlertFilters } from '../api/alerts';
import { dayText, STATE_LABELS, whenText } from '../labels';
import { AlertDetail } from './alert-detail';
import { RulesPanel } from './rules-panel';
import { WebhookDeliveries } from './webhook-deliveries';

/** The open alerts, of the rule the link names (`?regra=…`, from the dashboard) if any. */
function initialFilters(search: URLSearchParams): AlertFilters {
  const asked = search.get('regra');
  const regra = RULES.find((r) => r.codigo === asked)?.codigo ?? null;
  return { regra, estado: 'aberto', dia: null, celular: null };
}

const ALERT_WORDS: PagedListWords = {
  loading: 'Carregando os alertas…',
  failed: 'Não foi possível carregar os alertas.',
  empty: 'Nenhum alerta com estes filtros.',
  pages: 'Páginas dos alertas',
};

type Draft = { regra: string; estado: string; dia: string; celular: string };

/** The draft's filters, or what is wrong with it (by field). */
function readDraft(d: Draft): DraftRead<Draft, AlertFilters> {
  const dia = d.dia.trim() === '' ? null : dateTextToWire(d.dia);
  const celular = d.celular.replace(/\D/g, '');
  const errors: Partial<Draft> = {};
  if (d.dia.trim() !== '' && dia === null) errors.dia = 'Data inválida: use dd/mm/aaaa.';
  if (celular !== '' && (celular.length < 10 || celular.length > 13)) {
    errors.celular = 'Celular com DDD.';
  }
  if (Object.keys(errors).length > 0) return { errors };
  return {
    filters: {
      regra: d.regra === '' ? null : (d.regra as RuleCode),
      estado: d.estado === '' ? null : (d.estado as AlertState),
      dia,
      celular: celular === '' ? null : celular,
    },
  };
}

function Filters({
  initial,
  onApply,
}: {
  initial: AlertFilters;
  onApply: (f: AlertFilters) => void;
}) {
  const { draft, errors, set, apply } = useFilterDraft(
    { regra: initial.regra ?? '', estado: 'aberto', dia: '', celular: '' },
    readDraft,
    onApply,
  );
  return (
    <FilterBar label="Filtros dos alertas" onApply={apply}>
      <ChoiceField
        label="Regra"
        className="w-64"
        value={draft.regra}
        first="Todas"
        choices={RULES.map((r) => ({ value: r.codigo, text: `${r.numero}. ${r.nome}` }))}
        onValue={set('regra')}
      />
      <ChoiceField
        label="Estado"
        className="w-40"
        value={draft.estado}
        first="Todos"
        choices={choicesOf(ALERT_STATES, STATE_LABELS)}
        onValue={set('estado')}
      />
      <DateField
        label="Dia"
        className="w-36"
        value={draft.dia}
        error={errors.dia}
        onValueChange={set('dia')}
      />
      <TextField
        label="Celular do cliente"
        className="w-44"
        inputMode="tel"
        value={draft.celular}
        error={errors.celular}
        onChange={(e) => set('celular')(e.target.value)}
      />
    </FilterBar>
  );
}

/** The alerts' columns (every store's list adds the store's first). */
const ALERT_COLUMNS: readonly FitColumn[] = [
  { header: 'Quando', cell: 'whitespace-nowrap tabular-nums' },
  { header: 'Regra', cell: 'font-semibold' },
  { header: 'Resumo', cell: 'min-w-56' },
  { header: 'Terminal · cliente' },
  { header: 'Estado' },
  { header: 'Evidências', cell: 'whitespace-nowrap' },
];

/** An alert's cells; its "Ver nº" button opens it (`onOpen`). */
const alertCells = (a: AlertWire, onOpen: (a: AlertWire) => void) => [
  <>
    {whenText(a.criado_em)}
    <span className="block text-slate-700">dia {dayText(a.dia)}</span>
  </>,
  a.regra_nome,
  <>
    {a.resumo}
    {a.valor !== null && <span className="block tabular-nums">{formatBRL(a.valor)}</span>}
  </>,
  <>
    {a.terminal_nome ?? a.terminal ?? 'Vários terminais'}
    {a.cliente && <span className="block tabular-nums">{a.cliente}</span>}
  </>,
  STATE_LABELS[a.estado],
  <Button size="sm" variant="secondary" onClick={() => onOpen(a)}>
    Ver nº {a.id}
  </Button>,
];

/** "Vigilância": alerts raised by the rules over the store's own data, their evidence and decision. */
export const VigilanciaScreen = () => <PerStoreList list={VigilanciaList} />;

/** The rules and the webhook's deliveries of one store (every store's: choose one first). */
function StorePanel({ scope, rules }: { scope: ListScope; rules: boolean }) {
  if (scope === 'todas') {
    return (
      <p className="rounded-md border border-slate-300 bg-white p-3">
        Escolha uma loja para ver{' '}
        {rules ? 'as regras e os limites dela' : 'as entregas do webhook dela'}.
      </p>
    );
  }
  return rules ? (
    <RulesPanel loja={scope} readOnly={scope !== null} />
  ) : (
    <WebhookDeliveries loja={scope} />
  );
}

/** A header button that shows or hides a panel: `label` closed, then open. */
function Toggle({
  open,
  onToggle,
  label,
  className,
}: {
  open: boolean;
  onToggle: (open: boolean) => void;
  label: [closed: string, open: string];
  className?: string;
}) {
  return (
    <Button
      size="sm"
      variant="ghost"
      className={className}
      aria-expanded={open}
      onClick={() => onToggle(!open)}
    >
      {open ? label[1] : label[0]}
    </Button>
  );
}

function VigilanciaList({ scope, chain }: { scope: ListScope; chain: ChainStore }) {
  const { search } = useLocation();
  const { filters, page, setPagina, apply } = usePagedFilters(
    () => initialFilters(search),
    (f, n) => alertPageQuery(f, n, scope),
  );
  const [opened, setOpened] = useState<{ id: number; loja: number } | null>(null);
  const [showRules, setShowRules] = useState(false);
  const [showWebhook, setShowWebhook] = useState(false);
  const exporter = useCsvExport(async () => {
    const [found, { downloadAlertCsv }] = await Promise.all([
      fetchAlertExport(filters, scope),
      import('../vigilancia-csv'),
    ]);
    const names = chain.rede ? chain.nameOf : undefined;
    return { filename: downloadAlertCsv(found.itens, new Date(), names), rows: found.itens.length };
  });
  const data = page.data;
  const open = data ? Object.values(data.abertos).reduce((n: number, x) => n + Number(x), 0) : null;
  return (
    <main className="mx-auto w-full max-w-6xl space-y-4 p-4">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-bold">Vigilância</h1>
        <Toggle
          open={showRules}
          onToggle={setShowRules}
          label={['Regras e limites', 'Fechar as regras']}
          className="ml-auto"
        />
        <Toggle
          open={showWebhook}
          onToggle={setShowWebhook}
          label={['Webhook', 'Fechar o webhook']}
        />
      </div>
      <p className="text-slate-700">
        Lançamentos que fogem do padrão da loja: sem venda do PDV, com outro valor, o mesmo celular
        muitas vezes, fora do horário, prêmios de saldo suspeito e vendas estornadas depois de
        pontuadas.
        {open !== null &&
          ` ${formatInteger(open)} ${open === 1 ? 'alerta aberto' : 'alertas abertos'}${scope === 'todas' ? ' na rede' : ''}.`}
      </p>
      {chain.rede && <StoreFilter />}
      {showRules && <StorePanel scope={scope} rules />}
      {showWebhook && <StorePanel scope={scope} rules={false} />}
      <Filters
        initial={filters}
        onApply={(f) => {
          apply(f);
          setOpened(null);
        }}
      />
      <ExportBar page={page} noun={['alerta', 'alertas']} exporter={exporter} />
      {opened !== null && (
        <AlertDetail
          id={opened.id}
          onClose={() => setOpened(null)}
          loja={chain.rede ? opened.loja : null}
          readOnly={chain.rede}
        />
      )}
      <PagedList query={page} words={ALERT_WORDS} onPage={setPagina}>
        {(itens) => (
          <ListTable
            label="Alertas"
            lojaOf={scope === 'todas' ? (a) => chain.nameOf(a.loja) : null}
            rowHeader={1}
            columns={ALERT_COLUMNS}
            items={itens}
            cells={(a) => alertCells(a, (x) => setOpened({ id: x.id, loja: x.loja }))}
          />
        )}
      </PagedList>
    </main>
  );
}
