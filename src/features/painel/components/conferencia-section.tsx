// "Conferência": a day's postings "lançado" matched with the service's history. The manager
// picks a day (yesterday by default), starts it, follows its progress, and reads what did not
// match: our entry and the service's credit side by side, exportable as CSV.
import { useEffect, useId, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Loaded } from '@/components/ui/list-states';
import { useNextTask } from '@/hooks/use-next-task';
import { Link } from '@/lib/router';
import { Button } from '@/components/ui/button';
import { FitTable } from '@/components/ui/fit-table';
import { DateField, dateTextToWire, wireToDateText } from '@/components/ui/date-field';
import { formatDateTime, formatLocalDateTime, localDay } from '@/lib/dates';
import { formatBRL } from '@/lib/money';
import { formatInteger } from '@/lib/points';
import { previousDay, type Achado, type Conferencia } from '#contract/api/conferencia';
import { useQueryClient } from '@tanstack/react-query';
import { startConferencia, useConferencia } from '@/features/painel/api/conferencia';
import { painelKeys } from '@/features/painel/api/painel';
import { ACHADO_LABELS, runOrigin } from '@/features/painel/conferencia-labels';

function Summary({ c }: { c: NonNullable<Conferencia> }) {
  const r = c.resumo;
  const items: [string, number][] = [
    ['Lançamentos do dia', c.lancamentos],
    ['Confirmados', c.confirmados],
    [ACHADO_LABELS.ausente, r.ausente],
    [ACHADO_LABELS.duplicado, r.duplicado],
    [ACHADO_LABELS.pontos_divergentes, r.pontos_divergentes],
    [ACHADO_LABELS.nao_conferido, r.nao_conferido],
    ['Créditos sem lançamento nosso', r.nao_lancado_por_nos],
  ];
  return (
    <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4 lg:grid-cols-7">
      {items.map(([label, n]) => (
        <div key={label} className="rounded-md border border-slate-300 bg-white p-2">
          <dt className="text-sm text-slate-700">{label}</dt>
          <dd className="text-xl font-bold tabular-nums">{formatInteger(n)}</dd>
        </div>
      ))}
    </dl>
  );
}

function Ours({ a }: { a: Achado }) {
  const l = a.lancamento;
  if (l === null) return <span className="text-slate-700">—</span>;
  return (
    <>
      <span className="block">{formatLocalDateTime(new Date(l.enviado_em))}</span>
      <span className="block tabular-nums">
        {formatBRL(l.valor_gasto)} ·{' '}
        {l.pontos === null ? '? pontos' : `${formatInteger(l.pontos)} pontos`}
      </span>
    </>
  );
}

function Theirs({ a }: { a: Achado }) {
  const s = a.servico;
  if (s === null) return <span className="text-slate-700">Nenhum crédito</span>;
  return (
    <>
      <span className="block">{formatDateTime(s.data)}</span>
      <span className="block tabular-nums">{formatInteger(s.pontos)} pontos</span>
    </>
  );
}

function Findings({ c }: { c: NonNullable<Conferencia> }) {
  const [exported, setExported] = useState<string | null>(null);
  if (c.achados.length === 0) return null;
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-3">
        <Button
          size="sm"
          variant="secondary"
          onClick={() =>
            void import('@/features/painel/conferencia-csv').then((m) =>
              setExported(m.downloadConferenciaCsv(c.achados, c.dia)),
            )
          }
        >
          Exportar CSV
        </Button>
        <p aria-live="polite" className="text-sm text-slate-700">
          {exported && `Arquivo ${exported} gerado.`}
        </p>
      </div>
      <FitTable
        label="Achados da conferência"
        caption="Achados da conferência: nosso lançamento e o registro do serviço lado a lado"
        cards="text"
        columns={[
          { header: 'Achado', cell: 'font-semibold' },
          { header: 'Cliente' },
          { header: 'Nosso lançamento' },
          { header: 'No serviço' },
          { header: 'Detalhe', cell: 'min-w-48' },
        ]}
        rows={c.achados.map((a, i) => ({
          key: `${a.tipo}-${a.lancamento?.chave ?? ''}-${a.servico?.id_cartela_cliente ?? i}`,
          cells: [
            ACHADO_LABELS[a.tipo],
            <>
              <span className="block">{a.nome ?? 'Cliente'}</span>
              <span className="block text-slate-700 tabular-nums">{a.celular}</span>
            </>,
            <Ours a={a} />,
            <Theirs a={a} />,
            a.detalhe,
          ],
        }))}
      />
    </div>
  );
}

