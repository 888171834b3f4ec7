import { useDeferredValue, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { configQuery } from '@/api/client';
import { storeFromSearch } from '@/api/rede';
import { StoreFilter } from '@/components/store-filter';
import { Alert } from '@/components/ui/alert';
import { Loaded } from '@/components/ui/list-states';
import { useStaged } from '@/hooks/use-staged';
import { Button } from '@/components/ui/button';
import { DateField, dateTextToWire, wireToDateText } from '@/components/ui/date-field';
import { Link, navigate, useLocation } from '@/lib/router';
import { formatBRL } from '@/lib/money';
import { formatInteger } from '@/lib/points';
import type { Painel } from '#contract/api/painel';
import { usePainel } from '@/features/painel/api/painel';
import {
  PRESETS,
  fullDay,
  parsePeriodSearch,
  periodHref,
  rangeError,
  shortDay,
  type PeriodChoice,
} from '@/features/painel/periods';
import { BarChart } from './bar-chart';
import { ConferenciaSection } from './conferencia-section';
import { PdvSales } from './pdv-section';
import { RedeSection } from './rede-section';
import { Figure, NumberTable, Section } from './table-parts';

const STATE_LABELS: Record<Painel['estados'][number]['estado'], string> = {
  enviando: 'Enviando',
  verificando: 'Conferindo',
  desconhecido: 'Indefinido (o servidor confere)',
  lançado: 'Lançado',
  recusado: 'Recusado pelo serviço',
  'aguardando envio': 'Aguardando envio',
  'precisa de atenção': 'Precisa de atenção',
  descartado: 'Descartado',
};

/** `1 h 05 min`, `3 min`, `40 s`. */
function formatWait(seconds: number | null): string {
  if (seconds === null) return '—';
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/**
 * The period's choice: presets ending today, or a range typed by the manager. The choice
 * lives in the address (`?periodo=30`, `?de=…&ate=…`): kept by reloads, history and links.
 */
function PeriodPicker({ choice, loja }: { choice: PeriodChoice; loja: number | null }) {
  const { preset } = choice;
  const [range, setRange] = useState(() => ({
    de: wireToDateText(choice.period.de),
    ate: wireToDateText(choice.period.ate),
  }));
  const chosen = { de: dateTextToWire(range.de), ate: dateTextToWire(range.ate) };
  const error = chosen.de && chosen.ate ? rangeError({ de: chosen.de, ate: chosen.ate }) : null;
  return (
    <div className="flex flex-wrap items-end gap-3">
      <div role="group" aria-label="Período" className="flex flex-wrap gap-2">
        {PRESETS.map((p) => (
          <Button
            key={p.id}
            size="sm"
            variant={preset === p.id ? 'primary' : 'secondary'}
            aria-pressed={preset === p.id}
            onClick={() => navigate(periodHref({ preset: p.id }, loja))}
          >
            {p.label}
          </Button>
        ))}
      </div>
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          if (chosen.de && chosen.ate && error === null) {
            navigate(periodHref({ period: { de: chosen.de, ate: chosen.ate } }, loja));
          }
        }}
      >
        <DateField
          label="De"
          className="w-36"
          value={range.de}
          onValueChange={(de) => setRange((r) => ({ ...r, de }))}
        />
        <DateField
          label="Até"
          className="w-36"
          value={range.ate}
          error={error ?? undefined}
          onValueChange={(ate) => setRange((r) => ({ ...r, ate }))}
        />
        <Button type="submit" size="sm" variant={preset === 'faixa' ? 'primary' : 'secondary'}>
          Ver período
        </Button>
      </form>
    </div>
  );
}

