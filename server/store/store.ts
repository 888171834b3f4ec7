/**
 * The app server's own store: SQLite (better-sqlite3, one file, WAL, synchronous=FULL) by
 * default, PostgreSQL when DATABASE_URL is set so several app-server replicas share it.
 * Everything else talks to it through Kysely with one set of queries for both engines.
 *
 * Rules that keep queries portable:
 * - times are epoch ms in BIGINT columns (parsed to numbers on both engines);
 * - read-modify-write goes through `store.transaction` and reads the row with `lock(qb)`
 *   (FOR UPDATE on PostgreSQL; SQLite transactions here are BEGIN IMMEDIATE, so the whole
 *   database is already write-locked);
 * - "only one" guarantees use unique constraints, `insert … on conflict` and conditional
 *   `update … where state = … returning`, which both engines implement the same way.
 */
import { EventEmitter } from 'node:events';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import type { SelectQueryBuilder } from 'kysely';
import pg from 'pg';
import type { Engine } from './engine';
import { migrations } from './migrations';
import type { Database } from './schema';

export interface StoreOptions {
  /** postgres://… : use PostgreSQL. Absent or empty: SQLite at `sqlitePath`. */
  databaseUrl?: string | null;
  /** SQLite file (created with its folder when missing), or ':memory:'. */
  sqlitePath?: string;
  /** Clock in epoch ms; tests move it. Default Date.now. */
  now?: () => number;
  /**
   * Told the time of every query through the query builder (ms; `ok` false when it failed), for
   * the metrics. Prepared statements through `sqlite` are not included.
   */
  onQuery?: (ms: number, ok: boolean) => void;
}

type QueryLog = NonNullable<StoreOptions['onQuery']>;

/** Kysely's log option feeding `onQuery` (undefined: no logging, no cost). */
function queryLog(onQuery: QueryLog | undefined) {
  if (onQuery === undefined) return undefined;
  return (event: { level: 'query' | 'error'; queryDurationMillis: number }) =>
    onQuery(event.queryDurationMillis, event.level === 'query');
}

export interface TransactionOptions {
  /**
   * false: the commit returns before it is flushed to disk (SQLite `synchronous=NORMAL` for
   * this commit, PostgreSQL `synchronous_commit = off`). A crash of the process loses nothing;
   * a power cut or OS crash may lose this commit (never corrupts, never reorders: a later
   * flushed commit flushes it too). Only for writes that recovery can derive again, such as
   * a posting's settlement (re-verified from its snapshot). Default true.
   */
  durable?: boolean;
}

/**
 * The SQLite connection itself, for a hot path that prepares its statements once instead of
 * building each with Kysely (which compiles and prepares every statement on every call: a
 * posting's journaling cost ~1 ms more that way).
 */
export interface SqliteAccess {
  /** Prepare statements on it; run them only inside `run`. */
  readonly conn: BetterSqlite3.Database;
  /**
   * Runs `fn` on the connection when no `store.transaction` holds it (at once when none does,
   * else after it): `fn` is synchronous, so nothing interleaves with it. With `transaction`,
   * inside BEGIN IMMEDIATE … COMMIT (rolled back when `fn` throws), flushed unless
   * `durable: false` (see TransactionOptions).
   */
  run<T>(
    fn: (conn: BetterSqlite3.Database) => T,
    options?: { transaction?: boolean } & TransactionOptions,
  ): Promise<T>;
}

