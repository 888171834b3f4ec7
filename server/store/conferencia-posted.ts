/** The journal's side of the conferência: the postings the service took, by when they were sent. */
import type { Store } from './store';

/** A posting the service took, as the conferência matches it. */
export interface PostedEntry {
  key: string;
  customerKey: string;
  customerName: string | null;
  terminalId: string | null;
  amount: number;
  points: number | null;
  createdAt: number;
  sentAt: number;
  /** When its answer came (or it was settled): the end of its window. */
  endedAt: number | null;
  settledAt: number | null;
  answerBody: string | null;
  snapshot: string | null;
}

/** How far back a posting sent in a period may have been created (a kept sale, resent). */
const CREATED_BEFORE_SENT_MS = 8 * 86_400_000;

/**
 * The postings the service took (`lançado`, points), sent in [from, to), optionally of one
 * customer, oldest first. Reads the journal's queue index (establishment, state, created_at).
 */
export async function postedEntries(
  store: Store,
  filter: { establishmentId: number; from: number; to: number; customerKey?: string },
): Promise<PostedEntry[]> {
  let q = store.db
    .selectFrom('posting_journal')
    .select([
      'key',
      'customer_key',
      'customer_name',
      'terminal_id',
      'amount',
      'points',
      'created_at',
      'sent_at',
      'ended_at',
      'settled_at',
      'answer_body',
      'snapshot',
    ])
    .where('establishment_id', '=', filter.establishmentId)
    .where('state', '=', 'lançado')
    .where('kind', '=', 'pontos')
    .where('created_at', '>=', filter.from - CREATED_BEFORE_SENT_MS)
    .where('created_at', '<', filter.to)
    .where('sent_at', '>=', filter.from)
    .where('sent_at', '<', filter.to);
  if (filter.customerKey !== undefined) q = q.where('customer_key', '=', filter.customerKey);
  const rows = await q.orderBy('sent_at').orderBy('key').execute();
  return rows.map((r) => ({
    key: r.key,
    customerKey: r.customer_key,
    customerName: r.customer_name,
    terminalId: r.terminal_id,
    amount: Number(r.amount),
    points: r.points === null ? null : Number(r.points),
    createdAt: Number(r.created_at),
    sentAt: Number(r.sent_at),
    endedAt: r.ended_at === null ? null : Number(r.ended_at),
    settledAt: r.settled_at === null ? null : Number(r.settled_at),
    answerBody: r.answer_body,
    snapshot: r.snapshot,
  }));
}
