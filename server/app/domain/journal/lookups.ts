/**
 * What the journal learns from the counter's own reads of a customer, so that a customer served
 * costs the service one lookup, one posting and one refresh:
 *
 * - A counter terminal's lookup by phone (through the proxy) is kept with the customer's
 *   posting turn read before it left, its slot free (`lookupStarted`, `lookupAnswered`). When
 *   that terminal posts for that customer within `lookupReuseMs` and the turn is the same (no
 *   posting of ours nor a hand-over took the slot since), that reading is the posting's
 *   snapshot (`lookupSnapshot`), which a lost answer is settled against, as it would be
 *   against a read of its own. Anything else (another terminal's lookup, another customer, an
 *   older one, a lookup by CPF or id) is simply not used: the posting reads the customer itself.
 * - The points a posting earned: its answer tells the balance after it, not its points (a
 *   reward won debits that balance). Where the establishment holds points in carência, the
 *   carência's growth since the snapshot is the points (`answerPoints`). Otherwise the
 *   customer's next read by a counter (its panel's refresh right after the answer) tells them:
 *   its newest credit, when exactly this one purchase was added since the snapshot
 *   (`pointsFromReading`); and when no such read came within `pointsWaitMs`, the journal reads
 *   the customer itself (`pointsLater`).
 */
import type { CustomerReading, JournalEntry } from '../../../store';
import { localDate } from '#contract/rules/time';
import { track, type JournalDeps } from './context';
import { ABSENT, compareReadings, readCustomer, readFor } from './readings';

/** A posting's points are learned from reads of its customer up to this long after it. */
const POINTS_HORIZON_MS = 10 * 60_000;

const E164 = /^\+[1-9]\d{7,14}$/;

/** A lookup the counter sent: who, and the customer's turn when it left. */
export interface LookupToken {
  terminalId: string;
  customerKey: string;
  turn: number;
  at: number;
}

/** The phone of a lookup by phone alone (`{ "celular": "+55…" }`), or null. */
function phoneOf(body: unknown): string | null {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  const keys = Object.keys(body);
  const celular = (body as { celular?: unknown }).celular;
  return keys.length === 1 && typeof celular === 'string' && E164.test(celular) ? celular : null;
}

/**
 * A counter terminal's lookup about to leave for the service: the customer's posting turn,
 * or null when it is not kept (not by phone alone, or a posting of that customer in flight).
 */
export async function lookupStarted(
  deps: JournalDeps,
  terminalId: string,
  body: unknown,
): Promise<LookupToken | null> {
  const customerKey = phoneOf(body);
  if (customerKey === null) return null;
  const at = deps.now();
  const slot = await deps.store.slotState(deps.options.establishmentId, customerKey);
  // Held by a posting this process has settled, its final write under way (the counter's
  // refresh right after the answer): that posting is over, its effect in the service.
  const over = slot.holder !== undefined && deps.local.get(slot.holder)?.settledAt != null;
  if (slot.held && !over) return null;
  return { terminalId, customerKey, turn: slot.turn, at };
}

/** The customer a lookup's answer tells (200: found, 404: not registered), or null. */
function lookedUp(status: number, text: string, customerKey: string): CustomerReading | null {
  if (status === 404) return ABSENT;
  if (status !== 200) return null;
  try {
    const data = (JSON.parse(text) as { data?: unknown }).data;
    if ((data as { celular?: unknown } | null)?.celular !== customerKey) return null;
    return readCustomer(data);
  } catch {
    return null;
  }
}

/** Keeps the lookup's answer, and completes the points of the customer's latest posting from it. */
export async function lookupAnswered(
  deps: JournalDeps,
  token: LookupToken,
  status: number,
  text: string,
): Promise<void> {
  // The answer leaves first: on SQLite the store's writes block this thread while they run.
  await new Promise<void>((resolve) => setImmediate(resolve));
  const found = lookedUp(status, text, token.customerKey);
  if (found === null) return;
  const reading: CustomerReading = { ...found, readAt: token.at };
  await deps.store.saveLookup({
    establishmentId: deps.options.establishmentId,
    terminalId: token.terminalId,
    customerKey: token.customerKey,
    turn: token.turn,
    reading,
    readAt: token.at,
  });
  // A customer no posting of ours ever took the slot of (turn 0) has none to complete.
  if (reading.exists && token.turn > 0) {
    await pointsFromReading(deps, token.customerKey, reading, 'lookup');
  }
}

