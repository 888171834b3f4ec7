import { useEffect, useId, useState, type ReactNode } from 'react';
import type { Customer } from '@/api/schemas';
import { formatDate, formatDateTime, todayInSaoPaulo } from '@/lib/dates';
import { formatBRL, reaisToCents } from '@/lib/money';
import { formatPhoneDisplay } from '@/lib/phone';
import { formatPoints, formatPointsLabel, pointsWord } from '@/lib/points';
import { Link } from '@/lib/router';
import { PointExpirations } from './point-expirations';
import { PointsHistory } from './points-history';
import { pendingRewardCount, RewardCounters } from './reward-counters';

/**
 * False while the frame that first shows the component is being made; true from the task
 * after that frame (a requestAnimationFrame callback runs before its frame is painted, a
 * timeout set there runs after). Always true when `enabled` is false.
 */
function usePaintedOnce(enabled: boolean): boolean {
  const [painted, setPainted] = useState(!enabled);
  useEffect(() => {
    if (painted) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setPainted(true), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [painted]);
  return painted;
}

/**
 * A found (or just registered) customer, for the counter's left column (~560px): who it is,
 * the balance, carência, expirations, revenue, purchases, the 20 reward counters and the
 * points history (which scrolls inside). The root is a region named by the customer's name.
 */
export function CustomerPanel({
  customer,
  today,
  className = '',
  balanceFirst = false,
  rewards,
  rewardsLink = true,
}: {
  customer: Customer;
  /** Whether this terminal may open the rewards table (a caixa may not: no link to it). */
  rewardsLink?: boolean;
  /** `YYYY-MM-DD` in São Paulo; defaults to now. For "vence em N dias". */
  today?: string;
  className?: string;
  /**
   * The first frame shows who it is and the balances; the rest (expirations, revenue, reward
   * counters, history) follows in the next one. At the counter, where the search's answer
   * also mounts the sale form, this halves the work before the balance is on screen.
   */
  balanceFirst?: boolean;
  /**
   * The rewards waiting to be handed over, with their "Entregar" (the counter composes it from
   * the points feature): shown under the reward counters.
   */
  rewards?: ReactNode;
}) {
  const headingId = useId();
  const details = usePaintedOnce(balanceFirst);
  const { carteira } = customer;
  const expiredTotal = carteira.pontos_vencidos.reduce((sum, e) => sum + e.pontos, 0);

  return (
    <section
      aria-labelledby={headingId}
      className={`@container isolate flex flex-col gap-3 rounded-lg border border-slate-300 bg-white p-4 text-slate-900 ${className}`}
    >
      <header className="flex flex-wrap items-start justify-between gap-x-3 gap-y-1">
        <div className="min-w-0">
          <h2 id={headingId} className="text-xl font-bold break-words">
            {customer.nome}
          </h2>
          <p className="text-slate-700">
            <span className="tabular">{formatPhoneDisplay(customer.celular)}</span>
            <span aria-hidden="true"> · </span>
            <span className="sr-only">, </span>
            <span className="tabular">Cliente #{customer.id_cliente}</span>
          </p>
        </div>
        {rewardsLink && (
          <Link
            href={`/premios?id_cliente=${customer.id_cliente}`}
            className="rounded-md px-1 py-1 font-semibold text-blue-800 underline underline-offset-2 hover:text-blue-900"
          >
            Ver prêmios deste cliente
          </Link>
        )}
      </header>

      <dl className="grid grid-cols-[1.4fr_1fr_1fr] gap-2">
        <div className="rounded-md bg-blue-50 px-3 py-2 ring-1 ring-blue-200">
          <dt className="text-sm font-semibold text-slate-700">Saldo</dt>
          <dd className="leading-none">
            <span className="tabular text-4xl font-bold text-blue-900" data-testid="saldo">
              {formatPoints(carteira.saldo)}
            </span>{' '}
            <span className="text-slate-700">{pointsWord(carteira.saldo)}</span>
          </dd>
        </div>
        <div className="rounded-md bg-slate-50 px-3 py-2 ring-1 ring-slate-200">
          <dt className="text-sm font-semibold text-slate-700">Em carência</dt>
          <dd className="leading-tight">
            <span className="tabular text-xl font-bold">
              {formatPointsLabel(carteira.saldo_carencia)}
            </span>
            {carteira.saldo_carencia > 0 && (
              <span className="block text-sm font-semibold text-amber-900">
                <span aria-hidden="true">◷ </span>liberados amanhã
              </span>
            )}
          </dd>
        </div>
        <div className="rounded-md bg-slate-50 px-3 py-2 ring-1 ring-slate-200">
          <dt className="text-sm font-semibold text-slate-700">Vencidos</dt>
          <dd className="tabular text-xl leading-tight font-bold">
            {formatPointsLabel(expiredTotal)}
          </dd>
        </div>
      </dl>

      {details && (
        <Details customer={customer} today={today ?? todayInSaoPaulo()} rewards={rewards} />
      )}
    </section>
  );
}

function Details({
  customer,
  today,
  rewards,
}: {
  customer: Customer;
  today: string;
  rewards: ReactNode;
}) {
  const { carteira } = customer;
  const pendingRewards = pendingRewardCount(customer);
  return (
    <>
      <div className="grid grid-cols-1 gap-3 @md:grid-cols-[1fr_auto]">
        <PointExpirations entries={carteira.pontos_vencendo} today={today} />
        <dl className="grid grid-cols-[auto_auto] content-start gap-x-3 text-sm">
          <dt className="text-slate-700">Receita</dt>
          <dd className="tabular text-right font-semibold">
            {formatBRL(reaisToCents(customer.receita))}
          </dd>
          <dt className="text-slate-700">Compras</dt>
          <dd className="tabular text-right font-semibold">{formatPoints(customer.compras)}</dd>
          <dt className="text-slate-700">Primeira compra</dt>
          <dd className="tabular text-right font-semibold">
            {customer.primeira_compra ? formatDate(customer.primeira_compra) : '—'}
          </dd>
          <dt className="text-slate-700">Última compra</dt>
          <dd className="tabular text-right font-semibold">
            {customer.ultima_compra ? formatDateTime(customer.ultima_compra) : '—'}
          </dd>
        </dl>
      </div>

      <RewardCounters customer={customer} pending={pendingRewards} />

      {rewards}

      <PointsHistory entries={carteira.historico} />
    </>
  );
}
