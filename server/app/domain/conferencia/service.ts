/**
 * The conferência: for a local day, re-read each customer posted through us and match every
 * posting "lançado" with the service's history (match.ts), at a bounded rate (reader.ts).
 * Runs on demand (a manager) and by itself every night for the day before, at
 * CONFERENCIA_HORA in the store's time zone. Its state is in the store (runs and per-customer
 * progress), so any replica resumes a run whose process died (its lease ran out), one run of
 * a day at a time across replicas, and each finished run is reported once.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import {
  ACHADO_ATENCAO,
  type AchadoTipo,
  type AchadoWire,
  type ConferenciaParams,
  type ConferenciaWire,
} from '#contract/api/conferencia';
import {
  claimStaleRuns,
  createRun,
  DAY_MS,
  finishRun,
  latestFinishedRun,
  latestRun,
  markReported,
  pendingCustomers,
  postedEntries,
  renewRun,
  type NightlyTrigger,
  runCustomers,
  saveCustomer,
  unreportedRuns,
  type ConferenciaRun,
  type RunOrigin,
  type Store,
} from '../../../store';
import { creditsOf, finding, matchCustomer, TOLERANCE_MS } from './match';
import { createReader, type ReaderDeps } from './reader';
import { emptySummary, idClienteOf, toWire } from './answer';

export interface ConferenciaDeps {
  store: Store;
  establishmentId: number;
  buscar: ReaderDeps['buscar'];
  circuitOpen: () => boolean;
  log?: Logger;
  /** CONFERENCIA_LEITURAS_POR_SEGUNDO. Default 5. */
  readsPerSecond?: number;
  /** CONFERENCIA_HORA: the local hour the nightly run starts. Default 3. */
  nightlyHour?: number;
  /** The store's time zone, minutes east of UTC. Default -180 (Brasília). */
  offsetMin?: number;
  /** Lease of a run being worked on. Default 15 s. */
  leaseMs?: number;
  /** Interval of the check for runs to resume, results to report, the nightly run. Default 5 s. */
  tickMs?: number;
  readLimitMs?: number;
  /** Told of each finished run, once (whichever replica reports it). */
  onReport?: (run: ConferenciaRun) => void;
}

export type StartResult =
  | { ok: true; created: boolean; conferencia: NonNullable<ConferenciaWire> }
  | { ok: false; field: 'dia'; message: string };

const dayText = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
const dayNumber = (text: string) => Date.parse(`${text}T00:00:00Z`) / DAY_MS;
/** How far beyond the day a posting may be and still take a credit stamped in it. */
const REACH_MS = 2 * TOLERANCE_MS + 5 * 60_000;

/** What the functions of a service share: its deps, its identity, its stop signal, its runs. */
interface Ctx {
  deps: ConferenciaDeps;
  store: Store;
  me: string;
  leaseMs: number;
  offsetMin: number;
  stopping: AbortController;
  working: Map<number, Promise<void>>;
  /** Whether this process has made its first check for the nightly run (its start-up). */
  checkedOnce: boolean;
}

