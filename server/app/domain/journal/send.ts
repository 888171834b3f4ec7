/**
 * One posting's detached life: wait for the customer's slot, take the snapshot, journal it as
 * sent, send once, and settle from the answer (or verify a lost one). Never sent twice: a lost
 * answer is decided by verify.ts, and a kept sale goes back to the queue only when it is known
 * not to have been posted.
 */
import type { CustomerReading, EntryPatch, JournalEntry, LostKind } from '../../../store';
import { backoffMs } from './backoff';
import {
  counted,
  keepable,
  keepRefusal,
  leased,
  requeue,
  retryDelay,
  settle,
  sleep,
  write,
  type JournalDeps,
  type Tally,
} from './context';
import { answerPoints, pointsFromSnapshot, pointsLater } from './lookups';
import { postingMessages } from './messages';
import {
  compareReadings,
  readFor,
  readOutcome,
  refusedAnswer,
  UpstreamTimeout,
  withLimit,
  type ReadOutcome,
} from './readings';
import { verify } from './verify';

/** True when the upstream answer is a trustworthy success of pontuar. */
function postedAnswer(status: number, text: string): Record<string, unknown> | null {
  if (status < 200 || status > 299) return null;
  try {
    const body = JSON.parse(text) as { success?: unknown; data?: Record<string, unknown> };
    if (body.success === true && typeof body.data?.id_ponto === 'number') return body.data;
  } catch {
    return null;
  }
  return null;
}

/**
 * The service refused to read the customer before anything was sent (the data it was given
 * is wrong, or it refuses this client): a new sale is refused with the service's own answer;
 * a kept sale, already answered, waits for a manager, or for its next turn after a 429.
 */
async function refusedRead(
  deps: JournalDeps,
  entry: JournalEntry,
  refusal: Extract<ReadOutcome, { kind: 'refused' }>,
): Promise<void> {
  if (entry.body === null) {
    await settle(deps, entry, 'recusado', {
      answerStatus: refusal.status,
      answerBody: refusal.text,
      reason: refusal.message,
    });
  } else if (refusal.status === 429) {
    await requeue(deps, entry, postingMessages.keptRequeued);
  } else {
    await settle(deps, entry, 'precisa de atenção', {
      reason: postingMessages.keptRefused(refusal.message),
    });
  }
}

/** Waits the customer's slot (bounded); false when it was not had in time (then settled). */
export async function waitSlot(deps: JournalDeps, entry: JournalEntry): Promise<boolean> {
  const { store, now } = deps;
  const slotDeadline = now() + deps.options.slotWaitMs;
  for (let turn = 1; ; turn += 1) {
    if (await store.takeSlot(entry.establishmentId, entry.customerKey, entry.key, now())) {
      return true;
    }
    if (now() >= slotDeadline) {
      if (entry.body !== null) await requeue(deps, entry, postingMessages.keptRequeued);
      else await settle(deps, entry, 'recusado', { reason: postingMessages.busy });
      return false;
    }
    await sleep(backoffMs(turn, 50, 1_000, deps.random));
  }
}

/** The customer could not be read: nothing was sent. Kept for later if it may be, or refused. */
async function unreadBeforeSending(
  deps: JournalDeps,
  entry: JournalEntry,
  body: Record<string, unknown>,
): Promise<void> {
  // A kept sale waits its next turn; a new one is kept if it may be.
  if (entry.body !== null) {
    await requeue(deps, entry, postingMessages.keptRequeued);
    return;
  }
  if (deps.sealKey !== null && (await keepRefusal(deps)) === null) {
    await deps.store.finish(
      entry.key,
      deps.me,
      {
        ...keepable(deps, entry.key, body),
        state: 'aguardando envio',
        reason: postingMessages.kept,
        leaseUntil: 0,
        nextCheckAt: deps.now() + retryDelay(deps, 1),
      },
      deps.now(),
    );
    deps.events.emit(entry.key);
    return;
  }
  await settle(deps, entry, 'recusado', { reason: postingMessages.readFailed });
}

/** How a posting is sent: its calls so far, and whether a counter reads the customer after it. */
export interface Sending {
  tally: Tally;
  /** Posted at a counter (see Submission.counter). */
  counter: boolean;
}

/** The detached life of one posting, from its slot to its verdict. */
export async function run(
  deps: JournalDeps,
  entry: JournalEntry,
  body: Record<string, unknown>,
  options: { counter?: boolean } = {},
): Promise<void> {
  const tally: Tally = { calls: 0 };
  await leased(deps, entry.key, async () => {
    // One posting per customer at a time: wait our turn (bounded).
    if (!(await waitSlot(deps, entry))) return;
    const cpf =
      typeof (body.cliente as { cpf?: unknown }).cpf === 'string'
        ? (body.cliente as { cpf: string }).cpf
        : null;
    const outcome = await readOutcome(counted(deps, tally), entry.customerKey, null, cpf);
    if (outcome.kind === 'refused') {
      await refusedRead(deps, entry, outcome);
      return;
    }
    const snapshot = outcome.kind === 'read' ? outcome.reading : null;
    if (snapshot === null) {
      await unreadBeforeSending(deps, entry, body);
      return;
    }
    pointsFromSnapshot(deps, entry.customerKey, snapshot);
    // The snapshot and the send time are journaled before anything leaves, and only while
    // the entry is still this process's and still unsent: if a sweep settled it meanwhile
    // (its lease ran out), nothing is sent.
    const sentAt = deps.now();
    const mayStillSend = await deps.store.update(
      entry.key,
      deps.me,
      { snapshot, sentAt, customerName: snapshot.nome ?? entry.customerName },
      sentAt,
      ['enviando'],
    );
    if (!mayStillSend) {
      await deps.store.releaseSlot(entry.key);
      deps.log?.warn({ key: entry.key }, 'posting taken over before it was sent; not sent');
      return;
    }
    deps.observer?.snapshot('read');
    await send(deps, { ...entry, snapshot, sentAt }, body, snapshot, {
      tally,
      counter: options.counter === true,
    });
  });
}

