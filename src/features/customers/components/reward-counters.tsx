import type { Customer } from '@/api/schemas';
import { rewardCounterKey, type RewardCategory, type RewardCounterPrefix } from '#contract/wire';
import { formatPoints } from '@/lib/points';

/** Counter grid: rows are statuses, columns categories (in the order the counter shows them). */
const COUNTER_ROWS: readonly { prefix: RewardCounterPrefix; label: string }[] = [
  { prefix: 'conquistados', label: 'Conquistados' },
  { prefix: 'pendente_resgate', label: 'Pendentes' },
  { prefix: 'resgatado', label: 'Resgatados' },
  { prefix: 'expirado', label: 'Expirados' },
];
// Column labels carry soft hyphens (\u00ad): where the panel is narrow (1024 px screens) a
// header breaks into two lines instead of pushing the table into a sideways scroll.
const COUNTER_COLUMNS: readonly { category: RewardCategory; label: string }[] = [
  { category: 'premio_fidelidade', label: 'Fi\u00adde\u00adli\u00adda\u00adde' },
  { category: 'brinde_roleta', label: 'Roleta' },
  { category: 'premio_surpresa', label: 'Sur\u00adpre\u00adsa' },
  { category: 'premio_campanha', label: 'Cam\u00adpa\u00adnha' },
  { category: 'premio_game', label: 'Game' },
];

/** Rewards waiting to be handed over, summed over the grid's columns. */
export function pendingRewardCount(customer: Customer): number {
  return COUNTER_COLUMNS.reduce(
    (sum, c) => sum + customer[rewardCounterKey('pendente_resgate', c.category)],
    0,
  );
}

/** The customer's 20 reward counters: a status a row, a category a column. */
export function RewardCounters({ customer, pending }: { customer: Customer; pending: number }) {
  return (
    // In a narrow panel (1024 px screens) the grid takes a smaller type; should it
    // still be wider than the panel, it scrolls inside (by touch or, focused, by the arrow
    // keys) instead of spilling out of the panel.
    <div
      role="region"
      aria-label="Contadores de prêmios"
      tabIndex={0}
      className="@container overflow-x-auto"
    >
      <table className="w-full border-collapse text-xs @[28rem]:text-sm">
        <caption className="mb-1 text-left">
          <span className="font-bold">Prêmios</span>
          {pending > 0 && (
            <span className="ml-2 font-semibold text-amber-900">
              <span aria-hidden="true">★ </span>
              {pending === 1 ? '1 pendente de resgate' : `${pending} pendentes de resgate`}
            </span>
          )}
        </caption>
        <thead>
          <tr className="border-b border-slate-300">
            <th scope="col" className="py-0.5 pr-2 text-left font-semibold text-slate-700">
              <span className="sr-only">Situação</span>
            </th>
            {COUNTER_COLUMNS.map((c) => (
              <th
                key={c.category}
                scope="col"
                className="px-1 py-0.5 text-right align-bottom font-semibold text-slate-700"
              >
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {COUNTER_ROWS.map((r) => (
            <tr key={r.prefix} className="border-b border-slate-200 last:border-b-0">
              <th
                scope="row"
                className="py-0 pr-2 text-left font-semibold whitespace-nowrap text-slate-800"
              >
                {r.label}
              </th>
              {COUNTER_COLUMNS.map((c) => {
                const n = customer[rewardCounterKey(r.prefix, c.category)];
                const highlight = r.prefix === 'pendente_resgate' && n > 0;
                return (
                  <td
                    key={c.category}
                    className={`tabular px-1 py-0 text-right ${
                      n === 0 ? 'text-slate-600' : 'font-bold text-slate-900'
                    } ${highlight ? 'bg-amber-100' : ''}`}
                  >
                    {formatPoints(n)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
