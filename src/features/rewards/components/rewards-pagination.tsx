import { useId } from 'react';
import type { RewardPage } from '@/api/schemas';
import { Button } from '@/components/ui/button';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES, type PageSize } from '../filters';

const count = new Intl.NumberFormat('pt-BR');

/** "Mostrando 1–15 de 176"; no result, or a page past the end, says so instead. */
export function rangeText(page: Pick<RewardPage, 'from' | 'to' | 'total'>): string {
  if (page.total === 0) return 'Nenhum resultado.';
  if (page.from === null || page.to === null)
    return `Nenhum resultado nesta página; ${count.format(page.total)} no total.`;
  return `Mostrando ${count.format(page.from)}–${count.format(page.to)} de ${count.format(page.total)}`;
}

export const pageLabel = (page: Pick<RewardPage, 'current_page' | 'last_page'>) =>
  `Página ${count.format(page.current_page)} de ${count.format(Math.max(1, page.last_page))}`;

interface Props {
  page: RewardPage;
  /** The page the URL asks for (the one on screen may still be the previous one). */
  requested: number;
  onGo: (page: number) => void;
}

/** Anterior / Próxima from the envelope's page numbers (never its URLs). */
export function RewardsPagination({ page, requested, onGo }: Props) {
  const last = Math.max(1, page.last_page);
  const prev = Math.min(requested - 1, last); // from past the end, back to the last page
  const next = requested + 1;
  return (
    <nav aria-label="Paginação" className="flex flex-wrap items-center justify-end gap-3">
      <Button variant="secondary" disabled={prev < 1} onClick={() => onGo(prev)}>
        <span aria-hidden="true">←</span> Anterior
      </Button>
      <span className="tabular font-semibold whitespace-nowrap">{pageLabel(page)}</span>
      <Button variant="secondary" disabled={next > last} onClick={() => onGo(next)}>
        Próxima <span aria-hidden="true">→</span>
      </Button>
    </nav>
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
  return (
    <div className="flex flex-wrap items-center justify-end gap-x-2 gap-y-1">
      <label htmlFor={id} className="text-sm font-semibold text-slate-800">
        Itens por página
      </label>
      <select
        id={id}
        value={value ?? DEFAULT_PAGE_SIZE}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
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
      {error && (
        <p id={`${id}-error`} className="basis-full text-right text-sm font-medium text-red-800">
          <span aria-hidden="true">⚠ </span>
          {error}
        </p>
      )}
    </div>
  );
}
