/**
 * A new sale at the counter: its request checks (the service's own rules but the password and
 * the date), then the usual fast path (read the customer, journal the entry as sent and take its
 * slot together, send detached), the slow path when the slot is busy, or keeping it for later
 * when the service is unreachable. Answers the entry after a bounded wait for its verdict.
 */
import type { JournalEntry, NewEntry } from '../../../store';
import { firstError, validatePontuar } from '#contract/rules/validation';
import type { SlotState } from '../../../store';
import {
  circuitOpen,
  counted,
  keepable,
  keepRefusal,
  leased,
  track,
  type JournalDeps,
  type Tally,
} from './context';
import { deliver } from './deliver';
import { postingFingerprint } from './fingerprint';
import { wait } from './ledger';
import { lookupSnapshot, pointsFromSnapshot } from './lookups';
import { postingMessages } from './messages';
import { readOutcome, type ReadOutcome } from './readings';
import { run, send } from './send';

export interface Submission {
  key: string | undefined;
  terminalId: string | null;
  requestId: string | null;
  body: unknown;
  /**
   * Posted at a counter, which reads the customer again right after the answer (its panel's
   * refresh): the points the answer does not tell are taken from that read (see lookups.ts).
   */
  counter?: boolean;
}

export type SubmitResult =
  | { kind: 'invalid'; message: string; errors?: Record<string, string[]> }
  /** The service is unreachable and no more sales may be kept (a limit): nothing journaled. */
  | { kind: 'full'; message: string }
  /** The service refused the customer's read before anything was sent: its own answer. */
  | { kind: 'refused'; status: number; body: string }
  | { kind: 'entry'; entry: JournalEntry };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A sale that passed the request checks: its new entry, body, CPF and fingerprint. */
interface Checked {
  fresh: NewEntry;
  body: Record<string, unknown>;
  cpf: string | null;
  fingerprint: string;
}

/** The request checks, before anything is journaled or kept. */
function check(
  deps: JournalDeps,
  s: Submission,
): Extract<SubmitResult, { kind: 'invalid' }> | Checked {
  if (s.key === undefined || s.key.trim() === '')
    return { kind: 'invalid', message: postingMessages.noKey };
  const key = s.key.trim().toLowerCase();
  if (!UUID.test(key)) return { kind: 'invalid', message: postingMessages.badKey };
  if (s.body === null || typeof s.body !== 'object' || Array.isArray(s.body)) {
    return { kind: 'invalid', message: 'O corpo da requisição deve ser um objeto JSON.' };
  }
  const body = s.body as Record<string, unknown>;
  // What the service would refuse is refused here, before anything is journaled or kept: the
  // service's own rules (decisions.md), but the password and the date, which it alone knows.
  const valid = validatePontuar(body, { today: '9999-12-31', checkPassword: () => true });
  if (!valid.ok) {
    return { kind: 'invalid', message: firstError(valid.errors), errors: valid.errors };
  }
  const { cliente, valor_gasto: amount } = valid.value;
  const fingerprint = postingFingerprint(body);
  const t = deps.now();
  const fresh = {
    key,
    establishmentId: deps.options.establishmentId,
    terminalId: s.terminalId,
    requestId: s.requestId,
    fingerprint,
    customerKey: cliente.celular,
    customerName: cliente.nome ?? null,
    amount,
    owner: deps.me,
    leaseUntil: t + deps.options.leaseMs,
    createdAt: t,
  };
  return { fresh, body, cpf: cliente.cpf ?? null, fingerprint };
}

/** Journals a new sale as kept; the existing entry when the key was journaled meanwhile. */
async function keep(
  deps: JournalDeps,
  fresh: NewEntry,
  body: Record<string, unknown>,
): Promise<{ full: string } | { entry: JournalEntry | null }> {
  const refusal = await keepRefusal(deps);
  if (refusal !== null) return { full: refusal };
  const created = await deps.store.enqueue({
    ...fresh,
    ...keepable(deps, fresh.key, body),
    reason: postingMessages.kept,
  });
  if (!created.created) return { entry: created.existing };
  deps.log?.info({ key: fresh.key, requestId: fresh.requestId }, 'sale kept for later delivery');
  if (!circuitOpen(deps)) void deliver(deps);
  return { entry: null };
}

/** Starts `work` detached; a failure is logged (the lease runs out and the sweep settles it). */
function detach(deps: JournalDeps, key: string, work: () => Promise<void>): void {
  track(
    deps,
    work().catch((err: unknown) => {
      deps.log?.error({ key, err: String(err) }, 'posting failed');
    }),
  );
}