function Days({ data }: { data: Painel }) {
  const bars = (pick: 'lancamentos' | 'pontos') =>
    data.dias.map((d) => ({ label: shortDay(d.dia), value: d[pick] }));
  return (
    <Section title="Por dia">
      <div className="grid gap-4 md:grid-cols-2">
        <BarChart title="Lançamentos por dia" bars={bars('lancamentos')} color="#1d4ed8" />
        <BarChart title="Pontos por dia" bars={bars('pontos')} color="#b45309" />
      </div>
      <NumberTable
        label="Lançamentos e pontos por dia (os números dos gráficos)"
        first="Dia"
        columns={['Lançamentos', 'Pontos']}
        rows={data.dias.map((d) => ({
          key: d.dia,
          name: fullDay(d.dia),
          cells: [formatInteger(d.lancamentos), formatInteger(d.pontos)],
        }))}
      />
    </Section>
  );
}

const LOADING = 'Carregando o painel…';
const NONE_IN_PERIOD = 'Nenhum lançamento no período.';

function Terminals({ data }: { data: Painel }) {
  return (
    <Section title="Por terminal">
      <NumberTable
        label="Lançamentos por terminal"
        first="Terminal"
        columns={['Lançamentos', 'Pontos', 'Valor lançado']}
        empty={NONE_IN_PERIOD}
        rows={data.terminais.map((t) => ({
          key: t.id ?? '-',
          name: t.nome ?? (t.id === null ? 'Sem terminal' : `Terminal ${t.id}`),
          cells: [formatInteger(t.lancamentos), formatInteger(t.pontos), formatBRL(t.valor)],
        }))}
      />
    </Section>
  );
}

function States({ data }: { data: Painel }) {
  const rows = data.estados.map((s) => ({
    key: s.estado,
    name: STATE_LABELS[s.estado],
    cells: [formatInteger(s.lancamentos)],
  }));
  return (
    <Section title="Por situação">
      <NumberTable
        label="Lançamentos por situação"
        first="Situação"
        columns={['Lançamentos']}
        empty={NONE_IN_PERIOD}
        rows={rows}
      />
    </Section>
  );
}

function Rewards({ premios }: { premios: Painel['premios'] }) {
  if (premios === null) {
    return (
      <Section title="Prêmios">
        <Alert tone="warning" title="O serviço não informou os prêmios agora.">
          <p>Os demais números do painel vêm do nosso servidor e estão atualizados.</p>
        </Alert>
      </Section>
    );
  }
  const waiting = new URLSearchParams({ status: 'pendente_resgate' });
  const expiring = new URLSearchParams({
    status: 'pendente_resgate',
    filtrar_por: 'valido_ate',
    data_inicio: premios.hoje,
    data_fim: premios.vence_ate,
  });
  return (
    <Section title="Prêmios">
      <ul className="grid gap-3 sm:grid-cols-2">
        <li className="rounded-md border border-slate-300 bg-white p-3">
          <p className="text-2xl font-bold tabular-nums">
            {formatInteger(premios.aguardando_retirada)}
          </p>
          <Link href={`/premios?${waiting.toString()}`} className="text-blue-800 underline">
            aguardando retirada
          </Link>
        </li>
        <li className="rounded-md border border-slate-300 bg-white p-3">
          <p className="text-2xl font-bold tabular-nums">{formatInteger(premios.vencendo)}</p>
          <Link href={`/premios?${expiring.toString()}`} className="text-blue-800 underline">
            vencem até {fullDay(premios.vence_ate)}
          </Link>
        </li>
      </ul>
    </Section>
  );
}

