import { useId, useMemo, useState } from 'react';
import type { PointEntry } from '@/api/schemas';
import { BodyRows, HeaderRow, type Column } from '@/components/ui/column-rows';
import { formatDate, formatDateTime } from '@/lib/dates';
import { compareWire } from '@/lib/wire-order';
import { formatInteger, formatPoints } from '@/lib/points';

const newestFirst = (a: PointEntry, b: PointEntry) =>
  compareWire(b.data, a.data) || b.id_cartela_cliente - a.id_cartela_cliente;

function tipoLabel(tipo: string): string {
  const t = tipo.toLowerCase();
  if (t === 'credito' || t === 'crédito') return 'Crédito';
  if (t === 'debito' || t === 'débito') return 'Débito';
  return tipo;
}

function signedPoints(entry: PointEntry): string {
  const t = entry.tipo.toLowerCase();
  if (t === 'credito' || t === 'crédito') return `+${formatPoints(Math.abs(entry.pontos))}`;
  if (t === 'debito' || t === 'débito') return `−${formatPoints(Math.abs(entry.pontos))}`;
  return formatPoints(entry.pontos);
}

/** The history's columns (figures to the right). */
const HISTORY_COLUMNS: readonly Column<PointEntry>[] = [
  { header: 'Data', th: 'text-left', td: 'tabular', cell: (e) => formatDateTime(e.data) },
  { header: 'Tipo', th: 'text-left', cell: (e) => tipoLabel(e.tipo) },
  {
    header: 'Pontos',
    th: 'text-right',
    td: 'tabular text-right font-semibold',
    cell: signedPoints,
  },
  {
    header: 'Validade',
    th: 'text-right',
    td: 'tabular text-right',
    cell: (e) => (e.data_validade ? formatDate(e.data_validade) : '—'),
  },
];

/** History rows rendered at first, and added by each "Mostrar mais". */
const HISTORY_PAGE = 50;
/** The customer's points history, newest first, scrolling inside its own box. */
export function PointsHistory({ entries }: { entries: readonly PointEntry[] | undefined }) {
  const headingId = useId();
  const sorted = useMemo(() => (entries ? [...entries].sort(newestFirst) : []), [entries]);
  // A customer may have thousands of entries: the newest page renders, more on request.
  const [limit, setLimit] = useState(HISTORY_PAGE);
  const shown = sorted.length > limit ? sorted.slice(0, limit) : sorted;
  const more = Math.min(HISTORY_PAGE, sorted.length - shown.length);
  return (
    <div className="flex min-h-0 flex-col">
      <h3 id={headingId} className="mb-1 text-sm font-bold">
        Histórico de pontos
      </h3>
      {sorted.length === 0 ? (
        <p className="text-sm text-slate-700">Nenhum lançamento de pontos ainda.</p>
      ) : (
        <div
          role="region"
          aria-labelledby={headingId}
          tabIndex={0}
          className="max-h-32 min-h-0 overflow-y-auto rounded-md border border-slate-200"
        >
          <table className="w-full border-collapse text-xs @[28rem]:text-sm">
            <thead className="sticky top-0 bg-slate-100">
              <HeaderRow
                columns={HISTORY_COLUMNS}
                className="px-2 py-0.5 font-semibold text-slate-700"
              />
            </thead>
            <tbody>
              <BodyRows
                columns={HISTORY_COLUMNS}
                rows={shown}
                rowKey={(e) => e.id_cartela_cliente}
                row="border-t border-slate-200"
                cell="px-2 py-0.5"
              />
            </tbody>
          </table>
          {more > 0 && (
            <p className="flex flex-wrap items-center gap-x-2 border-t border-slate-200 px-2 py-1 text-xs @[28rem]:text-sm">
              <span className="text-slate-700">
                {formatInteger(shown.length)} de {formatInteger(sorted.length)}
              </span>
              <button
                type="button"
                onClick={() => setLimit((n) => n + HISTORY_PAGE)}
                className="rounded font-semibold text-blue-800 underline underline-offset-2"
              >
                Mostrar mais {more}
              </button>
            </p>
          )}
        </div>
      )}
    </div>
  );
}
