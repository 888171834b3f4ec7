/**
 * Anti-automation state shared by every replica: fixed-window rate counters and
 * repeated-failure lockouts (the attendant password).
 */
import type BetterSqlite3 from 'better-sqlite3';
import type { Store, TransactionOptions } from './store';

export interface RateWindow {
  /** What is counted, e.g. `terminal:7`. One key may have several windows (burst, sustained). */
  key: string;
  windowMs: number;
  limit: number;
}

export interface RateResult {
  allowed: boolean;
  /** When refused: ms until the fullest window ends. */
  retryAfterMs: number;
}

/**
 * A SQLite store belongs to one process (see store.ts), so its rate counters live in that
 * process: the same counts without a durable write per request (a flushed commit cost ~9 ms
 * on every proxied request here; a counter need not survive a restart). PostgreSQL keeps them
 * in `rate_counters`, shared by the replicas.
 */
const inProcessCounters = new WeakMap<
  Store,
  Map<string, { window_start: number; count: number }>
>();

function countInProcess(
  store: Store,
  rows: readonly { key: string; window_start: number }[],
): { key: string; count: number }[] {
  let counters = inProcessCounters.get(store);
  if (counters === undefined) inProcessCounters.set(store, (counters = new Map()));
  return rows.map(({ key, window_start }) => {
    const kept = counters.get(key);
    const count = kept?.window_start === window_start ? kept.count + 1 : 1;
    counters.set(key, { window_start, count });
    return { key, count };
  });
}

/**
 * Counts one hit in every window (one statement: a multi-row upsert) and tells whether all
 * are still within their limit. A refused hit still counts, so hammering does not help.
 */
export async function hitRate(store: Store, windows: readonly RateWindow[]): Promise<RateResult> {
  if (windows.length === 0) return { allowed: true, retryAfterMs: 0 };
  const now = store.now();
  const keyOf = (w: RateWindow) => `${w.key}/${w.windowMs}`;
  // Two windows of one length (burst and sustained set alike) share one counter: one row each
  // (PostgreSQL refuses an upsert that touches a row twice).
  const rows = [
    ...new Map(
      windows.map((w) => [
        keyOf(w),
        { key: keyOf(w), window_start: now - (now % w.windowMs), count: 1 },
      ]),
    ).values(),
  ];
  const counted =
    store.engine === 'sqlite' ? countInProcess(store, rows) : await countInStore(store, rows);
  let retryAfterMs = 0;
  for (const w of windows) {
    const count = counted.find((r) => r.key === keyOf(w))?.count ?? 0;
    if (count > w.limit) {
      retryAfterMs = Math.max(retryAfterMs, now - (now % w.windowMs) + w.windowMs - now);
    }
  }
  return { allowed: retryAfterMs === 0, retryAfterMs };
}

async function countInStore(
  store: Store,
  rows: { key: string; window_start: number; count: number }[],
): Promise<{ key: string; count: number }[]> {
  return store.db
    .insertInto('rate_counters')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['key', 'window_start']).doUpdateSet((eb) => ({
        count: eb('rate_counters.count', '+', 1),
      })),
    )
    .returning(['key', 'count'])
    .execute();
}

/** Deletes counters whose window ended more than `olderThanMs` ago. */
export async function sweepRateCounters(store: Store, olderThanMs = 24 * 3_600_000): Promise<void> {
  const counters = inProcessCounters.get(store);
  for (const [key, { window_start }] of counters ?? []) {
    if (window_start < store.now() - olderThanMs) counters?.delete(key);
  }
  await store.db
    .deleteFrom('rate_counters')
    .where('window_start', '<', store.now() - olderThanMs)
    .execute();
}

export interface LockoutPolicy {
  /** Failures within `windowMs` that lock (e.g. 5 in 10 minutes). */
  maxFailures: number;
  windowMs: number;
  /** First lock; each further lock before a success lasts twice the previous, up to `maxLockMs`. */
  baseLockMs: number;
  maxLockMs: number;
}

export const PASSWORD_LOCKOUT: LockoutPolicy = {
  maxFailures: 5,
  windowMs: 10 * 60_000,
  baseLockMs: 60_000,
  maxLockMs: 60 * 60_000,
};

export interface LockoutState {
  /** Epoch ms the lock ends, null when not locked. */
  lockedUntil: number | null;
  /** Failures counted in the current window (0 right after a lock starts). */
  failures: number;
}

export interface FailureResult extends LockoutState {
  /** False when refused: the key was already locked and nothing was counted. */
  counted: boolean;
}