/**
 * The points a posting earned. Its answer carries the balance after it (`saldo_atual`), not
 * its points, and a reward won by it debits that balance, so the difference from the
 * snapshot is not its points. Its own credit in the customer's history is: read while its
 * slot is still held (no other posting of ours can add a credit meanwhile), and taken only
 * when exactly this one purchase was added since the snapshot. Unknown (null) otherwise.
 */
async function earnedPoints(
  deps: JournalDeps,
  sending: JournalEntry,
  snapshot: CustomerReading,
  data: Record<string, unknown>,
  tally: Tally,
): Promise<EntryPatch> {
  const id = typeof data.id_cliente === 'number' ? data.id_cliente : snapshot.id_cliente;
  const known = { ...snapshot, id_cliente: id };
  const reading = await readFor(counted(deps, tally), sending.customerKey, known, null);
  if (reading === null || compareReadings(snapshot, reading) !== 'posted') return {};
  deps.observer?.points('read');
  return {
    points: reading.ultimo_credito,
    reading,
    customerName: reading.nome ?? sending.customerName,
  };
}

/** Settles a posting the service answered with a refusal; false when the answer is no refusal. */
async function settleRefusal(
  deps: JournalDeps,
  sending: JournalEntry,
  status: number,
  text: string,
  endedAt: number,
): Promise<boolean> {
  if (!refusedAnswer(status)) return false;
  let reason: string | null = null;
  try {
    const m = (JSON.parse(text) as { message?: unknown }).message;
    if (typeof m === 'string') reason = m;
  } catch {
    reason = null;
  }
  if (sending.body !== null && status === 429) {
    // Refused for now (rate): nothing was posted; it waits its next turn.
    await requeue(deps, sending, postingMessages.keptRequeued);
    return true;
  }
  await settle(deps, sending, sending.body !== null ? 'precisa de atenção' : 'recusado', {
    answerStatus: status,
    answerBody: text,
    endedAt,
    reason,
  });
  return true;
}

/**
 * Settles a posting the service answered: with its points when the answer tells them; else a
 * counter's posting now (its refresh of the customer, or our read later, tells them), and
 * any other once the customer is read (its slot still held).
 */
async function settlePosted(
  deps: JournalDeps,
  sending: JournalEntry,
  snapshot: CustomerReading,
  answer: { status: number; text: string; data: Record<string, unknown>; endedAt: number },
  how: Sending,
): Promise<void> {
  const patch = {
    answerStatus: answer.status,
    answerBody: answer.text,
    endedAt: answer.endedAt,
    reason: null,
  };
  const points = answerPoints(snapshot, answer.data, answer.endedAt);
  if (points !== null) {
    deps.observer?.points('answer');
    await settle(deps, sending, 'lançado', { ...patch, points });
  } else if (how.counter) {
    await settle(deps, sending, 'lançado', patch);
    pointsLater(deps, sending);
  } else {
    await settle(deps, sending, 'lançado', patch, () =>
      earnedPoints(deps, sending, snapshot, answer.data, how.tally),
    );
  }
}

/**
 * Sends the posting (journaled as sent, its slot held) and settles it from what follows; the
 * calls it took to the service are counted however it ends.
 */
export async function send(...args: Parameters<typeof sendOnce>): Promise<void> {
  const [deps, , , , how] = args;
  try {
    await sendOnce(...args);
  } finally {
    deps.observer?.postingCalls(how.tally.calls);
  }
}

async function sendOnce(
  deps: JournalDeps,
  sending: JournalEntry,
  body: Record<string, unknown>,
  snapshot: CustomerReading,
  how: Sending,
): Promise<void> {
  let status: number | null = null;
  let text = '';
  let lost: LostKind | null = null;
  try {
    const answer = await withLimit(deps.options.upstreamLimitMs, async (signal) => {
      const res = await counted(deps, how.tally).call('pontuar', body, signal);
      return { status: res.status, text: await res.text() };
    });
    status = answer.status;
    text = answer.text;
  } catch (err) {
    lost = err instanceof UpstreamTimeout ? 'timeout' : 'reset';
  }
  const endedAt = deps.now();
  if (status !== null) {
    const data = postedAnswer(status, text);
    if (data !== null) {
      await settlePosted(deps, sending, snapshot, { status, text, data, endedAt }, how);
      return;
    }
    if (await settleRefusal(deps, sending, status, text, endedAt)) return;
    lost = 'reset';
  }
  deps.log?.warn(
    { key: sending.key, lost, status, requestId: sending.requestId },
    'posting answer lost',
  );
  await write(deps, sending.key, {
    state: 'verificando',
    reason: postingMessages.verifying,
    lostKind: lost,
    endedAt,
  });
  await verify(
    deps,
    { ...sending, state: 'verificando' },
    lost ?? 'reset',
    endedAt,
    how.tally,
    body,
  );
}
