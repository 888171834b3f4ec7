import { memo, useId, type RefObject } from 'react';
import type { RewardRecord } from '@/api/schemas';
import { formatDate, formatDateTime, todayInSaoPaulo } from '@/lib/dates';
import { Link } from '@/lib/router';
import { useMediaQuery } from '@/lib/use-media-query';
import { CATEGORY_LABELS, expiryNote } from '@/lib/rewards';
import { StatusBadge } from './labels';

/** At this width and below the rows are cards: seven columns do not fit a phone. */
export const CARDS_QUERY = '(max-width: 640px)';

interface Props {
  records: readonly RewardRecord[];
  /** "Página 2 de 12", read with the caption. */
  pageLabel: string;
  /** The previous page is on screen while the next one loads. */
  busy: boolean;
  /** Moving to another page focuses the caption (and scrolls the list into view). */
  captionRef?: RefObject<HTMLElement | null>;
  /** A link per customer id that filters the table by that customer; none when already filtered. */
  customerHref?: ((id: number) => string) | undefined;
  /** Called as a customer link is followed (the link turns into text in the filtered table). */
  onCustomerPick?: () => void;
}

const th = 'px-2 py-2 text-left text-sm font-semibold whitespace-nowrap text-slate-800 xl:px-3';
const td = 'px-2 py-2 align-top xl:px-3';

/**
 * The page of rewards: a table, or cards on a narrow screen. Memoized: the screen re-renders for
 * totals and export progress, and a page of rows need not follow.
 */
export const RewardsList = memo(function RewardsList(props: Props) {
  const cards = useMediaQuery(CARDS_QUERY);
  return cards ? <RewardsCards {...props} /> : <RewardsTable {...props} />;
});

/**
 * "Prêmios conquistados · Página 2 de 12": the table's caption or the cards' heading. Moving to
 * another page focuses it (`captionRef`).
 */
function Title({
  as: Tag,
  id,
  captionRef,
  pageLabel,
  className = '',
}: {
  as: 'caption' | 'h2';
  id: string;
  captionRef: Props['captionRef'];
  pageLabel: string;
  className?: string;
}) {
  return (
    <Tag
      id={id}
      ref={(el: HTMLElement | null) => {
        if (captionRef) captionRef.current = el;
      }}
      tabIndex={-1}
      className={`scroll-mt-4 text-lg font-bold ${className}`}
    >
      Prêmios conquistados{' '}
      <span className="text-base font-normal text-slate-700">· {pageLabel}</span>
    </Tag>
  );
}

