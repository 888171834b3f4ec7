import { useId, type Ref } from 'react';
import type { RewardRecord } from '@/api/schemas';
import { formatDate, formatDateTime } from '@/lib/dates';
import { Link } from '@/lib/router';
import { CATEGORY_LABELS, StatusBadge } from './labels';

interface Props {
  records: readonly RewardRecord[];
  /** "Página 2 de 12", read with the caption. */
  pageLabel: string;
  /** The previous page is on screen while the next one loads. */
  busy: boolean;
  /** Moving to another page focuses the caption (and scrolls the table into view). */
  captionRef?: Ref<HTMLTableCaptionElement>;
  /** A link per customer id that filters the table by that customer; none when already filtered. */
  customerHref?: ((id: number) => string) | undefined;
  /** Called as a customer link is followed (the link turns into text in the filtered table). */
  onCustomerPick?: () => void;
}

const th = 'px-2 py-2 text-left text-sm font-semibold whitespace-nowrap text-slate-800 xl:px-3';
const td = 'px-2 py-2 align-top xl:px-3';

export function RewardsTable({
  records,
  pageLabel,
  busy,
  captionRef,
  customerHref,
  onCustomerPick,
}: Props) {
  const captionId = useId();
  return (
    // The table scrolls sideways inside this box on a narrow screen, never the page; the box
    // takes the focus so the keyboard can scroll it too.
    <div
      role="region"
      aria-labelledby={captionId}
      tabIndex={0}
      className={`max-w-full overflow-x-auto rounded-lg border border-slate-300 bg-white transition-opacity ${
        busy ? 'opacity-60' : ''
      }`}
    >
      <table aria-busy={busy || undefined} className="w-full border-collapse text-slate-900">
        <caption
          id={captionId}
          ref={captionRef}
          tabIndex={-1}
          className="scroll-mt-4 px-3 py-2 text-left text-lg font-bold"
        >
          Prêmios conquistados{' '}
          <span className="text-base font-normal text-slate-700">· {pageLabel}</span>
        </caption>
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
                {customerHref ? (
                  <Link
                    href={customerHref(r.id_cliente)}
                    onClick={onCustomerPick}
                    className="rounded font-semibold text-blue-800 underline underline-offset-2 hover:text-blue-900"
                  >
                    <span className="sr-only">Filtrar pelo cliente </span>#{r.id_cliente}
                  </Link>
                ) : (
                  `#${r.id_cliente}`
                )}
              </td>
              <td className={`${td} min-w-32 font-medium break-words`}>{r.nome}</td>
              <td className={td}>{CATEGORY_LABELS[r.categoria_premio]}</td>
              <td className={td}>
                <StatusBadge status={r.premio_status} />
              </td>
              <td className={`${td} tabular whitespace-nowrap`}>{formatDate(r.valido_ate)}</td>
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
