import { useId, useState, type FormEvent } from 'react';
import type { RewardPage } from '@/api/schemas';
import { Button } from '@/components/ui/button';
import { useHydrated } from '@/hooks/use-hydrated';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES, type PageSize } from '../filters';
import { formatInteger } from '@/lib/points';

/** "Mostrando 1–15 de 176"; no result, or a page past the end, says so instead. */
export function rangeText(page: Pick<RewardPage, 'from' | 'to' | 'total'>): string {
  if (page.total === 0) return 'Nenhum resultado.';
  if (page.from === null || page.to === null)
    return `Nenhum resultado nesta página; ${formatInteger(page.total)} no total.`;
  return `Mostrando ${formatInteger(page.from)}–${formatInteger(page.to)} de ${formatInteger(page.total)}`;
}

export const pageLabel = (page: Pick<RewardPage, 'current_page' | 'last_page'>) =>
  `Página ${formatInteger(page.current_page)} de ${formatInteger(Math.max(1, page.last_page))}`;

interface Props {
  page: RewardPage;
  /** The page the URL asks for (the one on screen may still be the previous one). */
  requested: number;
  onGo: (page: number) => void;
}

/**
 * Primeira / Anterior / Próxima / Última and a jump to a page, from the envelope's page
 * numbers (never its URLs). The words hide on a phone; the buttons keep them as their names.
 */
export function RewardsPagination({ page, requested, onGo }: Props) {
  const last = Math.max(1, page.last_page);
  const prev = Math.min(requested - 1, last); // from past the end, back to the last page
  const next = requested + 1;
  return (
    <nav
      aria-label="Paginação"
      className="flex flex-wrap items-center justify-center gap-x-3 gap-y-2 sm:justify-end"
    >
      <div className="flex items-center gap-2">
        <Button variant="secondary" disabled={requested <= 1} onClick={() => onGo(1)}>
          <span aria-hidden="true">«</span> <span className="max-sm:sr-only">Primeira</span>
        </Button>
        <Button variant="secondary" disabled={prev < 1} onClick={() => onGo(prev)}>
          <span aria-hidden="true">‹</span> <span className="max-sm:sr-only">Anterior</span>
        </Button>
      </div>
      <span className="tabular font-semibold whitespace-nowrap">{pageLabel(page)}</span>
      <div className="flex items-center gap-2">
        <Button variant="secondary" disabled={next > last} onClick={() => onGo(next)}>
          <span className="max-sm:sr-only">Próxima</span> <span aria-hidden="true">›</span>
        </Button>
        <Button variant="secondary" disabled={requested >= last} onClick={() => onGo(last)}>
          <span className="max-sm:sr-only">Última</span> <span aria-hidden="true">»</span>
        </Button>
      </div>
      {last > 1 && <PageJump last={last} current={requested} onGo={onGo} />}
    </nav>
  );
}

/** Reads a typed page number: the number, or the message the field shows. */
export function readPageNumber(text: string, last: number): number | string {
  const t = text.trim();
  if (!/^\d+$/.test(t) || Number(t) < 1 || Number(t) > last)
    return last === 1
      ? 'Esta lista tem só a página 1.'
      : `Digite uma página de 1 a ${formatInteger(last)}.`;
  return Number(t);
}

function PageJump({
  last,
  current,
  onGo,
}: {
  last: number;
  current: number;
  onGo: (page: number) => void;
}) {
  const id = useId();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const read = readPageNumber(text, last);
    if (typeof read === 'string') {
      setError(read);
      return;
    }
    setError(null);
    setText('');
    if (read !== current) onGo(read);
  };
  return (
    <form
      noValidate
      onSubmit={submit}
      aria-label="Ir para uma página"
      className="flex flex-wrap items-center gap-x-2 gap-y-1"
    >
      <label htmlFor={id} className="text-sm font-semibold text-slate-800">
        Ir para a página
      </label>
      <input
        id={id}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        size={4}
        maxLength={9}
        value={text}
        onChange={(e) => {
          setText(e.target.value.replace(/\D/g, ''));
          setError(null);
        }}
        {...errorAria(id, error)}
        className={`w-16 rounded-md border bg-white px-2 py-1.5 text-base text-slate-900 tabular ${
          error ? 'border-red-700' : 'border-slate-400'
        }`}
      />
      <Button type="submit" variant="secondary">
        Ir
      </Button>
      <InlineError id={id} error={error} />
    </form>
  );
}

/** "Itens por página" on one line, beside the result count. */
export function PageSizeSelect({
  value,
  onChange,
  error,
}: {
  value: PageSize | undefined;
  onChange: (size: PageSize | undefined) => void;
  error?: string | undefined;
}) {
  const id = useId();
  const hydrated = useHydrated();
  return (
    <div className="flex flex-wrap items-center justify-end gap-x-2 gap-y-1">
      <label htmlFor={id} className="text-sm font-semibold text-slate-800">
        Itens por página
      </label>
      <select
        id={id}
        disabled={!hydrated} // the page the server painted: React's once hydrated
        value={value ?? DEFAULT_PAGE_SIZE}
        {...errorAria(id, error)}
        onChange={(e) => {
          const size = Number(e.target.value) as PageSize;
          onChange(size === DEFAULT_PAGE_SIZE ? undefined : size);
        }}
        className={`rounded-md border bg-white px-2 py-1.5 text-base text-slate-900 ${
          error ? 'border-red-700' : 'border-slate-400'
        }`}
      >
        {PAGE_SIZES.map((size) => (
          <option key={size} value={size}>
            {size}
          </option>
        ))}
      </select>
      <InlineError id={id} error={error} className="text-right" />
    </div>
  );
}

/** What ties a control to its InlineError. */
const errorAria = (id: string, error: string | null | undefined) =>
  error ? { 'aria-invalid': true, 'aria-describedby': `${id}-error` } : {};

/** A control's error, under it on a line of its own. */
function InlineError({
  id,
  error,
  className = '',
}: {
  id: string;
  error: string | null | undefined;
  className?: string;
}) {
  if (!error) return null;
  return (
    <p id={`${id}-error`} className={`basis-full text-sm font-medium text-red-800 ${className}`}>
      <span aria-hidden="true">⚠ </span>
      {error}
    </p>
  );
}