export function RewardsTable({ records, pageLabel, busy, captionRef, ...links }: Props) {
  const captionId = useId();
  const today = todayInSaoPaulo();
  return (
    // Wider than the screen only below 1024 px, where it scrolls inside this box, never the
    // page; the box takes the focus so the keyboard can scroll it too.
    <div
      role="region"
      aria-labelledby={captionId}
      tabIndex={0}
      className={`max-w-full overflow-x-auto rounded-lg border border-slate-300 bg-white transition-opacity ${
        busy ? 'opacity-60' : ''
      }`}
    >
      <table aria-busy={busy || undefined} className="w-full border-collapse text-slate-900">
        <Title
          as="caption"
          id={captionId}
          captionRef={captionRef}
          pageLabel={pageLabel}
          className="px-3 py-2 text-left"
        />
        <thead className="border-y border-slate-300 bg-slate-100">
          <tr>
            <th scope="col" className={th}>
              Data da conquista
            </th>
            <th scope="col" className={th}>
              Cliente
            </th>
            <th scope="col" className={th}>
              Prêmio
            </th>
            <th scope="col" className={th}>
              Categoria
            </th>
            <th scope="col" className={th}>
              Situação
            </th>
            <th scope="col" className={th}>
              Válido até
            </th>
            <th scope="col" className={th}>
              Resgate/estorno
            </th>
          </tr>
        </thead>
        <tbody>
          {records.map((r) => (
            <tr key={r.id_premio_cliente} className="border-b border-slate-200 last:border-b-0">
              <td className={`${td} tabular whitespace-nowrap`}>
                {formatDateTime(r.data_conquista)}
              </td>
              <td className={`${td} tabular whitespace-nowrap`}>
                <CustomerCell id={r.id_cliente} {...links} />
              </td>
              <td className={`${td} min-w-32 font-medium break-words`}>{r.nome}</td>
              <td className={td}>{CATEGORY_LABELS[r.categoria_premio]}</td>
              <td className={td}>
                <StatusBadge status={r.premio_status} />
              </td>
              <td className={`${td} tabular whitespace-nowrap`}>
                <ValidUntil record={r} today={today} />
              </td>
              <td className={`${td} tabular whitespace-nowrap`}>
                <SettledCell record={r} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** One card per reward, each field named: what a phone shows instead of the table. */
export function RewardsCards({ records, pageLabel, busy, captionRef, ...links }: Props) {
  const headingId = useId();
  const today = todayInSaoPaulo();
  return (
    <section
      aria-labelledby={headingId}
      aria-busy={busy || undefined}
      className={`flex flex-col gap-2 transition-opacity ${busy ? 'opacity-60' : ''}`}
    >
      <Title as="h2" id={headingId} captionRef={captionRef} pageLabel={pageLabel} />
      {/* A phone shows the filters and totals first: the cards start below the fold, and the
          browser lays out and paints each only as it comes near the screen (a card's height
          is kept once drawn; until then, that of a typical card). */}
      <ul className="flex flex-col gap-2">
        {records.map((r) => (
          <li
            key={r.id_premio_cliente}
            className="flex flex-col gap-2 rounded-lg border border-slate-300 bg-white p-3 text-slate-900 [contain-intrinsic-size:auto_11rem] [content-visibility:auto]"
          >
            <div className="flex flex-wrap items-start justify-between gap-x-3 gap-y-1">
              <h3 className="min-w-0 font-semibold break-words">{r.nome}</h3>
              <StatusBadge status={r.premio_status} />
            </div>
            <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
              <dt className="text-slate-700">Conquista</dt>
              <dd className="tabular">{formatDateTime(r.data_conquista)}</dd>
              <dt className="text-slate-700">Cliente</dt>
              <dd className="tabular">
                <CustomerCell id={r.id_cliente} {...links} />
              </dd>
              <dt className="text-slate-700">Categoria</dt>
              <dd>{CATEGORY_LABELS[r.categoria_premio]}</dd>
              <dt className="text-slate-700">Válido até</dt>
              <dd className="tabular">
                <ValidUntil record={r} today={today} inline />
              </dd>
              {(r.data_resgate || r.estornado_em) && (
                <>
                  <dt className="text-slate-700">{r.estornado_em ? 'Estorno' : 'Resgate'}</dt>
                  <dd className="tabular">{formatDateTime((r.estornado_em ?? r.data_resgate)!)}</dd>
                </>
              )}
            </dl>
          </li>
        ))}
      </ul>
    </section>
  );
}

function CustomerCell({
  id,
  customerHref,
  onCustomerPick,
}: { id: number } & Pick<Props, 'customerHref' | 'onCustomerPick'>) {
  if (!customerHref) return <>#{id}</>;
  return (
    <Link
      href={customerHref(id)}
      onClick={onCustomerPick}
      className="rounded font-semibold text-blue-800 underline underline-offset-2 hover:text-blue-900"
    >
      <span className="sr-only">Filtrar pelo cliente </span>#{id}
    </Link>
  );
}

/** The expiry date, and "vence em 3 dias" under it when a pending reward is about to expire. */
function ValidUntil({
  record,
  today,
  inline = false,
}: {
  record: RewardRecord;
  today: string;
  inline?: boolean;
}) {
  const note = expiryNote(record, today);
  return (
    <>
      {formatDate(record.valido_ate)}
      {note && (
        <span
          className={`${inline ? 'ml-2 inline-block' : 'block'} text-sm font-semibold whitespace-nowrap text-amber-900`}
        >
          <span aria-hidden="true">⚠ </span>
          <span className="sr-only">, </span>
          {note}
        </span>
      )}
    </>
  );
}

/** When the reward was redeemed or reversed, and which of the two; a dash when neither. */
function SettledCell({ record }: { record: RewardRecord }) {
  const [label, when] = record.estornado_em
    ? ['Estorno', record.estornado_em]
    : record.data_resgate
      ? ['Resgate', record.data_resgate]
      : [null, null];
  if (!when)
    return (
      <>
        <span aria-hidden="true">—</span>
        <span className="sr-only">Nenhum</span>
      </>
    );
  return (
    <>
      <span className="block text-xs font-semibold text-slate-700 xl:inline xl:text-sm xl:font-normal">
        {label}
      </span>{' '}
      {formatDateTime(when)}
    </>
  );
}