/**
 * The usual case in one journal write before sending: the customer's slot is free, so read
 * the customer first, then journal the entry as sent and take the slot together, unless
 * another posting took the slot meanwhile (then the slow path: journal, wait the slot, read).
 * Answers the existing entry when the key was journaled meanwhile; null once started.
 */
async function startFast(
  deps: JournalDeps,
  { fresh, body, cpf }: Checked,
  slot: SlotState,
  counter: boolean,
): Promise<
  | { started: JournalEntry }
  | { existing: JournalEntry }
  | { refused: Extract<ReadOutcome, { kind: 'refused' }> }
  | 'unreachable'
> {
  const { store } = deps;
  const tally: Tally = { calls: 0 };
  // The terminal's lookup moments before, when nothing was posted for the customer since;
  // else a read of its own.
  const kept = slot.held ? null : lookupSnapshot(deps, slot, cpf);
  const outcome =
    slot.held || kept !== null
      ? null
      : await readOutcome(counted(deps, tally), fresh.customerKey, null, cpf);
  // The service refused the read: its answer is the cashier's, nothing journaled or kept.
  if (outcome?.kind === 'refused') return { refused: outcome };
  const snapshot = kept ?? (outcome?.kind === 'read' ? outcome.reading : null);
  if (kept === null && snapshot !== null) pointsFromSnapshot(deps, fresh.customerKey, snapshot);
  // The service could not be read with the customer's slot free: nothing was sent.
  if (snapshot === null && !slot.held && deps.sealKey !== null) return 'unreachable';
  if (snapshot !== null) {
    const sentAt = deps.now();
    const started = await store.start(
      { ...fresh, createdAt: sentAt, leaseUntil: sentAt + deps.options.leaseMs, snapshot, sentAt },
      slot.turn,
    );
    if (started.kind === 'exists') return { existing: started.existing };
    if (started.kind === 'started') {
      const entry = started.entry;
      deps.observer?.snapshot(kept !== null ? 'lookup' : 'read');
      detach(deps, entry.key, () =>
        leased(deps, entry.key, () => send(deps, entry, body, snapshot, { tally, counter })),
      );
      return { started: entry };
    }
  }
  const created = await store.create(fresh);
  if (!created.created) return { existing: created.existing };
  const entry = await store.get(fresh.key);
  if (entry === null) throw new Error('journal entry missing after insert');
  detach(deps, entry.key, () => run(deps, entry, body, { counter }));
  return { started: entry };
}

/** A new sale: checked, journaled (sent, or kept), and answered after a bounded wait. */
export async function submit(deps: JournalDeps, s: Submission): Promise<SubmitResult> {
  const checked = check(deps, s);
  if ('kind' in checked) return checked;
  const { fresh, body, fingerprint } = checked;
  const { key } = fresh;
  // The usual case (a new key, the customer's slot free, the service up) reads the store
  // once before the journaling: the slot, and whether this customer has kept sales (they
  // must be delivered first, in order). A key journaled before is found by the journaling
  // itself (insert-if-absent), so a new sale pays no read for it.
  // With the terminal's lookup of this customer, when a lookup may be the snapshot.
  const slot = await deps.store.slotState(fresh.establishmentId, fresh.customerKey, {
    queued: deps.sealKey !== null,
    ...(s.terminalId !== null && deps.options.lookupReuseMs > 0 ? { lookup: s.terminalId } : {}),
  });
  let existing: JournalEntry | null = null;
  let started: JournalEntry | null = null;
  // Kept for later: the service is unreachable, or this customer's earlier kept sales
  // must be delivered first (in order).
  let keepIt = deps.sealKey !== null && (circuitOpen(deps) || slot.queued === true);
  if (!keepIt) {
    const fast = await startFast(deps, checked, slot, s.counter === true);
    if (fast === 'unreachable') keepIt = true;
    else if ('refused' in fast) {
      return { kind: 'refused', status: fast.refused.status, body: fast.refused.text };
    } else if ('existing' in fast) existing = fast.existing;
    else started = fast.started;
  }
  if (keepIt) {
    // A key seen before is that sale, whatever the limits of kept sales say now.
    existing = await deps.store.get(key);
    if (existing === null) {
      const kept = await keep(deps, fresh, body);
      if ('full' in kept) return { kind: 'full', message: kept.full };
      if (kept.entry !== null) existing = kept.entry;
    }
  }
  if (existing !== null && existing.fingerprint !== fingerprint) {
    return { kind: 'invalid', message: postingMessages.keyReused };
  }
  const entry = await wait(deps, key, deps.options.waitMs, started);
  if (entry === null) throw new Error('journal entry missing');
  return { kind: 'entry', entry };
}
