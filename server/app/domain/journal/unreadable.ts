/** A lost answer whose customer could not be read again: parked for a re-read, or given up. */
import type { JournalEntry, LostKind } from '../../../store';
import { backoffMs } from './backoff';
import { park, settle, type JournalDeps } from './context';
import { postingMessages } from './messages';

/** Parks an entry whose customer could not be read, or gives it up past verifyGiveUpMs. */
export async function unreadable(
  deps: JournalDeps,
  entry: JournalEntry,
  kind: LostKind,
  endedAt: number,
  t: number,
): Promise<void> {
  const { options } = deps;
  if (t - endedAt >= options.verifyGiveUpMs) {
    // Never readable for that long: a person looks at the customer's history.
    await settle(deps, entry, entry.body !== null ? 'precisa de atenção' : 'desconhecido', {
      reason: postingMessages.verifyGaveUp,
      lostKind: kind,
      endedAt,
    });
    return;
  }
  // Re-read later, less often the longer the service stays unreadable.
  const first = Math.min(options.recheckMs, Math.max(options.quietMs, 1));
  const delay = Math.max(
    first,
    backoffMs(2, Math.min(t - endedAt, options.retryCapMs), options.retryCapMs, deps.random),
  );
  await park(deps, entry, 'desconhecido', t + delay, {
    reason: postingMessages.unknownReadFailed,
    lostKind: kind,
    endedAt,
  });
}
