/**
 * The postings journal's queries (tables `posting_journal` and `posting_slots`, migration
 * 0002). Every write that must not race is one conditional statement (insert-if-absent,
 * update-if-owner, update-if-lease-expired), atomic on both engines without row locks.
 */
import type { Insertable, Selectable, Updateable } from 'kysely';
import type BetterSqlite3 from 'better-sqlite3';
import type { CustomerLookupsTable, PostingJournalTable } from './schema';
import type { SqliteAccess, Store, TransactionOptions } from './store';
import { POSTING_STATES } from '#contract/wire';
import {
  lookupFromRow,
  lookupQueries,
  type CustomerLookup,
  type CustomerReading,
  type LookupStore,
} from './lookups';

export type { CustomerLookup, CustomerReading } from './lookups';

export type PostingState = (typeof POSTING_STATES)[number];
/** Being worked on by a process (its lease), or due for a re-check: the sweep's business. */
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
   * (their process died) and `desconhecido` due for a re-check. Atomic per entry.
   */
  claimStale(
    now: number,
    owner: string,
    leaseUntil: number,
    limit: number,
  ): Promise<JournalEntry[]>;
  list(filter: LedgerFilter): Promise<JournalEntry[]>;
  /** Entries not settled yet, created before `before` (older days'), newest first. */
  listUnsettled(
    filter: Pick<LedgerFilter, 'establishmentId' | 'terminalId' | 'limit'> & { before: number },
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
  claimWaiting(
    establishmentId: number,
    now: number,
    owner: string,
    leaseUntil: number,
    limit: number,
  ): Promise<JournalEntry[]>;
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

const json = <T>(v: string | null): T | null => (v === null ? null : (JSON.parse(v) as T));

function fromRow(r: Selectable<PostingJournalTable>): JournalEntry {
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

function toColumns(p: EntryPatch): Updateable<PostingJournalTable> {
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

function newRow(e: NewEntry): Insertable<PostingJournalTable> {
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
function startedRow(e: StartedEntry): Insertable<PostingJournalTable> {
  return {
    ...newRow(e),
    snapshot: JSON.stringify(e.snapshot),
    sent_at: e.sentAt,
    customer_name: e.snapshot.nome ?? e.customerName,
  };
}

/** Thrown inside a transaction to roll it back with an answer. */
class Rollback {
  constructor(readonly result: StartResult) {}
}

type Trx = Store['db'];

const changed = (r: { numInsertedOrUpdatedRows?: bigint; numUpdatedRows?: bigint }) =>
  Number(r.numInsertedOrUpdatedRows ?? r.numUpdatedRows ?? 0n) > 0;

/** Takes the customer's slot for `key` and counts the turn; false when another holds it. */
async function takeSlotIn(
  trx: Trx,
  establishmentId: number,
  customerKey: string,
  key: string,
  now: number,
  turn: number | null,
): Promise<boolean> {
  const slot = await trx
    .insertInto('posting_slots')
    .values({ establishment_id: establishmentId, customer_key: customerKey, key, taken_at: now })
    .onConflict((oc) => oc.columns(['establishment_id', 'customer_key']).doNothing())
    .executeTakeFirst();
  if (!changed(slot)) return false;
  const where = { establishment_id: establishmentId, customer_key: customerKey };
  if (turn === null || turn > 0) {
    let q = trx
      .updateTable('posting_turns')
      .set((eb) => ({ turn: eb('turn', '+', 1) }))
      .where('establishment_id', '=', establishmentId)
      .where('customer_key', '=', customerKey);
    if (turn !== null) q = q.where('turn', '=', turn);
    if (changed(await q.executeTakeFirst())) return true;
    if (turn !== null) return false;
  }
  const first = await trx
    .insertInto('posting_turns')
    .values({ ...where, turn: 1 })
    .onConflict((oc) =>
      turn === null
        ? oc
            .columns(['establishment_id', 'customer_key'])
            .doUpdateSet((eb) => ({ turn: eb('posting_turns.turn', '+', 1) }))
        : oc.columns(['establishment_id', 'customer_key']).doNothing(),
    )
    .executeTakeFirst();
  return changed(first);
}

/** The customer's kept sales not delivered yet (waiting, or being delivered): one row or none. */
function queuedOf(db: Trx, establishmentId: number, customerKey: string) {
  return db
    .selectFrom('posting_journal')
    .select('key')
    .where('establishment_id', '=', establishmentId)
    .where('customer_key', '=', customerKey)
    .where((eb) =>
      eb.or([
        eb('state', '=', 'aguardando envio'),
        eb.and([
          eb('state', 'in', [...IN_FLIGHT]),
          eb('settled_at', 'is', null),
          eb('body', 'is not', null),
        ]),
      ]),
    )
    .limit(1);
}

export function createJournalStore(store: Store): JournalStore {
  const kysely = kyselyJournal(store);
  return store.sqlite === null ? kysely : { ...kysely, ...sqliteHotPath(store.sqlite) };
}

/** The lookup columns a slot read selects (null when the terminal's lookup is of another). */
interface LookupColumns {
  lookup_turn: number | bigint | null;
  lookup_reading: string | null;
  lookup_read_at: number | bigint | null;
}

function lookupOf(
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

/** Every query built with Kysely: what PostgreSQL runs, and SQLite off its hot path. */
function kyselyJournal(store: Store): JournalStore {
  const db = store.db;
  const get = async (key: string) => {
    const row = await db
      .selectFrom('posting_journal')
      .selectAll()
      .where('key', '=', key)
      .executeTakeFirst();
    return row === undefined ? null : fromRow(row);
  };

  return {
    store,
    get,
    ...lookupQueries(store, fromRow),

    async create(e) {
      const res = await db
        .insertInto('posting_journal')
        .values(newRow(e))
        .onConflict((oc) => oc.column('key').doNothing())
        .executeTakeFirst();
      if (Number(res.numInsertedOrUpdatedRows ?? 0n) === 1) return { created: true };
      const existing = await get(e.key);
      if (existing === null) throw new Error('journal entry vanished after a key conflict');
      return { created: false, existing };
    },

    async update(key, owner, patch, now, states) {
      let q = db
        .updateTable('posting_journal')
        .set({ ...toColumns(patch), updated_at: now })
        .where('key', '=', key)
        .where('owner', '=', owner);
      if (states !== undefined) q = q.where('state', 'in', [...states]);
      const res = await q.executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },

    async takeSlot(establishmentId, customerKey, key, now) {
      const took = await store.transaction((trx) =>
        takeSlotIn(trx, establishmentId, customerKey, key, now, null),
      );
      if (took) return true;
      const holder = await db
        .selectFrom('posting_slots')
        .select('key')
        .where('establishment_id', '=', establishmentId)
        .where('customer_key', '=', customerKey)
        .executeTakeFirst();
      return holder?.key === key;
    },

    async slotState(establishmentId, customerKey, options) {
      // One statement (one round trip on PostgreSQL): the posting's path pays for each.
      const row = await db
        .selectNoFrom((eb) => [
          eb
            .selectFrom('posting_slots')
            .select('key')
            .where('establishment_id', '=', establishmentId)
            .where('customer_key', '=', customerKey)
            .as('slot'),
          eb
            .selectFrom('posting_turns')
            .select('turn')
            .where('establishment_id', '=', establishmentId)
            .where('customer_key', '=', customerKey)
            .as('turn'),
          options?.queued
            ? eb.exists(queuedOf(db, establishmentId, customerKey)).as('queued')
            : eb.val(0).as('queued'),
          ...(['turn', 'reading', 'read_at'] as const).map((column) =>
            eb
              .selectFrom('customer_lookups')
              .select(column)
              .where('establishment_id', '=', establishmentId)
              .where('terminal_id', '=', options?.lookup ?? '')
              .where('customer_key', '=', customerKey)
              .as(`lookup_${column}`),
          ),
        ])
        .executeTakeFirstOrThrow();
      const lookup = options?.lookup;
      return {
        held: row.slot !== null,
        ...(row.slot !== null ? { holder: row.slot } : {}),
        turn: row.turn === null ? 0 : Number(row.turn),
        ...(options?.queued ? { queued: Boolean(Number(row.queued)) } : {}),
        ...(lookup === undefined
          ? {}
          : { lookup: lookupOf(row as LookupColumns, establishmentId, lookup, customerKey) }),
      };
    },

    async start(e, turn) {
      let result: StartResult;
      try {
        result = await store.transaction(async (trx) => {
          const inserted = await trx
            .insertInto('posting_journal')
            .values(startedRow(e))
            .onConflict((oc) => oc.column('key').doNothing())
            .returningAll()
            .executeTakeFirst();
          if (inserted === undefined) throw new Rollback({ kind: 'moved' });
          if (!(await takeSlotIn(trx, e.establishmentId, e.customerKey, e.key, e.sentAt, turn))) {
            throw new Rollback({ kind: 'moved' });
          }
          return { kind: 'started', entry: fromRow(inserted) } as const;
        });
      } catch (err) {
        if (!(err instanceof Rollback)) throw err;
        result = err.result;
      }
      if (result.kind === 'started') return result;
      // Rolled back: the key may exist (then it is that sale), else the slot moved on.
      const existing = await get(e.key);
      return existing === null ? { kind: 'moved' } : { kind: 'exists', existing };
    },

    async finish(key, owner, patch, now, options) {
      return store.transaction(async (trx) => {
        const res = await trx
          .updateTable('posting_journal')
          .set({ ...toColumns(patch), updated_at: now })
          .where('key', '=', key)
          .where('owner', '=', owner)
          .executeTakeFirst();
        await trx.deleteFrom('posting_slots').where('key', '=', key).execute();
        return Number(res.numUpdatedRows) === 1;
      }, options);
    },

    async releaseSlot(key) {
      await db.deleteFrom('posting_slots').where('key', '=', key).execute();
    },

    async claimStale(now, owner, leaseUntil, limit) {
      const candidates = await db
        .selectFrom('posting_journal')
        .select('key')
        .where((eb) =>
          eb.or([
            eb.and([eb('state', 'in', ['enviando', 'verificando']), eb('lease_until', '<', now)]),
            eb.and([
              eb('state', '=', 'desconhecido'),
              eb('next_check_at', '<=', now),
              eb('lease_until', '<', now),
            ]),
          ]),
        )
        .orderBy('created_at')
        .limit(limit)
        .execute();
      const claimed: JournalEntry[] = [];
      for (const { key } of candidates) {
        const res = await db
          .updateTable('posting_journal')
          .set({ owner, lease_until: leaseUntil, updated_at: now })
          .where('key', '=', key)
          .where('lease_until', '<', now)
          .where('state', 'in', [...IN_FLIGHT])
          .executeTakeFirst();
        if (Number(res.numUpdatedRows) !== 1) continue;
        const entry = await get(key);
        if (entry !== null) claimed.push(entry);
      }
      return claimed;
    },

    async list(f) {
      let q = db
        .selectFrom('posting_journal')
        .selectAll()
        .where('establishment_id', '=', f.establishmentId)
        .where('created_at', '>=', f.from)
        .where('created_at', '<', f.to);
      if (f.terminalId !== undefined && f.terminalId !== null) {
        q = q.where('terminal_id', '=', f.terminalId);
      }
      const rows = await q
        .orderBy('created_at', 'desc')
        .orderBy('key', 'desc')
        .limit(f.limit ?? 1000)
        .execute();
      return rows.map(fromRow);
    },

    async listUnsettled(f) {
      let q = db
        .selectFrom('posting_journal')
        .selectAll()
        .where('establishment_id', '=', f.establishmentId)
        .where('state', 'in', [...UNSETTLED])
        .where('created_at', '<', f.before);
      if (f.terminalId !== undefined && f.terminalId !== null) {
        q = q.where('terminal_id', '=', f.terminalId);
      }
      const rows = await q
        .orderBy('created_at', 'desc')
        .orderBy('key', 'desc')
        .limit(f.limit ?? 1000)
        .execute();
      return rows.map(fromRow);
    },

    async prune(before) {
      const res = await db
        .deleteFrom('posting_journal')
        .where('created_at', '<', before)
        .where('state', 'not in', [...UNSETTLED])
        .executeTakeFirst();
      return Number(res.numDeletedRows);
    },

    async enqueue(e) {
      const res = await db
        .insertInto('posting_journal')
        .values({
          ...newRow(e),
          state: 'aguardando envio',
          reason: e.reason,
          owner: null,
          lease_until: 0,
          body: JSON.stringify(e.body),
          secret: e.secret,
        })
        .onConflict((oc) => oc.column('key').doNothing())
        .executeTakeFirst();
      if (changed(res)) return { created: true };
      const existing = await get(e.key);
      if (existing === null) throw new Error('journal entry vanished after a key conflict');
      return { created: false, existing };
    },

    async queueStats(establishmentId) {
      const rows = await db
        .selectFrom('posting_journal')
        .select((eb) => [
          'state',
          eb.fn.countAll<number | string | bigint>().as('n'),
          eb.fn.min('created_at').as('oldest'),
        ])
        .where('establishment_id', '=', establishmentId)
        .where('state', 'in', ['aguardando envio', 'precisa de atenção'])
        .groupBy('state')
        .execute();
      // Kept sales being delivered right now still wait, as far as the counter is concerned.
      const delivering = await db
        .selectFrom('posting_journal')
        .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
        .where('establishment_id', '=', establishmentId)
        .where('state', 'in', [...IN_FLIGHT])
        .where('settled_at', 'is', null)
        .where('body', 'is not', null)
        .executeTakeFirst();
      const of = (state: string) => rows.find((r) => r.state === state);
      const waitingRow = of('aguardando envio');
      return {
        waiting: Number(waitingRow?.n ?? 0) + Number(delivering?.n ?? 0),
        attention: Number(of('precisa de atenção')?.n ?? 0),
        oldestWaitingAt:
          waitingRow?.oldest === undefined || waitingRow.oldest === null
            ? null
            : Number(waitingRow.oldest),
      };
    },

    async customerQueued(establishmentId, customerKey) {
      const row = await queuedOf(db, establishmentId, customerKey).executeTakeFirst();
      return row !== undefined;
    },

    async claimWaiting(establishmentId, now, owner, leaseUntil, limit) {
      // The queue first, then who is busy: a sale claimed in between is either seen busy or
      // still seen waiting (its claim here then fails), never skipped over.
      const queue = await db
        .selectFrom('posting_journal')
        .select(['key', 'customer_key', 'next_check_at'])
        .where('establishment_id', '=', establishmentId)
        .where('state', '=', 'aguardando envio')
        .orderBy('created_at')
        .orderBy('key')
        .limit(Math.max(limit * 20, 200))
        .execute();
      if (queue.length === 0) return [];
      const customers = [...new Set(queue.map((q) => q.customer_key))];
      const busy = new Set(
        (
          await db
            .selectFrom('posting_journal')
            .select('customer_key')
            .where('establishment_id', '=', establishmentId)
            .where('customer_key', 'in', customers)
            .where('state', 'in', [...IN_FLIGHT])
            .where('settled_at', 'is', null)
            .execute()
        ).map((r) => r.customer_key),
      );
      const seen = new Set<string>();
      const claimed: JournalEntry[] = [];
      for (const q of queue) {
        if (claimed.length >= limit) break;
        if (seen.has(q.customer_key)) continue;
        seen.add(q.customer_key);
        if (busy.has(q.customer_key)) continue;
        // Waiting out its backoff after a failed try: its customer's later sales wait too.
        if (q.next_check_at !== null && q.next_check_at > now) continue;
        const res = await db
          .updateTable('posting_journal')
          .set((eb) => ({
            state: 'enviando',
            owner,
            lease_until: leaseUntil,
            updated_at: now,
            sent_at: null,
            snapshot: null,
            ended_at: null,
            lost_kind: null,
            next_check_at: null,
            attempts: eb('attempts', '+', 1),
          }))
          .where('key', '=', q.key)
          .where('state', '=', 'aguardando envio')
          .executeTakeFirst();
        if (Number(res.numUpdatedRows) !== 1) continue;
        const entry = await get(q.key);
        if (entry !== null) claimed.push(entry);
      }
      return claimed;
    },

    async resolveAttention(key, now, decision) {
      const set =
        'resend' in decision
          ? {
              state: 'aguardando envio',
              secret: decision.resend.secret,
              reason: null,
              updated_at: now,
              settled_at: null,
              // A manager's resend starts afresh: its tries and backoff from zero.
              attempts: 0,
              next_check_at: null,
            }
          : {
              state: 'descartado',
              secret: null,
              reason: decision.discard.reason,
              updated_at: now,
              settled_at: now,
            };
      const res = await db
        .updateTable('posting_journal')
        .set(set)
        .where('key', '=', key)
        .where('state', '=', 'precisa de atenção')
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },
  };
}

type HotPath = Pick<JournalStore, 'get' | 'update' | 'slotState' | 'start' | 'finish'>;

/**
 * The statements a posting runs on SQLite before it is sent, when it settles and when a
 * waiter reads it: prepared once and run synchronously on the connection (see SqliteAccess),
 * the same statements and conditions as their Kysely versions above (which PostgreSQL runs;
 * the journal's tests run both engines). Kysely compiles and prepares each statement on each
 * call, through a few promise turns per statement: a posting's journaling cost ~1 ms more
 * that way, before anything could leave for the service.
 */
function sqliteHotPath(sqlite: SqliteAccess): HotPath {
  const { conn } = sqlite;
  const inFlight = IN_FLIGHT.map((s) => `'${s}'`).join(', ');
  const slotSql = (queued: boolean, lookup: boolean) =>
    `select
       (select key from posting_slots
         where establishment_id = @establishmentId and customer_key = @customerKey) as slot,
       (select turn from posting_turns
         where establishment_id = @establishmentId and customer_key = @customerKey) as turn,
       ${
         queued
           ? `exists (select 1 from posting_journal
                where establishment_id = @establishmentId and customer_key = @customerKey
                  and (state = 'aguardando envio'
                    or (state in (${inFlight}) and settled_at is null and body is not null)))`
           : '0'
       } as queued${['turn', 'reading', 'read_at']
         .map((column) =>
           lookup
             ? `,
       (select ${column} from customer_lookups
         where establishment_id = @establishmentId and terminal_id = @terminalId
           and customer_key = @customerKey) as lookup_${column}`
             : `, null as lookup_${column}`,
         )
         .join('')}`;
  type SlotParams = { establishmentId: number; customerKey: string; terminalId?: string };
  /** The slot's statement of each shape (with the kept-sales check, with a lookup), prepared once. */
  const slotStatements = new Map<string, BetterSqlite3.Statement<[SlotParams], SlotRow>>();
  const slotStatement = (queued: boolean, lookup: boolean) => {
    const shape = `${queued}:${lookup}`;
    let stmt = slotStatements.get(shape);
    if (stmt === undefined) {
      stmt = conn.prepare<[SlotParams], SlotRow>(slotSql(queued, lookup));
      slotStatements.set(shape, stmt);
    }
    return stmt;
  };
  const st = {
    get: conn.prepare<[string], Selectable<PostingJournalTable>>(
      'select * from posting_journal where key = ?',
    ),
    takeSlot: conn.prepare(
      `insert into posting_slots (establishment_id, customer_key, key, taken_at) values (?, ?, ?, ?)
       on conflict (establishment_id, customer_key) do nothing`,
    ),
    nextTurn: conn.prepare(
      `update posting_turns set turn = turn + 1
       where establishment_id = ? and customer_key = ? and turn = ?`,
    ),
    firstTurn: conn.prepare(
      `insert into posting_turns (establishment_id, customer_key, turn) values (?, ?, 1)
       on conflict (establishment_id, customer_key) do nothing`,
    ),
    releaseSlot: conn.prepare('delete from posting_slots where key = ?'),
  };

  /** Prepared on first use: its columns are those of `startedRow`. */
  let insertStarted: BetterSqlite3.Statement<
    [Insertable<PostingJournalTable>],
    Selectable<PostingJournalTable>
  > | null = null;
  function insertStartedRow(row: Insertable<PostingJournalTable>) {
    if (insertStarted === null) {
      const columns = Object.keys(row);
      insertStarted = conn.prepare(
        `insert into posting_journal (${columns.join(', ')})
         values (${columns.map((c) => `@${c}`).join(', ')})
         on conflict (key) do nothing returning *`,
      );
    }
    return insertStarted.get(row);
  }

  /** `update … set <the patch's columns> where key and owner [and state in …]`, by shape. */
  const updates = new Map<string, BetterSqlite3.Statement>();
  function patchRow(
    c: BetterSqlite3.Database,
    key: string,
    owner: string,
    patch: EntryPatch,
    now: number,
    states: readonly PostingState[] = [],
  ): boolean {
    const set: Record<string, unknown> = { ...toColumns(patch), updated_at: now };
    const columns = Object.keys(set);
    const shape = `${columns.join(',')}|${states.length}`;
    let stmt = updates.get(shape);
    if (stmt === undefined) {
      const inStates = states.map((_, i) => `@state${i}`).join(', ');
      stmt = c.prepare(
        `update posting_journal set ${columns.map((k) => `${k} = @${k}`).join(', ')}
         where key = @key and owner = @owner${states.length > 0 ? ` and state in (${inStates})` : ''}`,
      );
      updates.set(shape, stmt);
    }
    const params: Record<string, unknown> = { ...set, key, owner };
    states.forEach((s, i) => (params[`state${i}`] = s));
    return stmt.run(params).changes === 1;
  }

  const getRow = (key: string) => {
    const row = st.get.get(key);
    return row === undefined ? null : fromRow(row);
  };

  return {
    get: (key) => sqlite.run(() => getRow(key)),

    update: (key, owner, patch, now, states) =>
      sqlite.run((c) => patchRow(c, key, owner, patch, now, states)),

    slotState: (establishmentId, customerKey, options) =>
      sqlite.run(() => {
        const queued = options?.queued === true;
        const terminalId = options?.lookup;
        const row = slotStatement(queued, terminalId !== undefined).get({
          establishmentId,
          customerKey,
          ...(terminalId === undefined ? {} : { terminalId }),
        })!;
        return {
          held: row.slot !== null,
          ...(row.slot !== null ? { holder: row.slot } : {}),
          ...(row.slot !== null ? { holder: row.slot } : {}),
          turn: row.turn === null ? 0 : Number(row.turn),
          ...(queued ? { queued: Boolean(Number(row.queued)) } : {}),
          ...(terminalId === undefined
            ? {}
            : { lookup: lookupOf(row, establishmentId, terminalId, customerKey) }),
        };
      }),

    async start(e, turn) {
      const result = await sqlite
        .run(
          (): StartResult => {
            const inserted = insertStartedRow(startedRow(e));
            if (inserted === undefined) throw new Rollback({ kind: 'moved' });
            const where = [e.establishmentId, e.customerKey] as const;
            const took =
              st.takeSlot.run(...where, e.key, e.sentAt).changes === 1 &&
              (turn > 0 ? st.nextTurn.run(...where, turn) : st.firstTurn.run(...where)).changes ===
                1;
            if (!took) throw new Rollback({ kind: 'moved' });
            return { kind: 'started', entry: fromRow(inserted) };
          },
          { transaction: true },
        )
        .catch((err: unknown) => {
          if (err instanceof Rollback) return err.result;
          throw err;
        });
      if (result.kind === 'started') return result;
      // Rolled back: the key may exist (then it is that sale), else the slot moved on.
      const existing = await sqlite.run(() => getRow(e.key));
      return existing === null ? { kind: 'moved' } : { kind: 'exists', existing };
    },

    finish: (key, owner, patch, now, options) =>
      sqlite.run(
        (c) => {
          const ok = patchRow(c, key, owner, patch, now);
          st.releaseSlot.run(key);
          return ok;
        },
        { transaction: true, durable: options?.durable },
      ),
  };
}

interface SlotRow extends LookupColumns {
  slot: string | null;
  turn: number | bigint | null;
  queued: number;
}
