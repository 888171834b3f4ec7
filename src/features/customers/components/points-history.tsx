import { useId, useMemo, useState } from 'react';
import type { PointEntry } from '@/api/schemas';
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
              <tr>
                <th scope="col" className="px-2 py-0.5 text-left font-semibold text-slate-700">
                  Data
                </th>
                <th scope="col" className="px-2 py-0.5 text-left font-semibold text-slate-700">
                  Tipo
                </th>
                <th scope="col" className="px-2 py-0.5 text-right font-semibold text-slate-700">
                  Pontos
                </th>
                <th scope="col" className="px-2 py-0.5 text-right font-semibold text-slate-700">
                  Validade
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.map((e) => (
                <tr key={e.id_cartela_cliente} className="border-t border-slate-200">
                  <td className="tabular px-2 py-0.5">{formatDateTime(e.data)}</td>
                  <td className="px-2 py-0.5">{tipoLabel(e.tipo)}</td>
                  <td className="tabular px-2 py-0.5 text-right font-semibold">
                    {signedPoints(e)}
                  </td>
                  <td className="tabular px-2 py-0.5 text-right">
                    {e.data_validade ? formatDate(e.data_validade) : '—'}
                  </td>
                </tr>
              ))}
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
