/**
 * The manager's dashboard (`/painel`): a period's figures from the postings journal (one
 * aggregate query, see server/store/painel.ts) and, from the service, only what it alone
 * knows: how many rewards wait to be picked up and how many of those expire within 7 days
 * (two reads of its reward list, one record a page: only `total` is used).
 */
import type { PainelPeriod, PainelWire } from '#contract/api/painel';
import { PAINEL_EXPIRING_DAYS } from '#contract/api/painel';
import { POSTING_STATES } from '#contract/wire';
import {
  createAlertsStore,
  DAY_MS,
  painelGroupsCached,
  dayFindings,
  pdvPainelGroups,
  type PainelGroup,
  type PdvPainelGroup,
  type PostingState,
  type Store,
  type StoreScope,
} from '../../store';
import type { UpstreamClient } from '../upstream/client';

export interface PainelDeps {
  store: Store;
  /** The service's client (the reward list); null: no rewards figures. */
  client: Pick<UpstreamClient, 'json'> | null;
  establishmentId: number;
  /** A chain's store: the PDV's figures are this store's terminals' only. */
  scope?: StoreScope | null;
  /** Names of the terminals by id. */
  terminalNames: () => Promise<ReadonlyMap<string, string>>;
  now?: () => number;
  /** Whether the service is known to be down (the circuit is open): rewards are not read. */
  serviceDown?: () => boolean;
  /** Longest wait for one read of the reward list. Default 5 s. */
  rewardsTimeoutMs?: number;
}

type Rewards = PainelWire['premios'];
type TerminalFigures = PainelWire['terminais'][number];

/** `YYYY-MM-DD` of a day number (days since 1970-01-01). */
export const dayText = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** The `total` of one read of the service's reward list, or null when it did not answer. */
async function rewardTotal(
  deps: PainelDeps,
  query: Record<string, string>,
): Promise<number | null> {
  if (deps.client === null || deps.serviceDown?.()) return null;
  const params = new URLSearchParams({ ...query, itens_por_pagina: '1' });
  try {
    const res = await deps.client.json(
      'GET',
      `recompensas?${params.toString()}`,
      undefined,
      AbortSignal.timeout(deps.rewardsTimeoutMs ?? 5_000),
    );
    if (!res.ok) return null;
    const body = (await res.json()) as { data?: { total?: unknown } } | null;
    const total = body?.data?.total;
    return typeof total === 'number' && Number.isInteger(total) && total >= 0 ? total : null;
  } catch {
    return null;
  }
}

/** Rewards waiting to be picked up, and those expiring from today to 6 days later. */
async function rewards(deps: PainelDeps, today: number): Promise<Rewards> {
  const hoje = dayText(today);
  const venceAte = dayText(today + PAINEL_EXPIRING_DAYS - 1);
  const [waiting, expiring] = await Promise.all([
    rewardTotal(deps, { status: 'pendente_resgate' }),
    rewardTotal(deps, {
      status: 'pendente_resgate',
      filtrar_por: 'valido_ate',
      data_inicio: hoje,
      data_fim: venceAte,
    }),
  ]);
  if (waiting === null || expiring === null) return null;
  return { aguardando_retirada: waiting, vencendo: expiring, hoje, vence_ate: venceAte };
}

const isState = (s: string): s is PostingState => (POSTING_STATES as readonly string[]).includes(s);

/** The journal's groups folded into the answer's days, terminals, states and totals. */
export function fold(
  groups: readonly PainelGroup[],
  period: PainelPeriod,
  names: ReadonlyMap<string, string>,
): Omit<PainelWire, 'premios'> {
  const days = new Map<number, { lancamentos: number; pontos: number }>();
  for (let d = period.de; d <= period.ate; d++) days.set(d, { lancamentos: 0, pontos: 0 });
  const terminals = new Map<string | null, TerminalFigures>();
  const states = new Map<PostingState, number>();
  const totals = { lancamentos: 0, pontos: 0, valor: 0, cadastrados: 0, premios_entregues: 0 };
  const kept = { total: 0, entregues: 0, waitMs: 0, maxMs: 0 };
  for (const g of groups) {
    if (g.kind === 'premio') {
      // A reward handed over is no posting of points: only the ones the service took count.
      if (g.state === 'lançado') totals.premios_entregues += g.postings;
      continue;
    }
    const day = days.get(g.day);
    if (day !== undefined) {
      day.lancamentos += g.postings;
      day.pontos += g.points;
    }
    const t = terminals.get(g.terminalId) ?? {
      id: g.terminalId,
      nome: g.terminalId === null ? null : (names.get(g.terminalId) ?? null),
      lancamentos: 0,
      pontos: 0,
      valor: 0,
    };
    t.lancamentos += g.postings;
    t.pontos += g.points;
    if (g.state === 'lançado') t.valor += g.amount;
    terminals.set(g.terminalId, t);
    if (isState(g.state)) states.set(g.state, (states.get(g.state) ?? 0) + g.postings);
    totals.lancamentos += g.postings;
    totals.pontos += g.points;
    if (g.state === 'lançado') {
      totals.valor += g.amount;
      totals.cadastrados += g.registered;
    }
    kept.total += g.kept;
    kept.entregues += g.keptDelivered;
    kept.waitMs += g.keptWaitMs;
    kept.maxMs = Math.max(kept.maxMs, g.keptMaxWaitMs);
  }
  return {
    de: dayText(period.de),
    ate: dayText(period.ate),
    dias: [...days].map(([d, f]) => ({ dia: dayText(d), ...f })),
    terminais: [...terminals.values()].sort(
      (a, b) => b.lancamentos - a.lancamentos || (a.nome ?? '').localeCompare(b.nome ?? ''),
    ),
    estados: POSTING_STATES.flatMap((estado) => {
      const n = states.get(estado) ?? 0;
      return n > 0 ? [{ estado, lancamentos: n }] : [];
    }),
    totais: totals,
    guardadas: {
      total: kept.total,
      entregues: kept.entregues,
      espera_media_s: kept.entregues > 0 ? Math.round(kept.waitMs / kept.entregues / 1000) : null,
      espera_maxima_s: kept.entregues > 0 ? Math.round(kept.maxMs / 1000) : null,
    },
  };
}

