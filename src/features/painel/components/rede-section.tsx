// The chain's roll-up on the dashboard (a `rede` terminal, every store): the period's totals
// and one row a store, each store's name leading to its own dashboard. A store whose figures
// could not be read says "indisponível" in its row; one whose service did not answer, in its
// rewards' cells; the others still show.
import { useQuery } from '@tanstack/react-query';
import { Alert } from '@/components/ui/alert';
import { Loaded } from '@/components/ui/list-states';
import { FitTable } from '@/components/ui/fit-table';
import { Link } from '@/lib/router';
import { formatBRL } from '@/lib/money';
import { formatInteger } from '@/lib/points';
import type { RedePainel } from '#contract/api/rede';
import { redePainelQuery, type Period } from '@/features/painel/api/painel';
import { periodHref, type PeriodChoice } from '@/features/painel/periods';
import { Figure, Section } from './table-parts';

const UNAVAILABLE = 'indisponível';

const COLUMNS = [
  'Lançamentos',
  'Pontos',
  'Valor lançado',
  'Identificação no PDV',
  'Vendas guardadas',
  'Prêmios aguardando',
  'Vencendo em 7 dias',
  'Achados da conferência',
  'Alertas abertos',
];

/** `80% (4 de 5)`; `—` with no PDV sale. */
function rate(identified: number, total: number): string {
  if (total === 0) return '—';
  return `${Math.round((identified / total) * 100)}% (${formatInteger(identified)} de ${formatInteger(total)})`;
}

function storeCells(row: RedePainel['lojas'][number]): string[] {
  const f = row.figuras;
  const p = row.premios;
  if (f === null) return COLUMNS.map(() => UNAVAILABLE);
  return [
    formatInteger(f.lancamentos),
    formatInteger(f.pontos),
    formatBRL(f.valor),
    rate(f.pdv_identificadas, f.pdv_vendas),
    formatInteger(f.guardadas),
    p === null ? UNAVAILABLE : formatInteger(p.aguardando_retirada),
    p === null ? UNAVAILABLE : formatInteger(p.vencendo),
    formatInteger(f.achados),
    formatInteger(f.alertas_abertos),
  ];
}

/** The roll-up, once loaded. */
export function RedeView({ data, choice }: { data: RedePainel; choice: PeriodChoice }) {
  const t = data.totais;
  const href = (loja: number) =>
    periodHref(
      choice.preset === 'faixa' ? { period: choice.period } : { preset: choice.preset },
      loja,
    );
  return (
    <div className="space-y-6">
      {t.lojas_indisponiveis > 0 && (
        <Alert tone="warning" title="Algumas lojas não responderam.">
          <p>
            {formatInteger(t.lojas_indisponiveis)} de {formatInteger(t.lojas)} loja(s) aparecem como
            indisponíveis; os totais somam as demais.
          </p>
        </Alert>
      )}
      <Section title={`Rede: ${formatInteger(t.lojas)} lojas`}>
        <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
          <Figure label="Lançamentos" value={formatInteger(t.lancamentos)} />
          <Figure label="Pontos" value={formatInteger(t.pontos)} />
          <Figure label="Valor lançado" value={formatBRL(t.valor)} />
          <Figure label="Identificação no PDV" value={rate(t.pdv_identificadas, t.pdv_vendas)} />
          <Figure label="Vendas guardadas" value={formatInteger(t.guardadas)} />
          <Figure
            label="Prêmios aguardando retirada"
            value={formatInteger(t.premios.aguardando_retirada)}
          />
          <Figure label="Achados da conferência" value={formatInteger(t.achados)} />
          <Figure label="Alertas abertos" value={formatInteger(t.alertas_abertos)} />
        </dl>
        {t.premios.lojas < t.lojas && (
          <p className="text-slate-700">
            Prêmios de {formatInteger(t.premios.lojas)} de {formatInteger(t.lojas)} lojas (o serviço
            não informou os das demais agora).
          </p>
        )}
      </Section>
      <Section title="Por loja">
        {data.lojas.length === 0 ? (
          <p className="text-slate-700">Nenhuma loja na rede.</p>
        ) : (
          <FitTable
            label="Números de cada loja no período"
            columns={[
              { header: 'Loja', cell: 'whitespace-nowrap' },
              ...COLUMNS.map((header) => ({ header, numeric: true })),
            ]}
            rows={data.lojas.map((row) => ({
              key: String(row.id),
              cells: [
                <Link key="nome" href={href(row.id)} className="text-blue-800 underline">
                  {row.nome}
                </Link>,
                ...storeCells(row),
              ],
            }))}
          />
        )}
      </Section>
    </div>
  );
}

/** The chain's roll-up of a period: loading, error, then the figures. */
export function RedeSection({ period, choice }: { period: Period; choice: PeriodChoice }) {
  const rede = useQuery(redePainelQuery(period));
  return (
    <Loaded
      query={rede}
      loading="Carregando as lojas da rede…"
      failed="Não foi possível carregar o resumo da rede."
      retry
    >
      {(data) => <RedeView data={data} choice={choice} />}
    </Loaded>
  );
}
