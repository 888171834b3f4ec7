/**
 * Deciding a lost answer: the customer is re-read after the upstream request has ended and
 * compared with the snapshot taken just before sending. "Unchanged" becomes "não lançado" only
 * after a quiet period (a reset or 5xx) or a long horizon (a timeout or a crash); until then the
 * entry is parked (`verificando` / `desconhecido`) and re-checked by the sweep.
 */
import type { JournalEntry, LostKind } from '../../../store';
import { backoffMs } from './backoff';
import { park, requeue, settle, type JournalDeps } from './context';
import { postingMessages } from './messages';
import { ABSENT, compareReadings, readFor } from './readings';

/** Parks an entry whose customer could not be read, or gives it up past verifyGiveUpMs. */
async function unreadable(
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

/** Decides a lost answer by re-reading the customer. */
export async function verify(
  deps: JournalDeps,
  entry: JournalEntry,
  kind: LostKind,
  endedAt: number,
): Promise<void> {
  const { options } = deps;
  const snapshot = entry.snapshot ?? ABSENT;
  const reading = await readFor(deps, entry.customerKey, entry.snapshot, null);
  const t = deps.now();
  const horizon = kind === 'reset' ? options.quietMs : options.unknownHorizonMs;
  const waiting: 'verificando' | 'desconhecido' = kind === 'reset' ? 'verificando' : 'desconhecido';
  if (reading === null) {
    await unreadable(deps, entry, kind, endedAt, t);
    return;
  }
  const verdict = compareReadings(snapshot, reading);
  const lost = { reading, lostKind: kind, endedAt };
  if (verdict === 'posted') {
    await settle(deps, entry, 'lançado', {
      reason: postingMessages.verifiedPosted,
      reading,
      points: reading.ultimo_credito,
      customerName: reading.nome,
      lostKind: kind,
      endedAt,
    });
  } else if (verdict === 'ambiguous' && entry.body !== null) {
    await settle(deps, entry, 'precisa de atenção', {
      reason: postingMessages.keptAmbiguous,
      ...lost,
    });
  } else if (verdict === 'ambiguous') {
    await settle(deps, entry, 'desconhecido', { reason: postingMessages.ambiguous, ...lost });
  } else if (t - endedAt >= horizon && entry.body !== null) {
    // Verified not posted: the one case a kept sale is sent again.
    await requeue(deps, entry, postingMessages.keptVerifiedNotPosted);
  } else if (t - endedAt >= horizon) {
    await settle(deps, entry, 'recusado', { reason: postingMessages.verifiedNotPosted, ...lost });
  } else {
    const next = Math.min(
      t + (kind === 'reset' ? options.quietMs : options.recheckMs),
      endedAt + horizon,
    );
    await park(deps, entry, waiting, next, {
      reason: waiting === 'verificando' ? postingMessages.verifying : postingMessages.unknown,
      ...lost,
    });
  }
}