export interface Store {
  readonly engine: Engine;
  /**
   * The migrations this opening ran (empty when the schema was already up to date, or another
   * replica ran them first), for the start line.
   */
  readonly migrated: readonly string[];
  /** The query builder. Prefer the helpers in terminals.ts / limits.ts where one exists. */
  readonly db: Kysely<Database>;
  /** SQLite only (null on PostgreSQL): the connection for prepared statements. */
  readonly sqlite: SqliteAccess | null;
  now(): number;
  /**
   * Runs `fn` in one transaction (committed when it resolves, rolled back when it throws).
   * SQLite: BEGIN IMMEDIATE on the single connection, so transactions never interleave.
   * PostgreSQL: READ COMMITTED on a pooled connection; lock what you read with `lock()`.
   */
  transaction<T>(
    fn: (trx: Kysely<Database>) => Promise<T>,
    options?: TransactionOptions,
  ): Promise<T>;
  /** Adds FOR UPDATE on PostgreSQL (a no-op on SQLite, already locked by the transaction). */
  lock<QB extends SelectQueryBuilder<Database, keyof Database, object>>(qb: QB): QB;
  /**
   * SQLite: a number that changes whenever another connection commits to the file (`PRAGMA
   * data_version`: another process such as `npm run terminal`); this store's own commits leave
   * it as it is. PostgreSQL: null (other replicas' changes are heard through `listen`).
   */
  changedElsewhere(): number | null;
  /** Publishes `payload` on `channel`: PostgreSQL NOTIFY (every replica), in-process on SQLite. */
  notify(channel: string, payload: string): Promise<void>;
  /** Subscribes to `channel`; resolves to an unsubscribe function. */
  listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;

function checkChannel(channel: string): void {
  if (!CHANNEL.test(channel)) throw new Error(`invalid channel name ${JSON.stringify(channel)}`);
}

/** int8 (BIGINT, COUNT) as a JS number: every value here is an epoch ms or a small count. */
const pgTypes = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === pg.types.builtins.INT8
      ? (v: string) => Number(v)
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

function openSqlite(file: string): BetterSqlite3.Database {
  if (file !== ':memory:') mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const conn = new BetterSqlite3(file);
  conn.pragma('journal_mode = WAL');
  conn.pragma('synchronous = FULL');
  conn.pragma('foreign_keys = ON');
  conn.pragma('busy_timeout = 5000');
  return conn;
}

/** Opens the store and brings its schema up to date (safe when replicas start together). */
export async function openStore(options: StoreOptions = {}): Promise<Store> {
  const now = options.now ?? Date.now;
  const url = options.databaseUrl?.trim() ? options.databaseUrl.trim() : null;
  let store: Omit<Store, 'migrated'>;
  if (url !== null) {
    store = openPostgres(url, now, options.onQuery);
  } else {
    const file = options.sqlitePath ?? path.join('data', 'app.db');
    store = openSqliteStore(openSqlite(file), now, options.onQuery);
  }
  try {
    return { ...store, migrated: await migrate(store) };
  } catch (err) {
    await store.close();
    throw err;
  }
}

/**
 * Key of the PostgreSQL advisory lock held around the migrations ("fidelida" in ASCII): any
 * fixed 64-bit number no other lock of the database uses.
 */
export const MIGRATION_LOCK_KEY = '7379539851196589153';

/**
 * Brings the schema up to date. PostgreSQL: in one session holding a session-level advisory
 * lock for the whole run, so replicas starting together on an empty or older database migrate
 * one after another: the first applies what is missing, the others wait, then find nothing to
 * do. Kysely's own lock covers its migration transaction only, not the creation of its tables
 * before it (racing `create table if not exists`: errors PostgreSQL logs, rescued by a re-check).
 * SQLite: one process's file; the single connection serialises it.
 */
async function migrate(store: Omit<Store, 'migrated'>): Promise<string[]> {
  const run = async (db: Kysely<Database>) => {
    const migrator = new Migrator({
      db,
      provider: { getMigrations: async () => migrations(store.engine) },
    });
    const { error, results } = await migrator.migrateToLatest();
    if (error !== undefined) throw error;
    return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  };
  if (store.engine !== 'postgres') return run(store.db);
  return store.db.connection().execute(async (session) => {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK_KEY}::bigint)`.execute(session);
    try {
      return await run(session);
    } finally {
      // A broken session releases its locks as it ends; the original error matters more.
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK_KEY}::bigint)`
        .execute(session)
        .catch(() => undefined);
    }
  });
}

function openSqliteStore(
  conn: BetterSqlite3.Database,
  now: () => number,
  onQuery?: QueryLog,
): Omit<Store, 'migrated'> {
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: conn }),
    log: queryLog(onQuery),
  });
  const events = new EventEmitter();
  events.setMaxListeners(0);
  /**
   * `transaction` callbacks in progress: they hold the connection across awaits (an open
   * transaction, or the relaxed sync level), so `sqlite.run` must wait for them.
   */
  let held = 0;
  // Prepared once: `conn.pragma()` compiles its statement on every call, ~40 µs each, and a
  // posting toggles the level around its unflushed commits several times.
  const syncNormal = conn.prepare('pragma synchronous = NORMAL');
  const syncFull = conn.prepare('pragma synchronous = FULL');
  const relaxedSync = <T>(durable: boolean | undefined, fn: () => T): T => {
    if (durable !== false) return fn();
    // The connection's level (FULL) comes back before anything else can use it.
    syncNormal.run();
    try {
      return fn();
    } finally {
      syncFull.run();
    }
  };
  const runSync = <T>(
    fn: (c: BetterSqlite3.Database) => T,
    o: { transaction?: boolean } & TransactionOptions,
  ): T =>
    o.transaction === true
      ? relaxedSync(o.durable, () => conn.transaction(() => fn(conn)).immediate())
      : fn(conn);
  const dataVersion = conn.prepare('PRAGMA data_version').pluck();
  return {
    engine: 'sqlite',
    db,
    sqlite: {
      conn,
      run(fn, options = {}) {
        if (held > 0) return db.connection().execute(async () => runSync(fn, options));
        try {
          return Promise.resolve(runSync(fn, options));
        } catch (err) {
          return Promise.reject(err as Error);
        }
      },
    },
    now,
    changedElsewhere: () => dataVersion.get() as number,
    transaction: (fn, options) =>
      // One connection: holding it for the whole callback serialises transactions in-process;
      // IMMEDIATE takes the write lock up front (no upgrade deadlock with another process).
      db.connection().execute(async (c) => {
        held += 1;
        const relaxed = options?.durable === false;
        // The connection's level (FULL) comes back before anything else can use it.
        if (relaxed) syncNormal.run();
        try {
          await sql`begin immediate`.execute(c);
          try {
            const result = await fn(c);
            await sql`commit`.execute(c);
            return result;
          } catch (err) {
            await sql`rollback`.execute(c).catch(() => undefined);
            throw err;
          }
        } finally {
          if (relaxed) syncFull.run();
          held -= 1;
        }
      }),
    lock: (qb) => qb,
    async notify(channel, payload) {
      checkChannel(channel);
      events.emit(channel, payload);
    },
    async listen(channel, onMessage) {
      checkChannel(channel);
      events.on(channel, onMessage);
      return async () => void events.off(channel, onMessage);
    },
    close: () => db.destroy(),
  };
}