type PdvFigures = NonNullable<PainelWire['pdv']>;
type PdvRate = Omit<PdvFigures, 'terminais' | 'dias'>;

const emptyRate = (): PdvRate => ({
  total: 0,
  identificadas: 0,
  nao_identificadas: 0,
  em_aberto: 0,
  canceladas: 0,
});

/** Counts `n` sales of `state` into a rate (cancelled ones apart from the total). */
function addSales(rate: PdvRate, state: string, n: number): void {
  if (state === 'cancelada') {
    rate.canceladas += n;
    return;
  }
  rate.total += n;
  if (state === 'lançada') rate.identificadas += n;
  else if (state === 'não identificada') rate.nao_identificadas += n;
  else rate.em_aberto += n;
}

/** The PDV sales' groups folded into the period's, each counter's and each day's rate. */
export function foldPdv(
  groups: readonly PdvPainelGroup[],
  names: ReadonlyMap<string, string>,
): PdvFigures {
  const period = emptyRate();
  const terminals = new Map<string | null, PdvFigures['terminais'][number]>();
  const days = new Map<number, PdvRate>();
  for (const g of groups) {
    addSales(period, g.state, g.sales);
    const id = g.counterId === null ? null : String(g.counterId);
    const t = terminals.get(id) ?? {
      id,
      nome: id === null ? null : (names.get(id) ?? null),
      ...emptyRate(),
    };
    addSales(t, g.state, g.sales);
    terminals.set(id, t);
    const d = days.get(g.day) ?? emptyRate();
    addSales(d, g.state, g.sales);
    days.set(g.day, d);
  }
  return {
    ...period,
    terminais: [...terminals.values()].sort(
      (a, b) =>
        b.total + b.canceladas - (a.total + a.canceladas) ||
        (a.nome ?? '').localeCompare(b.nome ?? ''),
    ),
    dias: [...days].sort(([a], [b]) => a - b).map(([d, rate]) => ({ dia: dayText(d), ...rate })),
  };
}

/** The dashboard of a period of local days (`fuso`: the browser's offset in minutes). */
export async function painel(deps: PainelDeps, period: PainelPeriod): Promise<PainelWire> {
  const offsetMs = period.fuso * 60_000;
  const now = deps.now?.() ?? Date.now();
  const today = Math.floor((now + offsetMs) / DAY_MS);
  const range = {
    from: period.de * DAY_MS - offsetMs,
    to: (period.ate + 1) * DAY_MS - offsetMs,
    offsetMs,
  };
  const [groups, names, premios, conferidos, pdvGroups] = await Promise.all([
    painelGroupsCached(deps.store, { establishmentId: deps.establishmentId, ...range }),
    deps.terminalNames(),
    rewards(deps, today),
    dayFindings(deps.store, deps.establishmentId, dayText(period.de), dayText(period.ate)),
    // The store's PDV sales (this store's terminals).
    pdvPainelGroups(deps.store, {
      ...range,
      scope: deps.scope ?? null,
    }),
  ]);
  const conferencias = [...conferidos].map(([dia, achados]) => ({
    dia,
    achados,
    precisa_atencao: achados > 0,
  }));
  const open = await createAlertsStore(deps.store).openCounts(deps.establishmentId);
  const alertas_abertos = {
    total: Object.values(open).reduce((n, x) => n + x, 0),
    estornos: open.estorno_apos_pontuacao ?? 0,
  };
  return {
    ...fold(groups, period, names),
    premios,
    conferencias,
    pdv: foldPdv(pdvGroups, names),
    alertas_abertos,
  };
}
