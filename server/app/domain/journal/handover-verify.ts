/**
 * Deciding a hand-over's lost answer: the customer's records of that reward are re-read after
 * the request has ended and compared with those read just before sending (one more handed-over
 * record that was pending: handed over; none: not yet, "não entregue" after the same quiet
 * period or horizon as postings; anything else: ambiguous). Never sent again.
 */
import type { JournalEntry, LostKind } from '../../../store';
import { park, settle, type JournalDeps } from './context';
import { handoverMessages } from './messages';
import { compareRecords, readRecords } from './rewards';
import { unreadable } from './unreadable';

export async function verifyHandover(
  deps: JournalDeps,
  entry: JournalEntry,
  kind: LostKind,
  endedAt: number,
): Promise<void> {
  const { options } = deps;
  const reward = entry.reward;
  if (reward === null || reward.before === null) {
    // Never journaled as sent: nothing left for the service.
    await settle(deps, entry, 'recusado', { reason: handoverMessages.readFailed });
    return;
  }
  const read = await readRecords(deps, reward.id_cliente, reward.id_premio);
  const t = deps.now();
  if (read === null) {
    await unreadable(deps, entry, kind, endedAt, t);
    return;
  }
  const { verdict, id } = compareRecords(reward.before, read.records);
  const lost = { lostKind: kind, endedAt };
  const horizon = kind === 'reset' ? options.quietMs : options.unknownHorizonMs;
  if (verdict === 'handed') {
    await settle(deps, entry, 'lançado', {
      ...lost,
      reason: handoverMessages.verifiedHanded,
      reward: { ...reward, id_premio_cliente: id, nome: read.nome ?? reward.nome },
    });
  } else if (verdict === 'ambiguous') {
    await settle(deps, entry, 'desconhecido', { ...lost, reason: handoverMessages.ambiguous });
  } else if (t - endedAt >= horizon) {
    await settle(deps, entry, 'recusado', { ...lost, reason: handoverMessages.verifiedNotHanded });
  } else {
    const waiting = kind === 'reset' ? 'verificando' : 'desconhecido';
    const next = Math.min(
      t + (kind === 'reset' ? options.quietMs : options.recheckMs),
      endedAt + horizon,
    );
    await park(deps, entry, waiting, next, {
      ...lost,
      reason: waiting === 'verificando' ? handoverMessages.verifying : handoverMessages.unknown,
    });
  }
}
