import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import type { RewardStatus } from '#contract/wire';
import type { RewardFilters } from '@/api/requests';
import { useStatusTotals } from '../api/status-totals';
import { STATUS_LABELS, STATUS_OPTIONS } from './labels';
import { formatInteger } from '@/lib/points';

const BAR: Record<RewardStatus, string> = {
  pendente_resgate: 'bg-amber-500',
  resgatado: 'bg-emerald-600',
  expirado: 'bg-slate-500',
  estornado: 'bg-red-600',
};

/**
 * A status's share as a bar. Its width is set through the DOM, not a `style` attribute: the
 * page's CSP (style-src 'self') drops style attributes from the page the app server paints,
 * and React keeps a painted attribute as it finds it.
 */
function ShareBar({ share, className }: { share: number; className: string }) {
  const bar = useRef<HTMLSpanElement>(null);
  useLayoutEffect(() => {
    bar.current!.style.width = `${(share * 100).toFixed(1)}%`;
  }, [share]);
  return <span ref={bar} className={`block h-2 w-0 rounded-full ${className}`} />;
}

interface Props {
  /** The list's filters; the totals are of these without status. */
  filters: RewardFilters;
  /** The status the list is filtered by, if any. */
  selected: RewardStatus | undefined;
  /** Filters the list by a status; the selected one again removes the filter. */
  onPick: (status: RewardStatus | undefined) => void;
}

/**
 * The total per status for the current filters other than status, each a button that filters
 * by it, with a bar proportional to its share so the mix is seen at a glance. The totals are
 * read here, not in the screen, so their answers re-render only this section.
 */
export function StatusTotals({ filters, selected, onPick }: Props) {
  // Requested after the list's own request, one a task: starting a request is a fetch with
  // its abort signals, and five in one task were a long task on a slow phone. Unmounting or
  // new filters cancel them with the list.
  const [started, setStarted] = useState(0);
  useEffect(() => {
    if (started >= STATUS_OPTIONS.length) return;
    const timer = setTimeout(() => setStarted((n) => n + 1), 0);
    return () => clearTimeout(timer);
  }, [started]);
  const totals = useStatusTotals(filters, STATUS_OPTIONS, started);
  const titleId = useId();
  const known = STATUS_OPTIONS.every((s) => totals.totals[s] !== undefined);
  const sum = STATUS_OPTIONS.reduce((n, s) => n + (totals.totals[s] ?? 0), 0);
  return (
    <section aria-labelledby={titleId} className="flex flex-col gap-2">
      <h2 id={titleId} className="sr-only">
        Totais por situação
      </h2>
      <ul
        aria-busy={totals.stale || totals.pending || undefined}
        className={`grid grid-cols-2 gap-2 lg:grid-cols-4 ${totals.stale ? 'opacity-60' : ''}`}
      >
        {STATUS_OPTIONS.map((status) => {
          const n = totals.totals[status];
          const share = known && sum > 0 && n !== undefined ? n / sum : 0;
          const pressed = selected === status;
          return (
            <li key={status}>
              <button
                type="button"
                aria-pressed={pressed}
                onClick={() => onPick(pressed ? undefined : status)}
                className={`flex h-full w-full flex-col justify-between gap-1 rounded-lg border bg-white p-3 text-left transition-colors hover:bg-slate-50 ${
                  pressed ? 'border-blue-700 ring-2 ring-blue-700' : 'border-slate-300'
                }`}
              >
                <span className="flex items-baseline justify-between gap-2">
                  <span className="text-sm font-semibold text-slate-800">
                    {STATUS_LABELS[status]}
                  </span>
                  {pressed && (
                    <span aria-hidden="true" className="text-xs font-semibold text-blue-800">
                      filtrando
                    </span>
                  )}
                </span>
                <span className="flex items-baseline gap-2">
                  <span className="text-2xl font-bold text-slate-900 tabular">
                    {n === undefined ? (totals.failed ? '—' : '…') : formatInteger(n)}
                  </span>
                  {known && sum > 0 && (
                    <span className="text-sm text-slate-700 tabular">
                      {formatInteger(share * 100)}%
                    </span>
                  )}
                </span>
                <span aria-hidden="true" className="block h-2 w-full rounded-full bg-slate-200">
                  <ShareBar share={share} className={BAR[status]} />
                </span>
              </button>
            </li>
          );
        })}
      </ul>
      {totals.failed && (
        <p className="text-sm text-red-800">
          <span aria-hidden="true">⚠ </span>Não foi possível ler os totais por situação.
        </p>
      )}
    </section>
  );
}
