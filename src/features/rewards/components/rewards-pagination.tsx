import type { RewardPage } from '@/api/schemas';
import { Button } from '@/components/ui/button';

const count = new Intl.NumberFormat('pt-BR');

/** "Mostrando 1–15 de 176"; a page past the end shows none of them. */
export function rangeText(page: Pick<RewardPage, 'from' | 'to' | 'total'>): string {
  if (page.from === null || page.to === null)
    return `Nenhum nesta página, de ${count.format(page.total)}`;
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
