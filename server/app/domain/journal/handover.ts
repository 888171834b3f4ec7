/**
 * A reward handed over at the counter (`resgatar-premio`), exactly once, through the postings
 * journal's machinery: a journal entry of kind 'premio' under its Idempotency-Key (the same key
 * and body, the password apart, is the same hand-over), the customer's slot (the one postings
 * take, keyed by the customer's phone), the customer's records of that reward read just before
 * sending, one send, and a lost answer decided by re-reading those records (handover-verify.ts),
 * recovered by the sweep after a crash like a posting.
 *
 * Never kept for later: while the service is unreachable (the circuit open, or the customer
 * or the reward's records unreadable before sending) it is refused (`unavailable`), nothing
 * journaled. A service without the operation (404/405 that is not its own envelope) is
 * remembered in the process (`available()` false) and refused (`unsupported`).
 */
import type { JournalEntry, NewEntry } from '../../../store';
import { firstError, validateResgatar } from '#contract/rules/validation';
import { circuitOpen, leased, settle, track, write, type JournalDeps } from './context';
import { postingFingerprint } from './fingerprint';
import { verifyHandover } from './handover-verify';
import { wait } from './ledger';
import { handoverMessages, postingMessages } from './messages';
import { envelopeMessage, refusedAnswer, UpstreamTimeout, withLimit } from './readings';
import { alreadyHandedOver, readCustomerById, readRecords } from './rewards';
import { waitSlot } from './send';
import type { Submission } from './submit';

export type HandoverResult =
  | { kind: 'invalid'; message: string; errors?: Record<string, string[]> }
  /** The service is unreachable: nothing journaled, nothing sent (never kept). */
  | { kind: 'unavailable'; message: string }
  /** The service does not offer the operation (or the setting turned it off). */
  | { kind: 'unsupported'; status: 404 | 405; message: string }
  /** The service refused before anything was journaled (the customer's read): its answer. */
  | { kind: 'refused'; status: number; body: string }
  /** `created`: this request journaled it (a replay of the same key finds it: absent). */
  | { kind: 'entry'; entry: JournalEntry; created?: boolean };

