import { useId } from 'react';
import type { Customer } from '@/api/schemas';
import { REWARD_CATEGORIES, rewardCounterKey } from '#contract/wire';
import { Button } from '@/components/ui/button';
import { daysUntil, formatDate, todayInSaoPaulo } from '@/lib/dates';
import { compareWire } from '@/lib/wire-order';
import { formatInteger } from '@/lib/points';
import { CATEGORY_LABELS, expiryNote } from '@/lib/rewards';
import { usePendingRewards } from '@/features/points/api/pending-rewards';
import { handOverTarget, type HandOverTarget } from '@/features/points/pending-hand-over';

/** Rewards waiting to be handed over, by the customer's own counters. */
export function pendingCount(customer: Customer): number {
  return REWARD_CATEGORIES.reduce(
    (sum, cat) => sum + customer[rewardCounterKey('pendente_resgate', cat)],
    0,
  );
}

/**
 * The customer's rewards waiting to be handed over, soonest to expire first, each with
 * "Entregar" (when this counter hands rewards over). Read only when the customer's counters
 * say some are waiting.
 */
export function PendingRewards({
  customer,
  canHandOver,
  disabled = false,
  onHandOver,
  today,
  rewardsLink = true,
}: {
  customer: Customer;
  /** Whether this terminal may open the rewards table ("Ver prêmios deste cliente"). */
  rewardsLink?: boolean;
  /** False: the setting is off, or the service said it does not take hand-overs. */
  canHandOver: boolean;
  /** A posting is on its way: nothing else leaves the counter meanwhile. */
  disabled?: boolean;
  onHandOver: (target: HandOverTarget, opener: HTMLElement) => void;
  /** `YYYY-MM-DD` in São Paulo; defaults to now. */
  today?: string;
}) {
  const headingId = useId();
  const waiting = pendingCount(customer);
  const query = usePendingRewards(customer.id_cliente, waiting > 0);
  const day = today ?? todayInSaoPaulo();
  const records = (query.data?.data ?? [])
    .filter((r) => r.premio_status === 'pendente_resgate' && !(daysUntil(r.valido_ate, day) < 0))
    .sort(
      (a, b) =>
        compareWire(a.valido_ate, b.valido_ate) || a.id_premio_cliente - b.id_premio_cliente,
    );
  const more = query.data ? query.data.total - query.data.data.length : 0;

  let body;
  if (waiting === 0 || (query.isSuccess && records.length === 0)) {
    body = <p className="text-sm text-slate-700">Nenhum prêmio a entregar.</p>;
  } else if (query.isPending) {
    body = (
      <p role="status" className="text-sm text-slate-700">
        Buscando prêmios a entregar…
      </p>
    );
  } else if (query.isError && !query.data) {
    body = (
      <div role="alert" className="flex flex-wrap items-center gap-2 text-sm text-red-900">
        <p>Não foi possível carregar os prêmios a entregar: {query.error.message}</p>
        <Button size="sm" variant="secondary" onClick={() => void query.refetch()}>
          Tentar de novo
        </Button>
      </div>
    );
  } else {
    body = (
      <>
        <ul aria-labelledby={headingId} className="flex flex-col gap-1.5">
          {records.map((r) => {
            const note = expiryNote(r, day);
            return (
              <li
                key={r.id_premio_cliente}
                className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 rounded-md bg-amber-50 px-3 py-1.5 ring-1 ring-amber-300"
              >
                <div className="min-w-0">
                  <p className="font-semibold break-words">{r.nome}</p>
                  <p className="text-sm text-slate-800">
                    {CATEGORY_LABELS[r.categoria_premio]}
                    <span aria-hidden="true"> · </span>
                    <span className="sr-only">, </span>
                    ganho em <span className="tabular">{formatDate(r.data_conquista)}</span>
                    <span aria-hidden="true"> · </span>
                    <span className="sr-only">, </span>
                    válido até <span className="tabular">{formatDate(r.valido_ate)}</span>
                    {note && (
                      <strong className="ml-1 whitespace-nowrap text-amber-900">({note})</strong>
                    )}
                  </p>
                </div>
                {canHandOver && (
                  <Button
                    size="sm"
                    variant="success"
                    aria-label={`Entregar ${r.nome}`}
                    disabled={disabled}
                    onClick={(e) => onHandOver(handOverTarget(customer, r), e.currentTarget)}
                  >
                    Entregar
                  </Button>
                )}
              </li>
            );
          })}
        </ul>
        {more > 0 && (
          <p className="text-sm text-slate-700">
            {rewardsLink
              ? `E mais ${formatInteger(more)} em “Ver prêmios deste cliente”.`
              : `E mais ${formatInteger(more)} pendentes.`}
          </p>
        )}
      </>
    );
  }

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-1">
      <h3 id={headingId} tabIndex={-1} className="text-sm font-bold">
        Prêmios a entregar
      </h3>
      {body}
    </section>
  );
}
