import { useId, useState } from 'react';
import type { PointEntry } from '@/api/schemas';
import { daysUntil, formatDate } from '@/lib/dates';
import { compareWire } from '@/lib/wire-order';
import { formatPointsLabel } from '@/lib/points';

const VISIBLE_EXPIRATIONS = 3;

const byValidity = (a: PointEntry, b: PointEntry) =>
  compareWire(a.data_validade ?? '9999', b.data_validade ?? '9999') ||
  a.id_cartela_cliente - b.id_cartela_cliente;

function whenText(date: string, today: string): string | null {
  const days = daysUntil(date, today);
  if (Number.isNaN(days)) return null;
  if (days < 0) return 'vencido';
  if (days === 0) return 'hoje';
  if (days === 1) return 'amanhã';
  return `em ${days} dias`;
}

/** The points about to expire, soonest first: the first few, the rest on request. */
export function PointExpirations({
  entries,
  today,
}: {
  entries: readonly PointEntry[];
  today: string;
}) {
  const [showAll, setShowAll] = useState(false);
  const listId = useId();
  const headingId = useId();
  const sorted = [...entries].sort(byValidity);
  const shown = showAll ? sorted : sorted.slice(0, VISIBLE_EXPIRATIONS);
  return (
    <div className="min-w-0">
      <h3 id={headingId} className="text-sm font-bold">
        Próximos vencimentos
      </h3>
      {sorted.length === 0 ? (
        <p className="text-sm text-slate-700">Nenhum ponto a vencer.</p>
      ) : (
        <>
          <ol
            id={listId}
            aria-labelledby={headingId}
            className={`text-sm ${showAll ? 'max-h-32 overflow-y-auto' : ''}`}
            tabIndex={showAll ? 0 : undefined}
          >
            {shown.map((e) => {
              const when = e.data_validade ? whenText(e.data_validade, today) : null;
              return (
                <li key={e.id_cartela_cliente} className="flex flex-wrap gap-x-2">
                  <span className="tabular font-semibold whitespace-nowrap">
                    {formatPointsLabel(e.pontos)}
                  </span>
                  <span className="text-slate-700">
                    {e.data_validade ? (
                      <>
                        vencem em <span className="tabular">{formatDate(e.data_validade)}</span>
                        {when && <span className="whitespace-nowrap"> ({when})</span>}
                      </>
                    ) : (
                      'sem validade informada'
                    )}
                  </span>
                </li>
              );
            })}
          </ol>
          {sorted.length > VISIBLE_EXPIRATIONS && (
            <button
              type="button"
              aria-expanded={showAll}
              aria-controls={listId}
              onClick={() => setShowAll((v) => !v)}
              className="mt-0.5 rounded text-sm font-semibold text-blue-800 underline underline-offset-2"
            >
              {showAll ? 'Mostrar só os próximos' : `Ver todas (${sorted.length})`}
            </button>
          )}
        </>
      )}
    </div>
  );
}
