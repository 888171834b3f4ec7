/**
 * What every job of the journal shares (`deps`): its options with their defaults, the store,
 * this process's id in the leases, the events that wake waiters, the entries this process is
 * working on, and the few writes every job ends with (settle, requeue, park).
 */
import type { UpstreamCall } from '../../upstream/client';
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import { backoffMs } from './backoff';
import { postingMessages } from './messages';
import { seal, type SealKey } from './sealed';
import type { EntryPatch, JournalEntry, JournalStore } from '../../../store';
import type { Circuit } from '../../upstream/circuit';
import type { SweepGate } from '../sweep-gate';

export type { UpstreamCall };

export interface PostingServiceOptions {
  store: JournalStore;
  /** Sends one request to the upstream service (tokens and establishment already applied). */
  call: UpstreamCall;
  establishmentId: number;
  logger?: Logger;
  now?: () => number;
  /** This process in the store's leases. Default: a random id. */
  instanceId?: string;
  /** Limit of one upstream pontuar request. Default 60 s. */
  upstreamLimitMs?: number;
  /** Limit of one customer read (snapshot, verification). Default 10 s. */
  readLimitMs?: number;
  /** Longest long poll of a POST or GET. Default 8 s. */
  waitMs?: number;
  /** How long a posting waits for another posting of the same customer. Default 30 s. */
  slotWaitMs?: number;
  /** Unchanged this long after a reset / 5xx ended: "não lançado". Default 5 s. */
  quietMs?: number;
  /** Unchanged this long after a timeout / crash: "não lançado". Default 5 min. */
  unknownHorizonMs?: number;
  /** Interval of re-checks of a `desconhecido` entry. Default 15 s. */
  recheckMs?: number;
  /** Lease of an entry being worked on (renewed while working). Default 15 s. */
  leaseMs?: number;
  /** Interval of the sweep (stale entries, re-checks, pruning). Default 1 s. */
  sweepMs?: number;
  /** Entries older than this are pruned. Default 90 days. */
  retentionMs?: number;
  /** Whether the upstream is reachable (see circuit.ts); without it, always reachable. */
  circuit?: Pick<Circuit, 'isOpen' | 'onChange' | 'openedAt'> | null;
  /** Seals kept sales' passwords (from APP_SECRET); without it there is no contingency. */
  sealKey?: SealKey | null;
  /** Most kept sales waiting at once. Default 500. */
  maxWaiting?: number;
  /** Longest a kept sale may have waited before no more are kept. Default 24 h. */
  maxWaitMs?: number;
  /** Kept sales delivered at once (each of another customer). Default 4. */
  deliveryConcurrency?: number;
  /** Tries of one kept sale before it needs a manager's attention. Default 8. */
  maxDeliveryAttempts?: number;
  /** First wait before a kept sale is tried again (doubling, with jitter). Default 2 s. */
  retryBaseMs?: number;
  /** Longest wait between two tries of a kept sale or two failed re-reads. Default 5 min. */
  retryCapMs?: number;
  /** A lost answer that still cannot be read this long after it ended is given up. Default 24 h. */
  verifyGiveUpMs?: number;
  /** The jitter's source (tests make it fixed). Default Math.random. */
  random?: () => number;
  /** Rewards may be handed over at the counter (REWARD_HANDOVER). Default true. */
  rewardHandover?: boolean;
  /**
   * A counter terminal's lookup of a customer is a posting's snapshot up to this long after it
   * was sent, nothing posted for that customer since (see lookups.ts); 0: never. Default 60 s.
   */
  lookupReuseMs?: number;
  /**
   * A counter's posting whose answer did not tell its points waits this long for the counter's
   * refresh of the customer to tell them, then the journal reads the customer. Default 3 s.
   */
  pointsWaitMs?: number;
  /** Told how postings went, for the metrics (see JournalObserver). */
  observer?: JournalObserver | null;
  /**
   * Told the key of each entry settled `lançado` by this process, once its final write is
   * done (Vigilância evaluates it; must not throw, is never awaited).
   */
  onSettled?: ((key: string) => void) | null;
  /** A chain's gate of the periodic sweep (see domain/sweep-gate.ts); null: every tick. */
  sweepGate?: SweepGate | null;
}

