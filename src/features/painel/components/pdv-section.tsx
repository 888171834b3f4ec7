// "Vendas do PDV": how many of the sales the store's PDV sent were identified (posted to a
// customer), for the period, per counter terminal and per day (the identification rate).
import type { Painel } from '#contract/api/painel';
import { formatInteger } from '@/lib/points';
import { fullDay } from '@/features/painel/periods';
import { Figure, NumberTable, Section } from './table-parts';

type PdvFigures = NonNullable<Painel['pdv']>;
type Rate = Pick<
  PdvFigures,
  'total' | 'identificadas' | 'nao_identificadas' | 'em_aberto' | 'canceladas'
>;

/** `70%` of the identified among the sales (cancelled apart); `—` without sales. */
function identifiedShare(r: Rate): string {
  return r.total === 0 ? '—' : `${formatInteger(Math.round((100 * r.identificadas) / r.total))}%`;
}

/** "14 de 20 identificadas (70%)". */
function identifiedText(r: Rate): string {
  const of = `${formatInteger(r.identificadas)} de ${formatInteger(r.total)} identificadas`;
  return r.total === 0 ? of : `${of} (${identifiedShare(r)})`;
}

const COLUMNS = ['Vendas', 'Identificadas', 'Taxa', 'Não identificadas', 'Em aberto', 'Canceladas'];

function RateTable({
  label,
  first,
  rows,
}: {
  label: string;
  first: string;
  rows: { key: string; name: string; rate: Rate }[];
}) {
  return (
    <NumberTable
      label={label}
      first={first}
      columns={COLUMNS}
      rows={rows.map(({ key, name, rate }) => ({
        key,
        name,
        cells: [
          formatInteger(rate.total),
          formatInteger(rate.identificadas),
          identifiedShare(rate),
          formatInteger(rate.nao_identificadas),
          formatInteger(rate.em_aberto),
          formatInteger(rate.canceladas),
        ],
      }))}
    />
  );
}

/** The section, shown when the PDV sent sales in the period. */
export function PdvSales({ pdv }: { pdv: PdvFigures }) {
  if (pdv.total + pdv.canceladas === 0) return null;
  return (
    <Section title="Vendas do PDV">
      <p className="text-lg">
        Vendas do PDV: <strong className="tabular-nums">{identifiedText(pdv)}</strong>
      </p>
      <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <Figure label="Identificadas" value={identifiedShare(pdv)} />
        <Figure label="Não identificadas" value={formatInteger(pdv.nao_identificadas)} />
        <Figure label="Em aberto" value={formatInteger(pdv.em_aberto)} />
        <Figure label="Canceladas" value={formatInteger(pdv.canceladas)} />
      </dl>
      <div className="space-y-4">
        <RateTable
          label="Vendas do PDV por terminal"
          first="Terminal"
          rows={pdv.terminais.map((t) => ({
            key: t.id ?? '-',
            name: t.nome ?? (t.id === null ? 'Sem terminal' : `Terminal ${t.id}`),
            rate: t,
          }))}
        />
        <RateTable
          label="Vendas do PDV por dia"
          first="Dia"
          rows={pdv.dias.map((d) => ({ key: d.dia, name: fullDay(d.dia), rate: d }))}
        />
      </div>
    </Section>
  );
}
