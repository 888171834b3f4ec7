import { useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import type { Customer, PointEntry } from '@/api/schemas';
import { rewardCounterKey, type RewardCategory, type RewardCounterPrefix } from '#contract/wire';
import { daysUntil, formatDate, formatDateTime, todayInSaoPaulo } from '@/lib/dates';
import { formatBRL, reaisToCents } from '@/lib/money';
import { formatPhoneDisplay } from '@/lib/phone';
import { formatInteger, formatPoints, formatPointsLabel, pointsWord } from '@/lib/points';
import { Link } from '@/lib/router';

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
const VISIBLE_EXPIRATIONS = 3;

/** Wire dates and times compare as text (fixed-width fields); not localeCompare, whose first
 * call loads Chromium's collation data on the first search. */
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const byValidity = (a: PointEntry, b: PointEntry) =>
  cmp(a.data_validade ?? '9999', b.data_validade ?? '9999') ||
  a.id_cartela_cliente - b.id_cartela_cliente;
const newestFirst = (a: PointEntry, b: PointEntry) =>
  cmp(b.data, a.data) || b.id_cartela_cliente - a.id_cartela_cliente;

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

function whenText(date: string, today: string): string | null {
  const days = daysUntil(date, today);
  if (Number.isNaN(days)) return null;
  if (days < 0) return 'vencido';
  if (days === 0) return 'hoje';
  if (days === 1) return 'amanhã';
  return `em ${days} dias`;
}

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
      className={`@container flex flex-col gap-3 rounded-lg border border-slate-300 bg-white p-4 text-slate-900 ${className}`}
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
  const pendingRewards = COUNTER_COLUMNS.reduce(
    (sum, c) => sum + customer[rewardCounterKey('pendente_resgate', c.category)],
    0,
  );
  return (
    <>
      <div className="grid grid-cols-1 gap-3 @md:grid-cols-[1fr_auto]">
        <Expirations entries={carteira.pontos_vencendo} today={today} />
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

      <History entries={carteira.historico} />
    </>
  );
}

function Expirations({ entries, today }: { entries: readonly PointEntry[]; today: string }) {
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

function RewardCounters({ customer, pending }: { customer: Customer; pending: number }) {
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

/** History rows rendered at first, and added by each "Mostrar mais". */
const HISTORY_PAGE = 50;

function History({ entries }: { entries: readonly PointEntry[] | undefined }) {
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