/**
 * The posting's snapshot from its terminal's lookup (`slot.lookup`), when that reading is
 * still the customer as it is: read at the turn the slot is at now, not too long ago, and, for
 * a customer not registered then, the posting names no CPF (the service would look that up).
 */
export function lookupSnapshot(
  deps: JournalDeps,
  slot: {
    turn: number;
    lookup?: { turn: number; reading: CustomerReading; readAt: number } | null;
  },
  cpf: string | null,
): CustomerReading | null {
  const lookup = slot.lookup ?? null;
  const limit = deps.options.lookupReuseMs;
  if (lookup === null || limit <= 0 || lookup.turn !== slot.turn) return null;
  if (Math.abs(deps.now() - lookup.readAt) > limit) return null;
  if (!lookup.reading.exists && cpf !== null) return null;
  return lookup.reading;
}

/**
 * The points a posting earned as its answer tells them: where they went to carência (the
 * carência grew since the snapshot; rewards debit the matured balance, never the carência),
 * the snapshot read the same São Paulo day as the answer (nothing matured in between).
 */
export function answerPoints(
  snapshot: CustomerReading,
  data: Record<string, unknown>,
  answeredAt: number,
): number | null {
  const after = data.saldo_carencia;
  if (typeof after !== 'number' || snapshot.readAt === undefined) return null;
  const grown = after - (snapshot.exists ? snapshot.saldo_carencia : 0);
  if (grown <= 0 || localDate(snapshot.readAt) !== localDate(answeredAt)) return null;
  return grown;
}

/** The points of `entry` from a reading taken after it landed, once; true when they were set. */
async function complete(
  deps: JournalDeps,
  entry: JournalEntry,
  reading: CustomerReading,
  source: 'lookup' | 'read',
): Promise<boolean> {
  if (entry.snapshot === null || compareReadings(entry.snapshot, reading) !== 'posted')
    return false;
  if (reading.ultimo_credito === null) return false;
  const patch = { points: reading.ultimo_credito, reading, customerName: reading.nome };
  const done = await deps.store.completePoints(entry.key, patch, deps.now());
  if (done) {
    deps.observer?.points(source);
    deps.events.emit(entry.key);
  }
  return done;
}

/** Completes the points of the customer's latest posting whose answer did not tell them. */
async function pointsFromReading(
  deps: JournalDeps,
  customerKey: string,
  reading: CustomerReading,
  source: 'lookup' | 'read',
): Promise<void> {
  const since = deps.now() - POINTS_HORIZON_MS;
  const entry = await deps.store.unpointed(deps.options.establishmentId, customerKey, since);
  if (entry !== null) await complete(deps, entry, reading, source);
}

/**
 * A posting's own read of its customer before sending (its snapshot) is also a read after the
 * customer's previous posting: it completes that one's points, in the background.
 */
export function pointsFromSnapshot(
  deps: JournalDeps,
  customerKey: string,
  snapshot: CustomerReading,
): void {
  if (!snapshot.exists) return;
  track(
    deps,
    pointsFromReading(deps, customerKey, snapshot, 'read').catch((err: unknown) =>
      deps.log?.warn({ err: String(err) }, "earlier posting's points not read"),
    ),
  );
}

/**
 * A posting from a counter whose answer did not tell its points: the counter's refresh of the
 * customer tells them; if none did within `pointsWaitMs`, the journal reads the customer.
 */
export function pointsLater(deps: JournalDeps, entry: JournalEntry): void {
  const timer = setTimeout(() => {
    deps.pointTimers.delete(timer);
    const read = async () => {
      const current = await deps.store.get(entry.key);
      if (current === null || current.state !== 'lançado' || current.points !== null) return;
      const reading = await readFor(deps, current.customerKey, current.snapshot, null);
      if (reading !== null) await complete(deps, current, reading, 'read');
    };
    track(
      deps,
      read().catch((err: unknown) =>
        deps.log?.warn({ key: entry.key, err: String(err) }, "posting's points not read"),
      ),
    );
  }, deps.options.pointsWaitMs);
  timer.unref?.();
  deps.pointTimers.add(timer);
}
