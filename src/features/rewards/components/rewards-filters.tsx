import { useRef, type FormEvent, type KeyboardEvent } from 'react';
import type { RewardDateField } from '#contract/wire';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { DateField, dateTextToWire, wireToDateText } from '@/components/ui/date-field';
import { SelectField, TextField } from '@/components/ui/field';
import {
  DEFAULT_DATE_FIELD,
  hasActiveFilters,
  type FilterParam,
  type IgnoredParam,
  type RewardListFilters,
} from '../filters';
import { CATEGORY_LABELS } from '@/lib/rewards';
import {
  CATEGORY_OPTIONS,
  DATE_FIELD_LABELS,
  DATE_FIELD_OPTIONS,
  STATUS_LABELS,
  STATUS_OPTIONS,
} from './labels';
import { useDraft } from './use-draft';

export type FilterErrors = Partial<Record<FilterParam, string>>;

/** Search typing settles after this long without a key; Enter does not wait. */
export const SEARCH_DEBOUNCE_MS = 300;
const FIELD_DEBOUNCE_MS = 500;

/** A date field shows `dd/mm/aaaa` and commits the wire date; what is not a date waits. */
const DATE_DRAFT = {
  delayMs: FIELD_DEBOUNCE_MS,
  normalize: (text: string) => dateTextToWire(text) ?? '',
  isValid: (text: string) => dateTextToWire(text) !== null,
  format: wireToDateText,
};
/** The filters picked from a list: the reward's status and its category ('' is any). */
const ENUM_FILTERS: readonly {
  param: 'status' | 'categoria';
  label: string;
  order: readonly string[];
  labels: Readonly<Record<string, string>>;
}[] = [
  { param: 'status', label: 'Situação', order: STATUS_OPTIONS, labels: STATUS_LABELS },
  { param: 'categoria', label: 'Categoria', order: CATEGORY_OPTIONS, labels: CATEGORY_LABELS },
];

/**
 * A select's options in `order`, each in the words `labels` give it. (The manager screens'
 * ChoiceField does this too; the rewards route keeps to the chunks the counter already lists.)
 */
function Options({
  order,
  labels,
}: {
  order: readonly string[];
  labels: Readonly<Record<string, string>>;
}) {
  return order.map((v) => (
    <option key={v} value={v}>
      {labels[v]}
    </option>
  ));
}
const isCustomerId = (s: string) => /^\s*(?:[1-9]\d{0,8})?\s*$/.test(s);

interface Props {
  filters: RewardListFilters;
  errors: FilterErrors;
  ignored: readonly IgnoredParam[];
  /** Applies a change to the filters in the URL (a new history entry). */
  onChange: (change: Partial<RewardListFilters>) => void;
  onClear: () => void;
  /** Rewrites the URL without the ignored values (replacing the history entry). */
  onDropIgnored: () => void;
}