/** Whether `key` is locked now. */
export async function lockoutState(store: Store, key: string): Promise<LockoutState> {
  const sqlite = store.sqlite;
  const row =
    sqlite !== null
      ? await sqlite.run(() => sqliteLockouts(sqlite.conn).get.get(key))
      : await store.db
          .selectFrom('lockouts')
          .select(['failures', 'locked_until'])
          .where('key', '=', key)
          .executeTakeFirst();
  const now = store.now();
  if (row === undefined) return { lockedUntil: null, failures: 0 };
  return {
    lockedUntil: row.locked_until !== null && row.locked_until > now ? row.locked_until : null,
    failures: row.failures,
  };
}

/** `key`'s row, inserted (empty) if absent or as it is, locked until the transaction commits. */
function lockoutRow(trx: Store['db'], key: string, now: number) {
  return trx
    .insertInto('lockouts')
    .values({ key, failures: 0, window_start: now, strikes: 0, locked_until: null })
    .onConflict((oc) => oc.column('key').doUpdateSet((eb) => ({ key: eb.ref('excluded.key') })))
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Counts a failure; locks when it is the `maxFailures`-th in the window. Atomic across
 * replicas. Used before an attempt as a reservation ("counts as failed unless it succeeds"),
 * so parallel attempts can never exceed `maxFailures` per lock period.
 */
export async function recordFailure(
  store: Store,
  key: string,
  policy: LockoutPolicy = PASSWORD_LOCKOUT,
  /** `durable: false` when a flushed commit of the same store follows before the attempt. */
  options?: TransactionOptions,
): Promise<FailureResult> {
  const now = store.now();
  return store.transaction(async (trx) => {
    // The row, inserted or as it is, locked until the commit, in one statement. Inserting if
    // absent and then reading it with FOR UPDATE was two: on PostgreSQL a success on another
    // replica (`recordSuccess`, which deletes the row) could commit in between, the read found
    // nothing and the request failed with a 500 ("no result").
    const row = await lockoutRow(trx, key, now);
    if (row.locked_until !== null && row.locked_until > now) {
      return { lockedUntil: row.locked_until, failures: row.failures, counted: false };
    }
    const inWindow = now - row.window_start < policy.windowMs;
    const failures = (inWindow ? row.failures : 0) + 1;
    const windowStart = inWindow ? row.window_start : now;
    if (failures < policy.maxFailures) {
      await trx
        .updateTable('lockouts')
        .set({ failures, window_start: windowStart })
        .where('key', '=', key)
        .execute();
      return { lockedUntil: null, failures, counted: true };
    }
    const strikes = row.strikes + 1;
    const lockMs = Math.min(policy.baseLockMs * 2 ** (strikes - 1), policy.maxLockMs);
    const lockedUntil = now + lockMs;
    await trx
      .updateTable('lockouts')
      .set({ failures: 0, window_start: now, strikes, locked_until: lockedUntil })
      .where('key', '=', key)
      .execute();
    return { lockedUntil, failures: 0, counted: true };
  }, options);
}

/** Takes back one counted failure (an attempt that ended without a verdict), unless locked. */
export async function refundFailure(store: Store, key: string): Promise<void> {
  const now = store.now();
  await store.db
    .updateTable('lockouts')
    .set((eb) => ({ failures: eb('failures', '-', 1) }))
    .where('key', '=', key)
    .where('failures', '>', 0)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
    .execute();
}

/** A success forgets the failures and the escalation. */
export async function recordSuccess(store: Store, key: string): Promise<void> {
  await store.db.deleteFrom('lockouts').where('key', '=', key).execute();
}

/** The row counting a key's attempts still waiting for their verdict (see reserveAttempt). */
const pendingKey = (key: string) => `${key}:em-andamento`;

export interface AttemptReservation {
  /** False when refused: the key is locked (`lockedUntil`), or too many attempts wait (`busy`). */
  counted: boolean;
  lockedUntil: number | null;
  /** Refused because failures and attempts waiting for their verdict reach `maxFailures`. */
  busy: boolean;
}

/**
 * Reserves an attempt whose verdict comes later (a posting carrying the attendant password):
 * the failures counted and the attempts still waiting together stay under `maxFailures`, so
 * parallel guesses from several replicas cannot pass it; but an attempt waiting is not a
 * failure: only a wrong verdict counts (settleAttempt), and only failures lock. Attempts whose
 * answers pile up (a slow or refusing service) are refused as busy, never locked. A waiting
 * count left by a crashed process lapses with the window.
 */
export async function reserveAttempt(
  store: Store,
  key: string,
  policy: LockoutPolicy = PASSWORD_LOCKOUT,
  options?: TransactionOptions,
): Promise<AttemptReservation> {
  const now = store.now();
  const sqlite = store.sqlite;
  if (sqlite !== null) {
    // Every posting reserves: its statements prepared once and run in one synchronous
    // transaction (Kysely compiled and prepared each of the five on every posting).
    return sqlite.run(
      (conn) => {
        const st = sqliteLockouts(conn);
        // The transaction holds the whole file: the settled row is read, not touched (no
        // row to insert for a terminal without failures, none to delete on its success).
        const settled = st.get.get(key);
        if (settled?.locked_until != null && settled.locked_until > now) {
          return { counted: false, lockedUntil: settled.locked_until, busy: false };
        }
        const pending = st.get.get(pendingKey(key));
        const failures =
          settled !== undefined && now - settled.window_start < policy.windowMs
            ? settled.failures
            : 0;
        const waiting =
          pending !== undefined && now - pending.window_start < policy.windowMs
            ? pending.failures
            : 0;
        if (failures + waiting >= policy.maxFailures) {
          return { counted: false, lockedUntil: null, busy: true };
        }
        st.setPending.run({ key: pendingKey(key), failures: waiting + 1, start: now });
        return { counted: true, lockedUntil: null, busy: false };
      },
      { transaction: true, ...options },
    );
  }
  return store.transaction(async (trx) => {
    const settled = await lockoutRow(trx, key, now);
    if (settled.locked_until !== null && settled.locked_until > now) {
      return { counted: false, lockedUntil: settled.locked_until, busy: false };
    }
    const pending = await lockoutRow(trx, pendingKey(key), now);
    const failures = now - settled.window_start < policy.windowMs ? settled.failures : 0;
    const waiting = now - pending.window_start < policy.windowMs ? pending.failures : 0;
    if (failures + waiting >= policy.maxFailures) {
      return { counted: false, lockedUntil: null, busy: true };
    }
    await trx
      .updateTable('lockouts')
      .set({ failures: waiting + 1, window_start: now })
      .where('key', '=', pendingKey(key))
      .execute();
    return { counted: true, lockedUntil: null, busy: false };
  }, options);
}

/**
 * The verdict on a reserved attempt: it no longer waits; a wrong one counts as a failure (the
 * `maxFailures`-th locks: its end returned), a right one forgets the failures, none neither.
 */
export async function settleAttempt(
  store: Store,
  key: string,
  verdict: 'right' | 'wrong' | 'none',
  policy: LockoutPolicy = PASSWORD_LOCKOUT,
): Promise<number | null> {
  const sqlite = store.sqlite;
  if (sqlite !== null) {
    // The attempt's end and a right verdict's forgetting in one commit, not flushed on its
    // own (the answer waits for no disk): the store's next flushed commit (the next posting's
    // reservation or journaling, a failure counted below) flushes it. A power cut before then
    // leaves the attempt waiting until its window lapses, and a success's forgetting undone:
    // never a failure counted that did not happen.
    await sqlite.run(
      (conn) => {
        const st = sqliteLockouts(conn);
        st.release.run(pendingKey(key));
        if (verdict === 'right') st.forget.run(key);
      },
      { transaction: true, durable: false },
    );
  } else {
    await store.db
      .updateTable('lockouts')
      .set((eb) => ({ failures: eb('failures', '-', 1) }))
      .where('key', '=', pendingKey(key))
      .where('failures', '>', 0)
      .execute();
    if (verdict === 'right') await recordSuccess(store, key);
  }
  if (verdict !== 'wrong') return null;
  const failed = await recordFailure(store, key, policy);
  return failed.counted ? failed.lockedUntil : null;
}

interface LockoutStatements {
  get: BetterSqlite3.Statement<
    [string],
    { failures: number; window_start: number; locked_until: number | null }
  >;
  /** A pending row's count of attempts waiting, and its window's start. */
  setPending: BetterSqlite3.Statement<[{ key: string; failures: number; start: number }]>;
  release: BetterSqlite3.Statement<[string]>;
  forget: BetterSqlite3.Statement<[string]>;
}

const lockoutStatements = new WeakMap<BetterSqlite3.Database, LockoutStatements>();

/** The statements every posting runs on SQLite, prepared once per connection. */
function sqliteLockouts(conn: BetterSqlite3.Database): LockoutStatements {
  let st = lockoutStatements.get(conn);
  if (st === undefined) {
    st = {
      get: conn.prepare('select failures, window_start, locked_until from lockouts where key = ?'),
      setPending: conn.prepare(
        `insert into lockouts (key, failures, window_start, strikes, locked_until)
         values (@key, @failures, @start, 0, null)
         on conflict (key) do update set failures = @failures, window_start = @start`,
      ),
      release: conn.prepare(
        'update lockouts set failures = failures - 1 where key = ? and failures > 0',
      ),
      forget: conn.prepare('delete from lockouts where key = ?'),
    };
    lockoutStatements.set(conn, st);
  }
  return st;
}