/** Whether hand-overs are on: the setting, and what this process learned of the service. */
export interface HandoverSwitch {
  enabled: boolean;
  /** Set once the service answered that the route does not exist. */
  missing: 404 | 405 | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The answer of a service without the operation (404/405 that is not its own refusal). */
export function missingRoute(status: number, text: string): 404 | 405 | null {
  if (status === 405) return 405;
  if (status !== 404) return null;
  try {
    const body = JSON.parse(text) as { success?: unknown } | null;
    return body !== null && typeof body === 'object' && body.success === false ? null : 404;
  } catch {
    return 404;
  }
}

const envelope = (message: string, extra: object = {}) =>
  JSON.stringify({ success: false, message, data: {}, ...extra });

function check(
  s: Submission,
):
  | Extract<HandoverResult, { kind: 'invalid' }>
  | { key: string; body: Record<string, unknown>; idPremio: number; idCliente: number } {
  if (s.key === undefined || s.key.trim() === '')
    return { kind: 'invalid', message: postingMessages.noKey };
  const key = s.key.trim().toLowerCase();
  if (!UUID.test(key)) return { kind: 'invalid', message: postingMessages.badKey };
  const body = (s.body ?? {}) as Record<string, unknown>;
  const valid = validateResgatar(body, { checkPassword: () => true });
  if (!valid.ok)
    return { kind: 'invalid', message: firstError(valid.errors), errors: valid.errors };
  return { key, body, idPremio: valid.value.id_premio, idCliente: valid.value.id_cliente };
}

/** An existing entry under the key: the same hand-over (after a bounded wait), or a reuse. */
async function found(
  deps: JournalDeps,
  existing: JournalEntry,
  fingerprint: string,
): Promise<HandoverResult> {
  if (existing.fingerprint !== fingerprint || existing.kind !== 'premio') {
    return { kind: 'invalid', message: postingMessages.keyReused };
  }
  const entry = await wait(deps, existing.key, deps.options.waitMs, null);
  return { kind: 'entry', entry: entry ?? existing };
}

/** Settles a hand-over the service answered (true), or false when the answer is lost. */
async function settleAnswer(
  deps: JournalDeps,
  sw: HandoverSwitch,
  entry: JournalEntry,
  status: number,
  text: string,
  endedAt: number,
): Promise<boolean> {
  const reward = entry.reward!;
  if (status >= 200 && status <= 299) {
    let id: unknown = null;
    try {
      const b = JSON.parse(text) as { success?: unknown; data?: { id_premio_cliente?: unknown } };
      if (b.success === true) id = b.data?.id_premio_cliente;
    } catch {
      id = null;
    }
    if (typeof id !== 'number') return false;
    await settle(deps, entry, 'lançado', {
      answerStatus: status,
      answerBody: text,
      endedAt,
      reason: handoverMessages.handed,
      reward: { ...reward, id_premio_cliente: id },
    });
    return true;
  }
  const missing = missingRoute(status, text);
  if (missing !== null) {
    sw.missing = missing;
    deps.log?.warn({ status }, 'the loyalty service does not offer resgatar-premio');
    const body = envelope(handoverMessages.unsupported, { data: { entrega_indisponivel: true } });
    await settle(deps, entry, 'recusado', {
      answerStatus: missing,
      answerBody: body,
      endedAt,
      reason: handoverMessages.unsupported,
    });
    return true;
  }
  if (!refusedAnswer(status)) return false;
  let answerBody = text;
  let reason = envelopeMessage(text);
  const nothing = reason?.startsWith('O cliente não tem este prêmio') ?? false;
  if (
    status === 422 &&
    nothing &&
    (await alreadyHandedOver(deps, reward.id_cliente, reward.id_premio))
  ) {
    reason = handoverMessages.alreadyHanded;
    answerBody = envelope(reason, { errors: { id_premio: [reason] } });
  }
  await settle(deps, entry, 'recusado', { answerStatus: status, answerBody, endedAt, reason });
  return true;
}

/** The detached life of one hand-over: its slot, the records before, one send, the verdict. */
async function run(
  deps: JournalDeps,
  sw: HandoverSwitch,
  entry: JournalEntry,
  body: Record<string, unknown>,
) {
  if (!(await waitSlot(deps, entry))) return;
  const reward = entry.reward!;
  const before = await readRecords(deps, reward.id_cliente, reward.id_premio);
  if (before === null) {
    await settle(deps, entry, 'recusado', { reason: handoverMessages.readFailed });
    return;
  }
  const sentAt = deps.now();
  const next = { ...reward, before: before.records, nome: before.nome ?? reward.nome };
  const mayStillSend = await deps.store.update(
    entry.key,
    deps.me,
    { reward: next, sentAt },
    sentAt,
    ['enviando'],
  );
  if (!mayStillSend) {
    await deps.store.releaseSlot(entry.key);
    return;
  }
  const sending = { ...entry, reward: next, sentAt };
  let answer: { status: number; text: string } | null = null;
  let lost: 'reset' | 'timeout' = 'reset';
  try {
    answer = await withLimit(deps.options.upstreamLimitMs, async (signal) => {
      const res = await deps.call('resgatar-premio', body, signal);
      return { status: res.status, text: await res.text() };
    });
  } catch (err) {
    lost = err instanceof UpstreamTimeout ? 'timeout' : 'reset';
  }
  const endedAt = deps.now();
  if (
    answer !== null &&
    (await settleAnswer(deps, sw, sending, answer.status, answer.text, endedAt))
  )
    return;
  deps.log?.warn({ key: entry.key, lost, requestId: entry.requestId }, 'hand-over answer lost');
  await write(deps, entry.key, {
    state: 'verificando',
    reason: handoverMessages.verifying,
    lostKind: lost,
    endedAt,
  });
  await verifyHandover(deps, { ...sending, state: 'verificando' }, lost, endedAt);
}

/** A new hand-over: checked, journaled and sent (or the same one found), answered after a wait. */
export async function handOver(
  deps: JournalDeps,
  sw: HandoverSwitch,
  s: Submission,
): Promise<HandoverResult> {
  if (!sw.enabled || sw.missing !== null) {
    return {
      kind: 'unsupported',
      status: sw.missing ?? 404,
      message: handoverMessages.unsupported,
    };
  }
  const checked = check(s);
  if ('kind' in checked) return checked;
  const { key, body, idPremio, idCliente } = checked;
  const fingerprint = postingFingerprint(body);
  const existing = await deps.store.get(key);
  if (existing !== null) return found(deps, existing, fingerprint);
  const unavailable = { kind: 'unavailable', message: handoverMessages.unavailable } as const;
  if (circuitOpen(deps)) return unavailable;
  // The customer (its phone is the slot postings take) and the reward's records, before
  // anything is journaled: unreadable, nothing is journaled nor sent.
  const [customer, records] = await Promise.all([
    readCustomerById(deps, idCliente),
    readRecords(deps, idCliente, idPremio),
  ]);
  if (customer.kind === 'refused')
    return { kind: 'refused', status: customer.status, body: customer.text };
  if (customer.kind === 'failed' || records === null) return unavailable;
  if (!customer.exists) {
    return { kind: 'refused', status: 404, body: envelope(handoverMessages.customerNotFound) };
  }
  const t = deps.now();
  const fresh: NewEntry = {
    key,
    establishmentId: deps.options.establishmentId,
    terminalId: s.terminalId,
    requestId: s.requestId,
    fingerprint,
    customerKey: customer.celular ?? `cliente:${idCliente}`,
    customerName: customer.nome,
    amount: 0,
    owner: deps.me,
    leaseUntil: t + deps.options.leaseMs,
    createdAt: t,
    kind: 'premio',
    reward: {
      id_premio: idPremio,
      id_cliente: idCliente,
      id_premio_cliente: null,
      nome: records.nome,
      before: null,
    },
  };
  const created = await deps.store.create(fresh);
  if (!created.created) return found(deps, created.existing, fingerprint);
  const entry = await deps.store.get(key);
  if (entry === null) throw new Error('journal entry missing after insert');
  track(
    deps,
    leased(deps, key, () => run(deps, sw, entry, body)).catch((err: unknown) => {
      deps.log?.error({ key, err: String(err) }, 'hand-over failed');
    }),
  );
  const settled = await wait(deps, key, deps.options.waitMs, entry);
  return { kind: 'entry', entry: settled ?? entry, created: true };
}