function Result({ c }: { c: NonNullable<Conferencia> }) {
  if (c.situacao === 'em andamento') {
    return (
      <div className="space-y-1">
        <label htmlFor={`progresso-${c.id}`} className="block text-slate-800">
          Conferindo: {formatInteger(c.clientes_lidos)} de {formatInteger(c.clientes)} clientes
        </label>
        <progress
          id={`progresso-${c.id}`}
          className="h-3 w-full"
          max={Math.max(1, c.clientes)}
          value={c.clientes_lidos}
        />
      </div>
    );
  }
  return (
    <div className="space-y-3">
      {c.precisa_atencao ? (
        <Alert tone="warning" title="Precisa de atenção">
          <p>Há lançamentos que não conferem com o serviço. Veja os achados abaixo.</p>
        </Alert>
      ) : (
        <Alert tone="success" title="Tudo confere">
          <p>
            {c.lancamentos === 0
              ? 'Nenhum lançamento neste dia.'
              : `Todos os ${formatInteger(c.lancamentos)} lançamentos conferem com o serviço.`}
          </p>
        </Alert>
      )}
      <p className="text-sm text-slate-700">
        Conferida em {formatLocalDateTime(new Date(c.concluida_em ?? c.iniciada_em))}
        {runOrigin(c)} · {formatInteger(c.clientes)} clientes lidos
      </p>
      <Summary c={c} />
      <Findings c={c} />
    </div>
  );
}

/**
 * The Conferência section of the dashboard; `loja`: the chain's store a rede reads (who reads
 * it but does not start one: `canStart` false).
 */
export function ConferenciaSection({
  estornos = 0,
  loja = null,
  canStart = true,
}: {
  estornos?: number;
  loja?: number | null;
  canStart?: boolean;
}) {
  const id = useId();
  const [dia, setDia] = useState(() => previousDay(localDay()));
  const [typed, setTyped] = useState(() => wireToDateText(dia));
  const wire = dateTextToWire(typed);
  const future = wire ? wire > localDay() : false;
  // Read a task after the dashboard's figures are asked for, not in the same long task.
  const conferencia = useConferencia(dia, loja, useNextTask());
  const qc = useQueryClient();
  const [starting, setStarting] = useState(false);
  const [startError, setStartError] = useState<string | null>(null);
  const start = () => {
    setStarting(true);
    setStartError(null);
    startConferencia(qc, dia)
      .catch((err: unknown) => setStartError(err instanceof Error ? err.message : String(err)))
      .finally(() => setStarting(false));
  };
  const running = conferencia.data?.situacao === 'em andamento';
  // A run that ends may mark its day on the dashboard: the figures are read again.
  const finishedId = conferencia.data?.situacao === 'concluída' ? conferencia.data.id : null;
  useEffect(() => {
    if (finishedId !== null) void qc.invalidateQueries({ queryKey: painelKeys.all });
  }, [finishedId, qc]);
  return (
    <section aria-labelledby={id} className="min-w-0 space-y-3">
      <h2 id={id} className="text-lg font-bold">
        Conferência com o serviço
      </h2>
      <p className="text-slate-700">
        Relê no serviço cada cliente que pontuou no dia e confere cada lançamento com o histórico
        dele. Roda sozinha toda noite para o dia anterior.
      </p>
      {estornos > 0 && (
        <Alert tone="warning" title="Estornos após pontuação em aberto">
          <p>
            {formatInteger(estornos)} venda(s) cancelada(s) no PDV depois de pontuada(s): os pontos
            continuam com o cliente até um gerente estorná-los no painel do programa. Ficam em
            aberto até serem fechadas na{' '}
            <Link
              href="/vigilancia?regra=estorno_apos_pontuacao"
              className="text-blue-800 underline"
            >
              Vigilância
            </Link>
            .
          </p>
        </Alert>
      )}
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          // The field keeps `dia` in step with a valid date typed.
          if (wire && !future && canStart) start();
        }}
      >
        <DateField
          label="Dia"
          className="w-36"
          value={typed}
          error={future ? 'Escolha um dia que já começou.' : undefined}
          onValueChange={(v) => {
            setTyped(v);
            const w = dateTextToWire(v);
            if (w) setDia(w);
          }}
        />
        {canStart && (
          <Button type="submit" size="sm" busy={starting || running} disabled={running}>
            Conferir agora
          </Button>
        )}
      </form>
      {startError !== null && (
        <Alert tone="error" title="Não foi possível iniciar a conferência.">
          <p>{startError}</p>
        </Alert>
      )}
      <div aria-live="polite">
        <Loaded
          query={conferencia}
          loading="Carregando a conferência…"
          failed="Não foi possível ler a conferência."
        >
          {(c) =>
            c === null ? (
              <p className="text-slate-700">Este dia ainda não foi conferido.</p>
            ) : (
              <Result c={c} />
            )
          }
        </Loaded>
      </div>
    </section>
  );
}
