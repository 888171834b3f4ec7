import { memo, useId, type ReactNode, type RefObject } from 'react';
import type { RewardRecord } from '@/api/schemas';
import { BodyRows, HeaderRow, type Column } from '@/components/ui/column-rows';
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

type Links = Pick<Props, 'customerHref' | 'onCustomerPick'>;

/** The table's columns, of a record with the day it is and the customer's links. */
const COLUMNS: readonly Column<Drawn>[] = [
  {
    header: 'Data da conquista',
    td: 'tabular whitespace-nowrap',
    cell: ({ r }) => formatDateTime(r.data_conquista),
  },
  {
    header: 'Cliente',
    td: 'tabular whitespace-nowrap',
    cell: ({ r, links }) => <CustomerCell id={r.id_cliente} {...links} />,
  },
  { header: 'Prêmio', td: 'min-w-32 font-medium break-words', cell: ({ r }) => r.nome },
  { header: 'Categoria', cell: ({ r }) => CATEGORY_LABELS[r.categoria_premio] },
  { header: 'Situação', cell: ({ r }) => <StatusBadge status={r.premio_status} /> },
  {
    header: 'Válido até',
    td: 'tabular whitespace-nowrap',
    cell: ({ r, today }) => <ValidUntil record={r} today={today} />,
  },
  {
    header: 'Resgate/estorno',
    td: 'tabular whitespace-nowrap',
    cell: ({ r }) => <SettledCell record={r} />,
  },
];
type Drawn = { r: RewardRecord; today: string; links: Links };

/**
 * The page of rewards: a table, or cards on a narrow screen. Memoized: the screen re-renders for
 * totals and export progress, and a page of rows need not follow.
 */
export const RewardsList = memo(function RewardsList({
  records,
  pageLabel,
  busy,
  captionRef,
  ...links
}: Props) {
  const cards = useMediaQuery(CARDS_QUERY);
  const titleId = useId();
  const heading = { id: titleId, captionRef, pageLabel };
  const view: View = {
    records,
    busy,
    links,
    today: todayInSaoPaulo(),
    titleId,
    title: (as, className) => <Title as={as} className={className} {...heading} />,
  };
  return cards ? <RewardsCards {...view} /> : <RewardsTable {...view} />;
});

/** What the table and the cards draw a page of rewards with. */
type View = {
  records: readonly RewardRecord[];
  busy: boolean;
  links: Links;
  today: string;
  /** The id of the list's title, and the title as the table's caption or the cards' heading. */
  titleId: string;
  title: (as: 'caption' | 'h2', className?: string) => ReactNode;
};

/** The previous page shows dimmed while the next one loads. */
const dimmedWhile = (busy: boolean) => `transition-opacity ${busy ? 'opacity-60' : ''}`;

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

function RewardsTable({ records, busy, links, today, titleId, title }: View) {
  return (
    // Wider than the screen only below 1024 px, where it scrolls inside this box, never the
    // page; the box takes the focus so the keyboard can scroll it too.
    <div
      role="region"
      aria-labelledby={titleId}
      tabIndex={0}
      className={`max-w-full overflow-x-auto rounded-lg border border-slate-300 bg-white ${dimmedWhile(busy)}`}
    >
      <table aria-busy={busy || undefined} className="w-full border-collapse text-slate-900">
        {title('caption', 'px-3 py-2 text-left')}
        <thead className="border-y border-slate-300 bg-slate-100">
          <HeaderRow columns={COLUMNS} className={th} />
        </thead>
        <tbody>
          <BodyRows
            columns={COLUMNS}
            rows={records.map((r) => ({ r, today, links }))}
            rowKey={({ r }) => r.id_premio_cliente}
            row="border-b border-slate-200 last:border-b-0"
            cell={td}
          />
        </tbody>
      </table>
    </div>
  );
}

/** One card per reward, each field named: what a phone shows instead of the table. */
function RewardsCards({ records, busy, links, today, titleId, title }: View) {
  return (
    <section
      aria-labelledby={titleId}
      aria-busy={busy || undefined}
      className={`flex flex-col gap-2 ${dimmedWhile(busy)}`}
    >
      {title('h2')}
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

function CustomerCell({ id, customerHref, onCustomerPick }: { id: number } & Links) {
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
