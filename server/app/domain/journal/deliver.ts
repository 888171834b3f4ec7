/**
 * Kept sales (contingency): delivered oldest first, one per customer at a time, up to
 * `deliveryConcurrency` at once, through the same path as a new posting (send.ts); what the
 * counter shows of them (`status`); and a manager's decision on one that needs attention.
 */
import { postedEntries, RESTORED_KEPT_REASON, type JournalEntry } from '../../../store';
import { TOLERANCE_MS, creditsOf } from '../conferencia/match';
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

/**
 * A kept sale a restore brought back may have been delivered after the backup was taken: the
 * restored journal cannot tell. Before sending it, the customer's history is read: credits
 * from the sale's time on that the journal does not account for (its own postings of that
 * customer since) mean it may be there already, and a manager decides. Null: no reading now.
 */
async function restoredMayBeThere(deps: JournalDeps, entry: JournalEntry): Promise<boolean | null> {
  const res = await deps
    .call('buscar', { celular: entry.customerKey }, AbortSignal.timeout(deps.options.readLimitMs))
    .catch(() => null);
  if (res === null) return null;
  if (res.status === 404) return false;
  // A refusal is an answer: the history cannot confirm it, so a manager decides.
  if (res.status >= 400 && res.status < 500 && res.status !== 429) return true;
  if (res.status !== 200) return null;
  const data = ((await res.json().catch(() => null)) as { data?: unknown } | null)?.data;
  const since = entry.createdAt - TOLERANCE_MS;
  const credits = creditsOf(data).filter((c) => c.at >= since).length;
  // The journal's own postings of this customer the service took since (by when they were
  // sent, as the credits are stamped), this sale aside: postedEntries leaves it out (not lançado).
  const ours = (
    await postedEntries(deps.store.store, {
      establishmentId: deps.options.establishmentId,
      from: since,
      to: deps.now() + 1,
      customerKey: entry.customerKey,
    })
  ).length;
  return credits > ours;
}

async function deliverOne(deps: JournalDeps, entry: JournalEntry): Promise<void> {
  if (entry.reason === RESTORED_KEPT_REASON) {
    const there = await restoredMayBeThere(deps, entry);
    // No reading: the lease runs out and the sale is claimed again (the circuit pauses it).
    if (there === null) throw new Error('the customer could not be read');
    if (there) {
      await settle(deps, entry, 'precisa de atenção', { reason: postingMessages.restoredCredited });
      return;
    }
  }
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
