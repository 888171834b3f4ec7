/** Rows of `posting_journal` to entries and back, and what every journal query shares. */
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { CustomerLookupsTable, PostingJournalTable } from '../schema';
import type { Store } from '../store';
import { lookupFromRow, type CustomerLookup, type CustomerReading } from '../lookups';
import type {
  EntryPatch,
  JournalEntry,
  LostKind,
  NewEntry,
  PostingState,
  RewardHandover,
  StartResult,
  StartedEntry,
} from './types';

const json = <T>(v: string | null): T | null => (v === null ? null : (JSON.parse(v) as T));

export function fromRow(r: Selectable<PostingJournalTable>): JournalEntry {
  return {
    key: r.key,
    establishmentId: r.establishment_id,
    terminalId: r.terminal_id,
    requestId: r.request_id,
    fingerprint: r.fingerprint,
    customerKey: r.customer_key,
    customerName: r.customer_name,
    amount: r.amount,
    state: r.state as PostingState,
    reason: r.reason,
    answerStatus: r.answer_status,
    answerBody: r.answer_body,
    snapshot: json<CustomerReading>(r.snapshot),
    reading: json<CustomerReading>(r.reading),
    points: r.points,
    lostKind: r.lost_kind as LostKind | null,
    createdAt: r.created_at,
    sentAt: r.sent_at,
    endedAt: r.ended_at,
    updatedAt: r.updated_at,
    settledAt: r.settled_at,
    owner: r.owner,
    leaseUntil: r.lease_until,
    nextCheckAt: r.next_check_at,
    body: json<Record<string, unknown>>(r.body),
    secret: r.secret,
    attempts: Number(r.attempts),
    kind: r.kind === 'premio' ? 'premio' : 'pontos',
    reward: json<RewardHandover>(r.reward ?? null),
  };
}

export function toColumns(p: EntryPatch): Updateable<PostingJournalTable> {
  const c: Updateable<PostingJournalTable> = {};
  if (p.state !== undefined) c.state = p.state;
  if (p.reason !== undefined) c.reason = p.reason;
  if (p.answerStatus !== undefined) c.answer_status = p.answerStatus;
  if (p.answerBody !== undefined) c.answer_body = p.answerBody;
  if (p.snapshot !== undefined)
    c.snapshot = p.snapshot === null ? null : JSON.stringify(p.snapshot);
  if (p.reading !== undefined) c.reading = p.reading === null ? null : JSON.stringify(p.reading);
  if (p.points !== undefined) c.points = p.points;
  if (p.lostKind !== undefined) c.lost_kind = p.lostKind;
  if (p.sentAt !== undefined) c.sent_at = p.sentAt;
  if (p.endedAt !== undefined) c.ended_at = p.endedAt;
  if (p.settledAt !== undefined) c.settled_at = p.settledAt;
  if (p.leaseUntil !== undefined) c.lease_until = p.leaseUntil;
  if (p.nextCheckAt !== undefined) c.next_check_at = p.nextCheckAt;
  if (p.customerName !== undefined) c.customer_name = p.customerName;
  if (p.secret !== undefined) c.secret = p.secret;
  if (p.body !== undefined) c.body = p.body === null ? null : JSON.stringify(p.body);
  if (p.attempts !== undefined) c.attempts = p.attempts;
  if (p.reward !== undefined) c.reward = p.reward === null ? null : JSON.stringify(p.reward);
  return c;
}

export function newRow(e: NewEntry): Insertable<PostingJournalTable> {
  return {
    key: e.key,
    establishment_id: e.establishmentId,
    terminal_id: e.terminalId,
    request_id: e.requestId,
    fingerprint: e.fingerprint,
    customer_key: e.customerKey,
    customer_name: e.customerName,
    amount: e.amount,
    state: 'enviando',
    created_at: e.createdAt,
    updated_at: e.createdAt,
    owner: e.owner,
    lease_until: e.leaseUntil,
    ...(e.kind === 'premio' ? { kind: 'premio' } : {}),
    ...(e.reward ? { reward: JSON.stringify(e.reward) } : {}),
  };
}

/** The row of an entry journaled at once as sent (the fast path). */
export function startedRow(e: StartedEntry): Insertable<PostingJournalTable> {
  return {
    ...newRow(e),
    snapshot: JSON.stringify(e.snapshot),
    sent_at: e.sentAt,
    customer_name: e.snapshot.nome ?? e.customerName,
  };
}

/** Thrown inside a transaction to roll it back with an answer. */
export class Rollback {
  constructor(readonly result: StartResult) {}
}

export type Trx = Store['db'];

export const changed = (r: { numInsertedOrUpdatedRows?: bigint; numUpdatedRows?: bigint }) =>
  Number(r.numInsertedOrUpdatedRows ?? r.numUpdatedRows ?? 0n) > 0;

/** The lookup columns a slot read selects (null when the terminal's lookup is of another). */
export interface LookupColumns {
  lookup_turn: number | bigint | null;
  lookup_reading: string | null;
  lookup_read_at: number | bigint | null;
}

export function lookupOf(
  r: LookupColumns,
  establishmentId: number,
  terminalId: string,
  customerKey: string,
): CustomerLookup | null {
  if (r.lookup_turn === null || r.lookup_reading === null || r.lookup_read_at === null) {
    return null;
  }
  return lookupFromRow({
    establishment_id: establishmentId,
    terminal_id: terminalId,
    customer_key: customerKey,
    turn: Number(r.lookup_turn),
    reading: r.lookup_reading,
    read_at: Number(r.lookup_read_at),
  } satisfies Selectable<CustomerLookupsTable>);
}
