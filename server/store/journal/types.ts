/** The postings journal's types: an entry, its patches, its slot and the store's interface. */
import type { Store, TransactionOptions } from '../store';
import { POSTING_STATES } from '#contract/wire';
import type { CustomerLookup, CustomerReading, LookupStore } from '../lookups';

export type PostingState = (typeof POSTING_STATES)[number];
/** Being worked on by a process (its lease), or due for a re-check: the sweep's business. */
/** One entry by its key (`JournalStore.get`): what the Kysely query groups read back with. */
export type GetEntry = (key: string) => Promise<JournalEntry | null>;

export const IN_FLIGHT: readonly PostingState[] = ['enviando', 'verificando', 'desconhecido'];
/** Not final yet: in flight, waiting for delivery or for a manager. */
export const UNSETTLED: readonly PostingState[] = [
  ...IN_FLIGHT,
  'aguardando envio',
  'precisa de atenção',
];

/** How the upstream answer was lost, which decides how long "unchanged" must last. */
export type LostKind = 'reset' | 'timeout' | 'crash';

/** The records of one reward of one customer, read before a hand-over is sent. */
export interface RewardRecords {
  /** `id_premio_cliente` of the valid `pendente_resgate` records. */
  pendentes: number[];
  /** `id_premio_cliente` of the `resgatado` records. */
  resgatados: number[];
}

/** A hand-over's reward: what was asked, and what is known of it. */
export interface RewardHandover {
  id_premio: number;
  id_cliente: number;
  /** The record handed over, once known. */
  id_premio_cliente: number | null;
  /** The reward's name, once read. */
  nome: string | null;
  /** The customer's records of this reward just before sending (null: not sent yet). */
  before: RewardRecords | null;
}

export type EntryKind = 'pontos' | 'premio';

/**
 * The reason a restore (server/ops/backup.ts) gives the kept sales still waiting in the backup:
 * one of them may have been delivered after the backup was taken, which the restored journal
 * cannot know. The deliverer reads the customer's history before sending such a sale (see
 * domain/journal/deliver.ts).
 */
export const RESTORED_KEPT_REASON =
  'Restaurada de um backup: o histórico do cliente é conferido antes de enviar.';

export interface JournalEntry {
  key: string;
  establishmentId: number;
  terminalId: string | null;
  requestId: string | null;
  fingerprint: string;
  customerKey: string;
  customerName: string | null;
  amount: number;
  state: PostingState;
  /** Why it is in this state, in Portuguese, for the cashier. */
  reason: string | null;
  answerStatus: number | null;
  answerBody: string | null;
  snapshot: CustomerReading | null;
  reading: CustomerReading | null;
  points: number | null;
  lostKind: LostKind | null;
  createdAt: number;
  sentAt: number | null;
  endedAt: number | null;
  updatedAt: number;
  settledAt: number | null;
  owner: string | null;
  leaseUntil: number;
  nextCheckAt: number | null;
  /** A kept sale's pontuar body without the password (null: a posting sent at once). */
  body: Record<string, unknown> | null;
  /** A kept sale's sealed attendant password (null once settled or refused). */
  secret: string | null;
  /** Deliveries of a kept sale started so far. */
  attempts: number;
  /** A posting ('pontos') or a reward handed over ('premio'). */
  kind: EntryKind;
  /** A hand-over's reward (null for a posting). */
  reward: RewardHandover | null;
}

export type NewEntry = Pick<
  JournalEntry,
  | 'key'
  | 'establishmentId'
  | 'terminalId'
  | 'requestId'
  | 'fingerprint'
  | 'customerKey'
  | 'customerName'
  | 'amount'
  | 'owner'
  | 'leaseUntil'
  | 'createdAt'
> &
  Partial<Pick<JournalEntry, 'kind' | 'reward'>>;

/** An entry journaled at once as sent: its customer was read before (fast path). */
export type StartedEntry = NewEntry & { snapshot: CustomerReading; sentAt: number };

export type StartResult =
  | { kind: 'started'; entry: JournalEntry }
  | { kind: 'exists'; existing: JournalEntry }
  /** Another posting took the customer's slot since `turn` (or holds it): use the slow path. */
  | { kind: 'moved' };

export type EntryPatch = Partial<
  Pick<
    JournalEntry,
    | 'state'
    | 'reason'
    | 'answerStatus'
    | 'answerBody'
    | 'snapshot'
    | 'reading'
    | 'points'
    | 'lostKind'
    | 'sentAt'
    | 'endedAt'
    | 'settledAt'
    | 'leaseUntil'
    | 'nextCheckAt'
    | 'customerName'
    | 'secret'
    | 'attempts'
    | 'body'
    | 'reward'
  >
>;

/** A sale kept for later delivery: its body (password apart) and its sealed password. */
export type QueuedEntry = NewEntry & {
  body: Record<string, unknown>;
  secret: string;
  reason: string | null;
};