function openPostgres(
  connectionString: string,
  now: () => number,
  onQuery?: QueryLog,
): Omit<Store, 'migrated'> {
  const pool = new pg.Pool({ connectionString, max: 10, types: pgTypes });
  // A client losing its connection (PostgreSQL restarted or stopped) must not crash the
  // process: an idle one is the pool's 'error', which then replaces it; one checked out by a
  // query emits 'error' on itself, and the query rejects with it (the caller answers it).
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    log: queryLog(onQuery),
  });
  let listener: Promise<pg.Client> | null = null;
  let closed = false;
  const events = new EventEmitter();
  events.setMaxListeners(0);

  /**
   * The one connection that LISTENs. When PostgreSQL goes away (restarted, stopped) it is
   * dropped, and while a channel has listeners a new one is opened (backoff with jitter, up
   * to 5 s apart) and LISTENs again: notifications sent in between are missed, live updates
   * resume without a restart of this process.
   */
  function listenerClient(): Promise<pg.Client> {
    listener ??= (async () => {
      const client = new pg.Client({ connectionString, types: pgTypes });
      let lost = false;
      const onLost = () => {
        if (lost) return;
        lost = true;
        listener = null;
        void relisten(0);
      };
      client.on('error', onLost);
      client.on('end', onLost);
      client.on('notification', (n) => events.emit(n.channel, n.payload ?? ''));
      try {
        await client.connect();
      } catch (err) {
        listener = null;
        lost = true;
        throw err;
      }
      return client;
    })();
    return listener;
  }

  async function relisten(attempt: number): Promise<void> {
    const channels = events.eventNames().filter((c): c is string => typeof c === 'string');
    if (closed || channels.length === 0) return;
    const step = Math.min(5_000, 100 * 2 ** attempt);
    await new Promise((r) => setTimeout(r, step / 2 + Math.random() * (step / 2)));
    if (closed) return;
    try {
      // LISTEN is idempotent: another listen() may have opened the connection meanwhile.
      const client = await listenerClient();
      for (const channel of channels) await client.query(`listen ${channel}`);
    } catch {
      listener = null;
      void relisten(attempt + 1);
    }
  }

  return {
    engine: 'postgres',
    db,
    sqlite: null,
    now,
    transaction: (fn, options) =>
      db.transaction().execute(async (trx) => {
        if (options?.durable === false) await sql`set local synchronous_commit = off`.execute(trx);
        return fn(trx);
      }),
    lock: (qb) => qb.forUpdate() as typeof qb,
    changedElsewhere: () => null,
    async notify(channel, payload) {
      checkChannel(channel);
      await sql`select pg_notify(${channel}, ${payload})`.execute(db);
    },
    async listen(channel, onMessage) {
      checkChannel(channel);
      const client = await listenerClient();
      if (events.listenerCount(channel) === 0) await client.query(`listen ${channel}`);
      events.on(channel, onMessage);
      return async () => {
        events.off(channel, onMessage);
        if (events.listenerCount(channel) > 0 || listener === null) return;
        await (await listener).query(`unlisten ${channel}`).catch(() => undefined);
      };
    },
    async close() {
      closed = true;
      if (listener !== null) await (await listener).end().catch(() => undefined);
      await db.destroy();
    },
  };
}