/** What the journal tells the metrics of its postings (domain/ops/metrics.ts). */
export interface JournalObserver {
  /** How a posting's snapshot was had: its terminal's lookup, or a read of the journal's own. */
  snapshot(source: 'lookup' | 'read'): void;
  /** How a posting's points were learned: its answer, a counter's read after it, or ours. */
  points(source: 'answer' | 'lookup' | 'read'): void;
  /** The calls to the service one posting took here, from its journaling to its verdict. */
  postingCalls(calls: number): void;
}

/** The options with their defaults (what `PostingService.options` shows). */
export type JournalOptions = Required<
  Omit<
    PostingServiceOptions,
    | 'logger'
    | 'store'
    | 'call'
    | 'circuit'
    | 'sealKey'
    | 'random'
    | 'rewardHandover'
    | 'observer'
    | 'onSettled'
    | 'sweepGate'
  >
>;

function withDefaults(options: PostingServiceOptions): JournalOptions {
  return {
    establishmentId: options.establishmentId,
    now: options.now ?? Date.now,
    instanceId: options.instanceId ?? randomUUID(),
    upstreamLimitMs: options.upstreamLimitMs ?? 60_000,
    readLimitMs: options.readLimitMs ?? 10_000,
    waitMs: options.waitMs ?? 8_000,
    slotWaitMs: options.slotWaitMs ?? 30_000,
    quietMs: options.quietMs ?? 5_000,
    unknownHorizonMs: options.unknownHorizonMs ?? 5 * 60_000,
    recheckMs: options.recheckMs ?? 15_000,
    leaseMs: options.leaseMs ?? 15_000,
    sweepMs: options.sweepMs ?? 1_000,
    retentionMs: options.retentionMs ?? 90 * 24 * 60 * 60_000,
    maxWaiting: options.maxWaiting ?? 500,
    maxWaitMs: options.maxWaitMs ?? 24 * 3_600_000,
    deliveryConcurrency: Math.max(1, options.deliveryConcurrency ?? 4),
    maxDeliveryAttempts: Math.max(1, options.maxDeliveryAttempts ?? 8),
    retryBaseMs: Math.max(1, options.retryBaseMs ?? 2_000),
    retryCapMs: Math.max(1, options.retryCapMs ?? 5 * 60_000),
    verifyGiveUpMs: options.verifyGiveUpMs ?? 24 * 3_600_000,
    lookupReuseMs: Math.max(0, options.lookupReuseMs ?? 60_000),
    pointsWaitMs: Math.max(0, options.pointsWaitMs ?? 3_000),
  };
}

/** What the journal's jobs share: read-only services, and this process's working state. */
export interface JournalDeps {
  readonly options: JournalOptions;
  readonly store: JournalStore;
  readonly call: UpstreamCall;
  readonly now: () => number;
  /** This process in the leases. */
  readonly me: string;
  readonly log: Logger | undefined;
  readonly random: () => number;
  readonly sealKey: SealKey | null;
  readonly circuit: PostingServiceOptions['circuit'];
  readonly observer: JournalObserver | null;
  readonly onSettled: ((key: string) => void) | null;
  readonly sweepGate: SweepGate | null;
  /** Postings waiting for a read that tells their points (see lookups.ts `pointsLater`). */
  readonly pointTimers: Set<ReturnType<typeof setTimeout>>;
  /** An entry's key is emitted on every write of it by this process (waiters wake up). */
  readonly events: EventEmitter;
  /** The detached work of this process (stop() waits for it). */
  readonly running: Set<Promise<void>>;
  /** Entries this process is working on: its own sweep leaves them alone. */
  readonly working: Set<string>;
  /** Entries settled by this process whose final write is still under way. */
  readonly local: Map<string, JournalEntry>;
  /** Settled entries whose points are still being read (the ledger waits for them, briefly). */
  readonly completing: Map<string, Promise<void>>;
  /** The delivery of kept sales (see deliver.ts). */
  readonly delivery: { running: Promise<void> | null; again: boolean; count: number };
  /** The periodic sweep (see sweep.ts). */
  readonly sweeper: {
    running: Promise<void> | null;
    timer: ReturnType<typeof setInterval> | undefined;
    lastPrune: number;
  };
  /** Set by stop(): no more deliveries start. */
  stopped: boolean;
}