export interface QueueStats {
  /** Kept sales waiting for delivery (`aguardando envio`, or being delivered). */
  waiting: number;
  /** Kept sales refused at delivery (`precisa de atenção`). */
  attention: number;
  /** When the oldest waiting sale was confirmed (null: none waits). */
  oldestWaitingAt: number | null;
}

export interface LedgerFilter {
  establishmentId: number;
  /** These stores' entries instead of `establishmentId`'s alone (the chain's ledger). */
  establishmentIds?: readonly number[];
  terminalId?: string | null;
  from: number;
  to: number;
  limit?: number;
}

/** The customer's slot as a posting finds it before journaling (see `slotState`). */
export interface SlotState {
  held: boolean;
  /** The posting holding it (its key), when held. */
  holder?: string;
  turn: number;
  queued?: boolean;
  /** With `lookup`: that terminal's latest lookup when it is of this customer, else null. */
  lookup?: CustomerLookup | null;
}

/**
 * Claims up to `limit` entries of one store for `owner` until `leaseUntil`, atomically per
 * entry (replicas never claim the same one).
 */
type ClaimEntries = (
  establishmentId: number,
  now: number,
  owner: string,
  leaseUntil: number,
  limit: number,
) => Promise<JournalEntry[]>;

export interface JournalStore extends LookupStore<JournalEntry> {
  /** The store the journal writes to. */
  readonly store: Store;
  /** Inserts the entry unless its key exists; then answers the existing one. */
  create(entry: NewEntry): Promise<{ created: true } | { created: false; existing: JournalEntry }>;
  get(key: string): Promise<JournalEntry | null>;
  /**
   * Applies the patch if `owner` still owns the entry (a replica that lost it cannot write)
   * and, when `states` is given, the entry is still in one of them.
   */
  update(
    key: string,
    owner: string,
    patch: EntryPatch,
    now: number,
    states?: readonly PostingState[],
  ): Promise<boolean>;
  /** The one in-flight posting per establishment + customer: true when this key holds it. */
  takeSlot(
    establishmentId: number,
    customerKey: string,
    key: string,
    now: number,
  ): Promise<boolean>;
  releaseSlot(key: string): Promise<void>;
  /**
   * The customer's slot: held by a posting now, and how many postings have taken it; with
   * `queued`, also whether the customer has a kept sale not delivered yet (see
   * `customerQueued`); with `lookup` (a terminal's id), that terminal's latest lookup of this
   * customer: all in the same statement.
   */
  slotState(
    establishmentId: number,
    customerKey: string,
    options?: { queued?: boolean; lookup?: string },
  ): Promise<SlotState>;
  /**
   * The fast path, one transaction: journals the entry as already sent (with the snapshot read
   * while the slot was free at `turn`) and takes the slot, unless the key exists or another
   * posting took the slot since `turn`.
   */
  start(entry: StartedEntry, turn: number): Promise<StartResult>;
  /**
   * Applies the final patch (if `owner` owns the entry) and frees its slot, in one transaction
   * (`durable: false` for a verdict recovery can reach again from the snapshot).
   */
  finish(
    key: string,
    owner: string,
    patch: EntryPatch,
    now: number,
    options?: TransactionOptions,
  ): Promise<boolean>;
  /**
   * Takes over entries nobody is working on: `enviando`/`verificando` whose lease ran out
   * (their process died) and `desconhecido` due for a re-check, of one store: its entries are
   * read and re-sent with that store's own token, never another's. Atomic per entry.
   */
  claimStale: ClaimEntries;
  list(filter: LedgerFilter): Promise<JournalEntry[]>;
  /** Entries not settled yet, created before `before` (older days'), newest first. */
  listUnsettled(
    filter: Pick<LedgerFilter, 'establishmentId' | 'establishmentIds' | 'terminalId' | 'limit'> & {
      before: number;
    },
  ): Promise<JournalEntry[]>;
  /** Deletes settled entries created before `before`; answers how many. */
  prune(before: number): Promise<number>;
  /** Journals a kept sale as `aguardando envio` unless its key exists (then answers it). */
  enqueue(
    entry: QueuedEntry,
  ): Promise<{ created: true } | { created: false; existing: JournalEntry }>;
  queueStats(establishmentId: number): Promise<QueueStats>;
  /** True when the customer has a kept sale not delivered yet (a new one must go after it). */
  customerQueued(establishmentId: number, customerKey: string): Promise<boolean>;
  /**
   * Claims up to `limit` waiting sales for delivery, oldest first, at most one per customer
   * and none of a customer with a posting in flight: each becomes `enviando`, owned by `owner`
   * (atomic per entry, so replicas never claim the same sale).
   */
  claimWaiting: ClaimEntries;
  /**
   * A manager's decision on a `precisa de atenção` sale: resend it (with a corrected sealed
   * password) or discard it. False when the sale is not (or no longer) in that state.
   */
  resolveAttention(
    key: string,
    now: number,
    decision: { resend: { secret: string } } | { discard: { reason: string } },
  ): Promise<boolean>;
}