/** Waits `ms`; false when the service stops meanwhile. */
function sleep(ctx: Ctx, ms: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    if (ctx.stopping.signal.aborted) return resolve(false);
    const onAbort = () => {
      clearTimeout(t);
      resolve(false);
    };
    const t = setTimeout(() => {
      ctx.stopping.signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    ctx.stopping.signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** The day's bounds [from, to) in epoch ms. */
function bounds(run: Pick<ConferenciaRun, 'day' | 'offsetMin'>) {
  const from = dayNumber(run.day) * DAY_MS - run.offsetMin * 60_000;
  return { from, to: from + DAY_MS };
}

/** Today's day number in the time zone `offset` (minutes east of UTC). */
const todayIn = (ctx: Ctx, offset: number) =>
  Math.floor((ctx.store.now() + offset * 60_000) / DAY_MS);

function readerFor(ctx: Ctx, run: ConferenciaRun) {
  return createReader({
    buscar: ctx.deps.buscar,
    circuitOpen: ctx.deps.circuitOpen,
    readsPerSecond: ctx.deps.readsPerSecond ?? 5,
    readLimitMs: ctx.deps.readLimitMs ?? 10_000,
    now: () => ctx.store.now(),
    // Waits in slices shorter than the lease, renewing it between them.
    async pause(ms) {
      let left = ms;
      while (left > 0) {
        const slice = Math.min(left, ctx.leaseMs / 3);
        if (!(await sleep(ctx, slice))) return false;
        left -= slice;
        if (!(await renewRun(ctx.store, run.id, ctx.me, ctx.store.now() + ctx.leaseMs))) {
          return false;
        }
      }
      return true;
    },
  });
}

/** Reads one customer and records what it found; false when the work should end. */
async function conferCustomer(
  ctx: Ctx,
  run: ConferenciaRun,
  reader: ReturnType<typeof createReader>,
  customerKey: string,
): Promise<boolean> {
  const day = bounds(run);
  const entries = await postedEntries(ctx.store, {
    establishmentId: run.establishmentId,
    from: day.from - REACH_MS,
    to: day.to + REACH_MS,
    customerKey,
  });
  const idCliente = idClienteOf(entries);
  let reads = 0;
  const r = await reader.read(
    idCliente !== null ? { id_cliente: idCliente } : { celular: customerKey },
    () => (reads += 1),
  );
  if (r.kind === 'stopped') return false;
  const nome = entries.find((e) => e.customerName !== null)?.customerName ?? null;
  const facts = { celular: customerKey, idCliente, nome };
  let confirmed = 0;
  let findings: AchadoWire[];
  if (r.kind === 'read' || r.kind === 'absent') {
    const data = r.kind === 'read' ? (r.data as { nome?: unknown; id_cliente?: unknown }) : null;
    if (typeof data?.id_cliente === 'number') facts.idCliente = data.id_cliente;
    if (typeof data?.nome === 'string') facts.nome = data.nome;
    const matched = matchCustomer(facts, entries, creditsOf(data), day);
    confirmed = matched.confirmed;
    findings = matched.findings;
  } else {
    const detalhe =
      r.kind === 'refused'
        ? `O serviço recusou a leitura deste cliente (${r.status}${r.message ? `: ${r.message}` : ''}).`
        : 'O serviço não respondeu às leituras deste cliente; confira-o de novo mais tarde.';
    findings = [finding('nao_conferido', facts, null, null, detalhe)];
  }
  return saveCustomer(ctx.store, run.id, ctx.me, {
    customerKey,
    idCliente: facts.idCliente,
    confirmed,
    findings,
    reads,
  });
}

/** Reports a finished run, once across every replica. */
async function report(ctx: Ctx, run: ConferenciaRun): Promise<void> {
  if (!(await markReported(ctx.store, run.id))) return;
  const attention = run.findings > 0;
  ctx.deps.log?.[attention ? 'warn' : 'info'](
    {
      conferencia: run.id,
      dia: run.day,
      clientes: run.customers,
      leituras: run.reads,
      lancamentos: run.postings,
      confirmados: run.confirmed,
      achados: run.findings,
      resumo: run.summary,
    },
    attention ? 'conferência concluída: precisa de atenção' : 'conferência concluída',
  );
  ctx.deps.onReport?.(run);
}

async function finish(ctx: Ctx, run: ConferenciaRun): Promise<void> {
  const customers = await runCustomers(ctx.store, run.id);
  const summary = emptySummary();
  for (const c of customers) for (const f of c.findings as AchadoWire[]) summary[f.tipo] += 1;
  const done = await finishRun(ctx.store, run.id, ctx.me, {
    confirmed: customers.reduce((n, c) => n + c.confirmed, 0),
    findings: ACHADO_ATENCAO.reduce((n, t) => n + summary[t], 0),
    summary,
  });
  if (done !== null) await report(ctx, done);
}

/** Works a run held by this process until it ends or the process stops. */
async function work(ctx: Ctx, run: ConferenciaRun): Promise<void> {
  const reader = readerFor(ctx, run);
  for (const key of await pendingCustomers(ctx.store, run.id)) {
    if (ctx.stopping.signal.aborted) break;
    if (!(await conferCustomer(ctx, run, reader, key))) break;
    if (!(await renewRun(ctx.store, run.id, ctx.me, ctx.store.now() + ctx.leaseMs))) return;
  }
  if (ctx.stopping.signal.aborted) {
    // A graceful stop: leave the run to whichever process looks next (lease ended now).
    await renewRun(ctx.store, run.id, ctx.me, ctx.store.now() - 1).catch(() => false);
    return;
  }
  if ((await pendingCustomers(ctx.store, run.id)).length === 0) await finish(ctx, run);
}

function kick(ctx: Ctx, run: ConferenciaRun): void {
  if (ctx.working.has(run.id) || ctx.stopping.signal.aborted) return;
  const job = work(ctx, run)
    .catch((err: unknown) =>
      ctx.deps.log?.error(
        { conferencia: run.id, err: err instanceof Error ? err.message : String(err) },
        'conferência interrompida (outro processo a retoma)',
      ),
    )
    .finally(() => ctx.working.delete(run.id));
  ctx.working.set(run.id, job);
}

/** Starts the conferência of a local day (or answers the one running). */
async function start(
  ctx: Ctx,
  day: string,
  offset: number,
  origin: RunOrigin,
  trigger?: NightlyTrigger,
): Promise<{ created: boolean; run: ConferenciaRun | null }> {
  const from = dayNumber(day) * DAY_MS - offset * 60_000;
  const entries = await postedEntries(ctx.store, {
    establishmentId: ctx.deps.establishmentId,
    from,
    to: from + DAY_MS,
  });
  const result = await createRun(ctx.store, {
    establishmentId: ctx.deps.establishmentId,
    day,
    offsetMin: offset,
    origin,
    ...(trigger === undefined ? {} : { trigger }),
    owner: ctx.me,
    leaseUntil: ctx.store.now() + ctx.leaseMs,
    customers: [...new Set(entries.map((e) => e.customerKey))].sort(),
    postings: entries.length,
  });
  if (result.created && result.run !== null) {
    ctx.deps.log?.info(
      {
        conferencia: result.run.id,
        dia: day,
        origem: origin,
        ...(trigger === undefined ? {} : { disparo: trigger }),
        clientes: result.run.customers,
      },
      'conferência iniciada',
    );
    kick(ctx, result.run);
  }
  return result;
}

/** Resumes runs whose process died, reports runs finished but not reported, the night's run. */
async function tick(ctx: Ctx): Promise<void> {
  const { store, deps } = ctx;
  const claimed = await claimStaleRuns(
    store,
    deps.establishmentId,
    ctx.me,
    store.now() + ctx.leaseMs,
  );
  for (const run of claimed) {
    deps.log?.info(
      { conferencia: run.id, dia: run.day, lidos: run.done, clientes: run.customers },
      'conferência retomada',
    );
    kick(ctx, run);
  }
  for (const run of await unreportedRuns(store, deps.establishmentId)) await report(ctx, run);
  const hour = Math.floor(((store.now() + ctx.offsetMin * 60_000) % DAY_MS) / 3_600_000);
  const nightly = deps.nightlyHour ?? 3;
  if (hour >= nightly) {
    const yesterday = dayText(todayIn(ctx, ctx.offsetMin) - 1);
    if ((await latestRun(store, deps.establishmentId, yesterday, 'noite')) === null) {
      // Said as it happened: the check at the hour, or catching up on a night without one
      // (at this process's start, or later).
      const trigger: NightlyTrigger =
        hour === nightly ? 'on_time' : ctx.checkedOnce ? 'late' : 'startup';
      await start(ctx, yesterday, ctx.offsetMin, 'noite', trigger);
    }
  }
  ctx.checkedOnce = true;
}

/** The day a request names (default: yesterday) in its time zone (default: the store's). */
function dayOf(ctx: Ctx, params: ConferenciaParams): { day: string; offset: number } {
  const offset = params.fuso ?? ctx.offsetMin;
  return { day: params.dia ?? dayText(todayIn(ctx, offset) - 1), offset };
}

export function createConferencia(deps: ConferenciaDeps) {
  const ctx: Ctx = {
    deps,
    store: deps.store,
    me: `conferencia-${randomUUID()}`,
    leaseMs: deps.leaseMs ?? 15_000,
    offsetMin: deps.offsetMin ?? -180,
    stopping: new AbortController(),
    working: new Map(),
    checkedOnce: false,
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const schedule = (delay: number): void => {
    if (ctx.stopping.signal.aborted) return;
    timer = setTimeout(() => {
      void tick(ctx)
        .catch((err: unknown) =>
          deps.log?.warn(
            { err: err instanceof Error ? err.message : String(err) },
            'conferência: verificação falhou',
          ),
        )
        .finally(() => schedule(Math.round((deps.tickMs ?? 5_000) * (0.8 + 0.4 * Math.random()))));
    }, delay);
    timer.unref?.();
  };

  return {
    /** Starts the schedule: a first check at once (a run left `em andamento` resumes). */
    run: () => schedule(0),
    async stop(): Promise<void> {
      ctx.stopping.abort();
      if (timer !== undefined) clearTimeout(timer);
      await Promise.all([...ctx.working.values()]);
    },
    tick: () => tick(ctx),
    /** A manager's request: the conferência of `dia` (default yesterday), started or running. */
    async request(params: ConferenciaParams): Promise<StartResult> {
      const { day, offset } = dayOf(ctx, params);
      if (dayNumber(day) > todayIn(ctx, offset)) {
        return { ok: false, field: 'dia', message: 'Escolha um dia que já começou.' };
      }
      const { created, run } = await start(ctx, day, offset, 'gerente');
      if (run === null) return { ok: false, field: 'dia', message: 'Tente de novo.' };
      return { ok: true, created, conferencia: await toWire(ctx.store, run) };
    },
    /** The latest run of `dia` (default yesterday), or null. */
    async latest(params: ConferenciaParams): Promise<ConferenciaWire> {
      const run = await latestRun(ctx.store, deps.establishmentId, dayOf(ctx, params).day);
      return run === null ? null : toWire(ctx.store, run);
    },
    /** Findings by kind of the latest finished run (the metrics), or null: none yet. */
    async lastFindings(): Promise<Record<AchadoTipo, number> | null> {
      const run = await latestFinishedRun(ctx.store, deps.establishmentId);
      if (run === null) return null;
      return { ...emptySummary(), ...(run.summary as Partial<Record<AchadoTipo, number>>) };
    },
  };
}

export type ConferenciaService = ReturnType<typeof createConferencia>;
