/**
 * Deciding a lost answer: the customer is re-read after the upstream request has ended and
 * compared with the snapshot taken just before sending. "Unchanged" becomes "não lançado" only
 * after a quiet period (a reset or 5xx) or a long horizon (a timeout or a crash); until then the
 * entry is parked (`verificando` / `desconhecido`) and re-checked by the sweep.
 */
import type { JournalEntry, LostKind } from '../../../store';
import {
  counted,
  keepable,
  keepRefusal,
  park,
  requeue,
  settle,
  write,
  type JournalDeps,
  type Tally,
} from './context';
import { verifyHandover } from './handover-verify';
import { postingMessages } from './messages';
import { ABSENT, compareReadings, readFor } from './readings';
import { unreadable } from './unreadable';

/** Decides a lost answer by re-reading the customer. */
export async function verify(
  deps: JournalDeps,
  entry: JournalEntry,
  kind: LostKind,
  endedAt: number,
  /** The posting's calls so far, when this process sent it. */
  tally: Tally = { calls: 0 },
  /** The sale's body, when this process sent it: kept if the service proves unreachable. */
  body: Record<string, unknown> | null = null,
): Promise<void> {
  // A reward handed over is decided by the customer's records of that reward.
  if (entry.kind === 'premio') return verifyHandover(deps, entry, kind, endedAt);
  const { options } = deps;
  const snapshot = entry.snapshot ?? ABSENT;
  const reading = await readFor(counted(deps, tally), entry.customerKey, entry.snapshot, null);
  const t = deps.now();
  const horizon = kind === 'reset' ? options.quietMs : options.unknownHorizonMs;
  const waiting: 'verificando' | 'desconhecido' = kind === 'reset' ? 'verificando' : 'desconhecido';
  if (reading === null) {
    await unreadable(deps, await keptIfUnreachable(deps, entry, body), kind, endedAt, t);
    return;
  }
  const verdict = compareReadings(snapshot, reading);
  const lost = { reading, lostKind: kind, endedAt };
  if (verdict === 'posted') {
    if (reading.ultimo_credito !== null) deps.observer?.points('read');
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

/**
 * A new sale whose answer was lost and whose customer cannot be read either: the service went
 * down under it (its posting was the first call, the snapshot being the terminal's lookup).
 * It becomes a kept sale, as it would have been had the service been found down before
 * sending: its fate is still decided by reading the customer back (posted: settled; verified
 * not posted: delivered once, like every kept sale), but no cashier has to post it again.
 */
async function keptIfUnreachable(
  deps: JournalDeps,
  entry: JournalEntry,
  body: Record<string, unknown> | null,
): Promise<JournalEntry> {
  if (body === null || entry.body !== null || deps.sealKey === null) return entry;
  if ((await keepRefusal(deps)) !== null) return entry;
  const kept = keepable(deps, entry.key, body);
  await write(deps, entry.key, kept);
  deps.log?.info({ key: entry.key }, 'lost answer, service unreachable: sale kept');
  return { ...entry, ...kept };
}