export function RewardsFilters({
  filters,
  errors,
  ignored,
  onChange,
  onClear,
  onDropIgnored,
}: Props) {
  const q = useDraft(filters.q ?? '', (v) => onChange({ q: v || undefined }), {
    delayMs: SEARCH_DEBOUNCE_MS,
  });
  const customer = useDraft(
    filters.id_cliente === undefined ? '' : String(filters.id_cliente),
    (v) => onChange({ id_cliente: v ? Number(v) : undefined }),
    { delayMs: FIELD_DEBOUNCE_MS, isValid: isCustomerId },
  );
  const start = useDraft(
    filters.data_inicio ?? '',
    (v) => onChange({ data_inicio: v || undefined }),
    DATE_DRAFT,
  );
  const end = useDraft(
    filters.data_fim ?? '',
    (v) => onChange({ data_fim: v || undefined }),
    DATE_DRAFT,
  );

  // The period's two date fields: the label, the draft and its error.
  const period = [
    ['De', start, errors.data_inicio],
    ['Até', end, errors.data_fim],
  ] as const;

  const searchRef = useRef<HTMLInputElement>(null);
  const drafts = [q, customer, start, end];
  const anythingToClear = hasActiveFilters(filters) || drafts.some((d) => d.value.trim() !== '');
  const clear = () => {
    onClear();
    for (const d of drafts) d.setValue(''); // also what was typed and not yet applied
    searchRef.current?.focus(); // the button is about to be disabled
  };

  const flushAll = () => {
    for (const d of drafts) d.flush();
  };
  const onEnter = (flush: () => void) => (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== 'Enter') return;
    e.preventDefault();
    flush();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    flushAll();
  };

  return (
    <form
      role="search"
      aria-label="Filtros dos prêmios"
      noValidate
      onSubmit={submit}
      className="flex flex-col gap-3 rounded-lg border border-slate-300 bg-white p-4"
    >
      <IgnoredFilters ignored={ignored} onDropIgnored={onDropIgnored} />

      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <TextField
          ref={searchRef}
          label="Buscar prêmio"
          type="search"
          placeholder="Nome do prêmio"
          autoComplete="off"
          spellCheck={false}
          value={q.value}
          onChange={(e) => q.setValue(e.target.value)}
          onKeyDown={onEnter(q.flush)}
          error={errors.q}
        />
        {ENUM_FILTERS.map(({ param, label, order, labels }) => (
          <SelectField
            key={param}
            label={label}
            value={filters[param] ?? ''}
            onChange={(e) => onChange({ [param]: e.target.value || undefined })}
            error={errors[param]}
          >
            <option value="">Todas</option>
            <Options order={order} labels={labels} />
          </SelectField>
        ))}
        <TextField
          label="Código do cliente"
          inputMode="numeric"
          autoComplete="off"
          placeholder="Todos"
          value={customer.value}
          onChange={(e) => customer.setValue(e.target.value)}
          onKeyDown={onEnter(customer.flush)}
          error={customer.valid ? errors.id_cliente : 'Use só números (o código do cliente).'}
        />
        <DateFieldSelect
          value={filters.filtrar_por}
          error={errors.filtrar_por}
          onChange={(filtrar_por) => onChange({ filtrar_por })}
        />
        {period.map(([label, draft, error]) => (
          <DateField
            key={label}
            label={label}
            value={draft.value}
            onValueChange={draft.setValue}
            onKeyDown={onEnter(draft.flush)}
            error={error}
          />
        ))}
        {/* lined up with the inputs (below the labels), whatever message a field shows */}
        <div className="flex items-start pt-6">
          <Button variant="secondary" onClick={clear} disabled={!anythingToClear}>
            Limpar filtros
          </Button>
        </div>
      </div>
    </form>
  );
}

/** The filters of the URL that do not hold, and the way to take them out of it. */
function IgnoredFilters({ ignored, onDropIgnored }: Pick<Props, 'ignored' | 'onDropIgnored'>) {
  if (ignored.length === 0) return null;
  return (
    <Alert tone="warning" title="Alguns filtros do endereço não valem e foram ignorados:">
      <ul className="list-disc pl-5">
        {ignored.map((item) => (
          <li key={item.param}>{item.message}</li>
        ))}
      </ul>
      <div>
        <Button variant="secondary" onClick={onDropIgnored}>
          Tirar do endereço
        </Button>
      </div>
    </Alert>
  );
}

/** Which of a reward's dates "De" and "Até" filter by (the default is not written in the URL). */
function DateFieldSelect({
  value,
  error,
  onChange,
}: {
  value: RewardDateField | undefined;
  error: string | undefined;
  onChange: (field: RewardDateField | undefined) => void;
}) {
  return (
    <SelectField
      label="Filtrar datas por"
      value={value ?? DEFAULT_DATE_FIELD}
      onChange={(e) => {
        const v = e.target.value as RewardDateField;
        onChange(v === DEFAULT_DATE_FIELD ? undefined : v);
      }}
      error={error}
    >
      <Options order={DATE_FIELD_OPTIONS} labels={DATE_FIELD_LABELS} />
    </SelectField>
  );
}
