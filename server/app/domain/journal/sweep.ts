/**
 * The sweep (every `sweepMs`, on every process): takes over what nobody works on (entries of a
 * process that died, whose lease ran out, and parked entries whose re-check is due), starts the
 * delivery of kept sales, and prunes entries past their retention once an hour.
 */
import type { JournalEntry } from '../../../store';
import { leased, requeue, settle, track, type JournalDeps } from './context';
import { deliver } from './deliver';
import { handoverMessages, postingMessages } from './messages';
import { verify } from './verify';

/** Takes over what nobody works on: crashed processes' entries and due re-checks. */
async function recover(deps: JournalDeps, entry: JournalEntry): Promise<void> {
  await leased(deps, entry.key, async () => {
    if (entry.state === 'enviando' && entry.sentAt === null) {
      if (entry.body !== null) await requeue(deps, entry, postingMessages.keptRequeued);
      else {
        const reason =
          entry.kind === 'premio'
            ? handoverMessages.notSentRestart
            : postingMessages.notSentRestart;
        await settle(deps, entry, 'recusado', { reason });
      }
      return;
    }
    if (entry.state === 'enviando') {
      // Its process died mid-request: that request has ended, the upstream may still commit.
      await verify(deps, entry, 'crash', deps.now());
      return;
    }
    await verify(deps, entry, entry.lostKind ?? 'crash', entry.endedAt ?? deps.now());
  });
}

async function sweepOnce(deps: JournalDeps): Promise<void> {
  const { store, options, log, sweeper } = deps;
  const t = deps.now();
  const claimed = await store.claimStale(
    options.establishmentId,
    t,
    deps.me,
    t + options.leaseMs,
    50,
  );
  for (const entry of claimed) {
    // Its lease lapsed while this very process works on it (a stalled event loop): the
    // claim renewed the lease; the work goes on.
    if (deps.working.has(entry.key)) continue;
    const p = recover(deps, entry).catch((err: unknown) =>
      log?.error({ key: entry.key, err: String(err) }, 'posting recovery failed'),
    );
    track(deps, p);
  }
  if (deps.sealKey !== null) await deliver(deps);
  if (t - sweeper.lastPrune > 60 * 60_000) {
    sweeper.lastPrune = t;
    const pruned = await store.prune(t - options.retentionMs);
    if (pruned > 0) log?.info({ pruned }, 'journal pruned');
  }
}

/** Runs one sweep now (or joins the one running). */
export function sweep(deps: JournalDeps): Promise<void> {
  const { sweeper } = deps;
  if (sweeper.running) return sweeper.running;
  sweeper.running = sweepOnce(deps)
    .catch((err: unknown) => deps.log?.error({ err: String(err) }, 'journal sweep failed'))
    .finally(() => {
      sweeper.running = null;
    });
  return sweeper.running;
}

/** Starts the periodic sweep (its first run at once: the start-up recovery). */
export function startSweep(deps: JournalDeps): void {
  const { sweeper } = deps;
  if (sweeper.timer !== undefined) return;
  void sweep(deps);
  const { sweepGate, options } = deps;
  sweeper.timer = setInterval(() => {
    if (sweepGate === null) return void sweep(deps);
    void sweepGate
      .due('journal', options.establishmentId)
      .then((due) => (due ? sweep(deps) : undefined));
  }, options.sweepMs);
  sweeper.timer.unref?.();
}

/** Stops the periodic sweep and waits for the one running. */
export async function stopSweep(deps: JournalDeps): Promise<void> {
  const { sweeper } = deps;
  if (sweeper.timer !== undefined) clearInterval(sweeper.timer);
  sweeper.timer = undefined;
  await sweeper.running;
}