/** The figures of a period, once loaded. */
export function PainelView({ data }: { data: Painel }) {
  const t = data.totais;
  const g = data.guardadas;
  const attention = (data.conferencias ?? []).filter((c) => c.precisa_atencao);
  // The figures first; the charts and the tables below them each in a commit of their own.
  const stage = useStaged(4);
  return (
    <div className="space-y-6">
      {data.alertas_abertos !== undefined && data.alertas_abertos.total > 0 && (
        <Alert tone="warning" title="Vigilância: alertas abertos">
          <p>
            {formatInteger(data.alertas_abertos.total)} alerta(s) aberto(s)
            {data.alertas_abertos.estornos > 0 &&
              `, ${formatInteger(data.alertas_abertos.estornos)} de estorno após pontuação (pontos a estornar no painel do programa)`}
            .{' '}
            <Link href="/vigilancia" className="text-blue-800 underline">
              Abrir a Vigilância
            </Link>
          </p>
        </Alert>
      )}
      {attention.length > 0 && (
        <Alert tone="warning" title="Conferência: precisa de atenção">
          <p>
            {attention
              .map((c) => `${fullDay(c.dia)}: ${formatInteger(c.achados)} achado(s)`)
              .join(' · ')}
            . Veja a seção Conferência abaixo.
          </p>
        </Alert>
      )}
      <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <Figure label="Lançamentos" value={formatInteger(t.lancamentos)} />
        <Figure label="Pontos" value={formatInteger(t.pontos)} />
        <Figure label="Valor lançado" value={formatBRL(t.valor)} />
        <Figure label="Clientes cadastrados aqui" value={formatInteger(t.cadastrados)} />
        <Figure label="Prêmios entregues" value={formatInteger(t.premios_entregues)} />
        <Figure label="Vendas guardadas" value={formatInteger(g.total)} />
        <Figure label="Espera média das guardadas" value={formatWait(g.espera_media_s)} />
        <Figure label="Espera máxima" value={formatWait(g.espera_maxima_s)} />
      </dl>
      <Rewards premios={data.premios} />
      {stage >= 2 && <Days data={data} />}
      {stage >= 3 && data.pdv !== undefined && <PdvSales pdv={data.pdv} />}
      {stage >= 4 && (
        <div className="grid gap-6 lg:grid-cols-2">
          <Terminals data={data} />
          <States data={data} />
        </div>
      )}
    </div>
  );
}

/**
 * "Painel": a manager's figures of a period, at a glance and as tables. The chain's rede
 * chooses a store (`?loja=`) or sees every store's roll-up (none chosen).
 */
export function PainelScreen() {
  const { search } = useLocation();
  const choice = parsePeriodSearch(search);
  const { period } = choice;
  // The config is the app shell's, already read (enabled: false: never fetched here).
  const rede = useQuery({ ...configQuery(), enabled: false }).data?.terminal?.role === 'rede';
  const loja = rede ? storeFromSearch(search) : null;
  const chain = rede && loja === null;
  const painel = usePainel(period, loja, !chain);
  // The figures are drawn in a transition (see RewardsScreen): in slices, not in one task as
  // the answer arrives.
  const data = useDeferredValue(painel.data);
  return (
    <main className="mx-auto w-full max-w-6xl space-y-4 p-4">
      <h1 className="text-2xl font-bold">Painel</h1>
      {/* A range reached through the history shows in the fields: a new picker per range. */}
      <PeriodPicker
        key={choice.preset === 'faixa' ? `${period.de}/${period.ate}` : 'preset'}
        choice={choice}
        loja={loja}
      />
      {rede && <StoreFilter />}
      <p className="text-slate-700" aria-live="polite">
        {period.de === period.ate
          ? `Dia ${fullDay(period.de)}`
          : `De ${fullDay(period.de)} a ${fullDay(period.ate)}`}
        {painel.isFetching && ' · atualizando…'}
      </p>
      {chain ? (
        <RedeSection period={period} choice={choice} />
      ) : (
        <Loaded query={painel} loading={LOADING} failed="Não foi possível carregar o painel." retry>
          {/* the figures shown are the deferred ones: the loading line until they come */}
          {() => (data === undefined ? <p role="status">{LOADING}</p> : <PainelView data={data} />)}
        </Loaded>
      )}
      {chain ? (
        <p className="text-slate-700">Escolha uma loja para ver a conferência dela.</p>
      ) : (
        <ConferenciaSection
          estornos={data?.alertas_abertos?.estornos ?? 0}
          loja={loja}
          canStart={!rede}
        />
      )}
    </main>
  );
}