export function createDeps(options: PostingServiceOptions): JournalDeps {
  const resolved = withDefaults(options);
  const events = new EventEmitter();
  events.setMaxListeners(0);
  return {
    options: resolved,
    store: options.store,
    call: options.call,
    now: resolved.now,
    me: resolved.instanceId,
    log: options.logger,
    random: options.random ?? Math.random,
    sealKey: options.sealKey ?? null,
    circuit: options.circuit,
    observer: options.observer ?? null,
    onSettled: options.onSettled ?? null,
    sweepGate: options.sweepGate ?? null,
    pointTimers: new Set(),
    events,
    running: new Set(),
    working: new Set(),
    local: new Map(),
    completing: new Map(),
    delivery: { running: null, again: false, count: 0 },
    sweeper: { running: null, timer: undefined, lastPrune: 0 },
    stopped: false,
  };
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export const circuitOpen = (deps: JournalDeps): boolean => deps.circuit?.isOpen() ?? false;

/** The wait before a kept sale's next try (doubling from retryBaseMs up to retryCapMs). */
export const retryDelay = (deps: JournalDeps, attempt: number): number =>
  backoffMs(attempt, deps.options.retryBaseMs, deps.options.retryCapMs, deps.random);

/** The calls to the service a posting took in this process (JournalObserver.postingCalls). */
export interface Tally {
  calls: number;
}

/** `deps`' calls to the service, each counted in `tally`. */
export function counted(deps: JournalDeps, tally: Tally): Pick<JournalDeps, 'call' | 'options'> {
  return {
    options: deps.options,
    call: (op, body, signal) => {
      tally.calls += 1;
      return deps.call(op, body, signal);
    },
  };
}

export function track(deps: JournalDeps, p: Promise<void>): void {
  deps.running.add(p);
  void p.finally(() => deps.running.delete(p));
}

export async function write(deps: JournalDeps, key: string, patch: EntryPatch): Promise<boolean> {
  const ok = await deps.store.update(key, deps.me, patch, deps.now());
  deps.events.emit(key);
  return ok;
}

/**
 * Settles an entry: its final state and the release of its customer's slot in one write.
 * Waiters in this process get the final entry at once, before that write is durable: the
 * verdict is already known, and if this process dies before the write, the sweep reaches the
 * same verdict from the snapshot.
 */
export async function settle(
  deps: JournalDeps,
  entry: JournalEntry,
  state: 'lançado' | 'recusado' | 'desconhecido' | 'precisa de atenção',
  patch: EntryPatch,
  /** More of the final patch, learned after the answer has left (the slot still held). */
  after?: () => Promise<EntryPatch>,
): Promise<void> {
  const { local, completing, events, me } = deps;
  const t = deps.now();
  // A kept sale's password goes with its settlement (a manager gives it again to resend).
  const final: EntryPatch = {
    ...patch,
    state,
    settledAt: state === 'precisa de atenção' ? null : t,
    nextCheckAt: null,
    leaseUntil: 0,
    ...(entry.body !== null || entry.secret !== null ? { secret: null } : {}),
  };
  local.set(entry.key, { ...entry, ...final, updatedAt: t, owner: me });
  // The answer leaves first: on SQLite the durable commit blocks this thread while it syncs.
  const answered = new Promise<void>((resolve) => setImmediate(resolve));
  const finishing =
    after === undefined
      ? answered
      : answered.then(after).then(
          (more) => {
            Object.assign(final, more);
            local.set(entry.key, { ...entry, ...final, updatedAt: t, owner: me });
          },
          () => undefined,
        );
  if (after !== undefined) completing.set(entry.key, finishing);
  events.emit(entry.key);
  await finishing;
  try {
    // Not flushed before it returns: a verdict lost to a power cut is reached again from the
    // snapshot (the entry is still sent and unsettled in the store), and the next flushed
    // commit (every posting's journaling before it is sent) flushes it anyway.
    await deps.store.finish(entry.key, me, final, t, { durable: false });
  } finally {
    local.delete(entry.key);
    completing.delete(entry.key);
    events.emit(entry.key);
  }
  deps.log?.info({ key: entry.key, state, requestId: entry.requestId }, 'posting settled');
  if (state === 'lançado') deps.onSettled?.(entry.key);
}

/**
 * A kept sale known not to have been posted goes back to the queue (its slot freed), to be
 * delivered again in its turn.
 */
export async function requeue(
  deps: JournalDeps,
  entry: JournalEntry,
  reason: string,
): Promise<void> {
  const { now } = deps;
  // Each claim counts one try: past the cap, a manager decides (nothing was posted).
  if (entry.attempts >= deps.options.maxDeliveryAttempts) {
    await settle(deps, entry, 'precisa de atenção', {
      reason: postingMessages.gaveUp(entry.attempts, reason),
    });
    return;
  }
  const at = now() + retryDelay(deps, entry.attempts);
  await deps.store.finish(
    entry.key,
    deps.me,
    {
      state: 'aguardando envio',
      reason,
      leaseUntil: 0,
      // Not claimed again before then (the queue keeps its order per customer).
      nextCheckAt: at,
      sentAt: null,
      snapshot: null,
    },
    now(),
  );
  deps.events.emit(entry.key);
  deps.log?.info(
    { key: entry.key, reason, attempt: entry.attempts, retryInMs: at - now() },
    'kept sale back in the queue',
  );
}

/** Parks an unsettled entry for the sweep: nobody holds it until `at`. */
export async function park(
  deps: JournalDeps,
  entry: JournalEntry,
  state: 'verificando' | 'desconhecido',
  at: number,
  patch: EntryPatch,
): Promise<void> {
  await write(deps, entry.key, { ...patch, state, nextCheckAt: at, leaseUntil: at - 1 });
}

/** Keeps the lease of an entry this process works on while `work` runs. */
export async function leased<T>(
  deps: JournalDeps,
  key: string,
  work: () => Promise<T>,
): Promise<T> {
  const { store, me, now, options } = deps;
  deps.working.add(key);
  const renew = setInterval(
    () =>
      void store
        .update(key, me, { leaseUntil: now() + options.leaseMs }, now())
        .catch(() => undefined),
    Math.max(50, Math.floor(options.leaseMs / 3)),
  );
  try {
    return await work();
  } finally {
    clearInterval(renew);
    deps.working.delete(key);
  }
}

/** Why no more sales may be kept now, or null when one may. */
export async function keepRefusal(deps: JournalDeps): Promise<string | null> {
  const { maxWaiting, maxWaitMs, establishmentId } = deps.options;
  const stats = await deps.store.queueStats(establishmentId);
  if (stats.waiting >= maxWaiting) return postingMessages.fullCount(maxWaiting);
  if (stats.oldestWaitingAt !== null && deps.now() - stats.oldestWaitingAt > maxWaitMs) {
    return postingMessages.fullAge(Math.round(maxWaitMs / 3_600_000));
  }
  return null;
}

/** The body to keep (no password) and the sealed password. */
export function keepable(deps: JournalDeps, key: string, body: Record<string, unknown>) {
  const { senha_atendente: password, ...rest } = body;
  return {
    body: rest,
    secret: seal(deps.sealKey!, typeof password === 'string' ? password : '', key),
  };
}
