/**
 * Kept sales (contingency): delivered oldest first, one per customer at a time, up to
 * `deliveryConcurrency` at once, through the same path as a new posting (send.ts); what the
 * counter shows of them (`status`); and a manager's decision on one that needs attention.
 */
import type { JournalEntry } from '../../../store';
import { circuitOpen, settle, track, type JournalDeps } from './context';
import { postingMessages } from './messages';
import { seal, unseal } from './sealed';
import { run } from './send';

/** What the counter shows of contingency (`GET /api/contingencia`). */
export interface ContingencyStatus {
  /** The circuit is open: the service is unreachable, sales are kept. */
  open: boolean;
  openedAt: number | null;
  waiting: number;
  attention: number;
  oldestWaitingAt: number | null;
  maxWaiting: number;
  maxWaitMs: number;
  /** Whether a new sale could be kept now (false past a limit, or no contingency). */
  accepting: boolean;
}

/** A manager's decision on a `precisa de atenção` sale. */
export type Decision = { resend: { password: string } } | { discard: true };

async function deliverOne(deps: JournalDeps, entry: JournalEntry): Promise<void> {
  const password = entry.secret === null ? null : unseal(deps.sealKey!, entry.secret, entry.key);
  if (password === null || entry.body === null) {
    await settle(deps, entry, 'precisa de atenção', { reason: postingMessages.keptNoPassword });
    return;
  }
  deps.log?.info({ key: entry.key, attempt: entry.attempts }, 'delivering kept sale');
  await run(deps, entry, { ...entry.body, senha_atendente: password });
}

/** One round of claims: kept sales up to the free concurrency, each started detached. */
async function claimRound(deps: JournalDeps): Promise<'stop' | 'done'> {
  const { delivery, options, log } = deps;
  if (circuitOpen(deps) || deps.stopped) return 'stop';
  const free = options.deliveryConcurrency - delivery.count;
  if (free <= 0) return 'stop';
  const t = deps.now();
  const claimed = await deps.store.claimWaiting(
    options.establishmentId,
    t,
    deps.me,
    t + options.leaseMs,
    free,
  );
  for (const entry of claimed) {
    delivery.count += 1;
    deps.events.emit(entry.key);
    track(
      deps,
      deliverOne(deps, entry)
        .catch((err: unknown) =>
          log?.error({ key: entry.key, err: String(err) }, 'kept sale delivery failed'),
        )
        .finally(() => {
          delivery.count -= 1;
          void deliver(deps);
        }),
    );
  }
  return 'done';
}

/** Claims kept sales (oldest first, one per customer) up to the concurrency and sends them. */
export function deliver(deps: JournalDeps): Promise<void> {
  const { delivery } = deps;
  if (deps.sealKey === null || deps.stopped) return Promise.resolve();
  if (delivery.running) {
    delivery.again = true;
    return delivery.running;
  }
  delivery.running = (async () => {
    do {
      delivery.again = false;
      if ((await claimRound(deps)) === 'stop') return;
    } while (delivery.again);
  })()
    .catch((err: unknown) => deps.log?.error({ err: String(err) }, 'kept sales delivery failed'))
    .finally(() => {
      delivery.running = null;
    });
  return delivery.running;
}

/** Contingency as the counter shows it. */
export async function contingencyStatus(deps: JournalDeps): Promise<ContingencyStatus> {
  const { options } = deps;
  const stats = await deps.store.queueStats(options.establishmentId);
  return {
    open: circuitOpen(deps),
    openedAt: deps.circuit?.openedAt() ?? null,
    waiting: stats.waiting,
    attention: stats.attention,
    oldestWaitingAt: stats.oldestWaitingAt,
    maxWaiting: options.maxWaiting,
    maxWaitMs: options.maxWaitMs,
    accepting:
      deps.sealKey !== null &&
      stats.waiting < options.maxWaiting &&
      (stats.oldestWaitingAt === null || deps.now() - stats.oldestWaitingAt <= options.maxWaitMs),
  };
}

/** A manager's decision on a sale needing attention; null when it is not in that state. */
export async function resolve(
  deps: JournalDeps,
  rawKey: string,
  decision: Decision,
): Promise<JournalEntry | null> {
  const key = rawKey.toLowerCase();
  const ok = await deps.store.resolveAttention(
    key,
    deps.now(),
    'resend' in decision
      ? { resend: { secret: seal(deps.sealKey!, decision.resend.password, key) } }
      : { discard: { reason: postingMessages.discarded } },
  );
  deps.events.emit(key);
  if (!ok) return null;
  if ('resend' in decision) void deliver(deps);
  return deps.store.get(key);
}
