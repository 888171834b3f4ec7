/**
 * Starts the postings journal for server/main.ts: its store (SQLite file by default,
 * PostgreSQL when DATABASE_URL is set) and the service with limits from the environment.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Logger } from 'pino';
import { createJournalStore, migrateJournal, type JournalTables } from './journal-store';
import { createPostingService, type PostingServiceOptions, type UpstreamCall } from './postings';

type Env = Readonly<Record<string, string | undefined>>;

function ms(env: Env, name: string): number | undefined {
  const v = env[name]?.trim();
  if (v === undefined || v === '') return undefined;
  if (!/^\d+$/.test(v)) throw new Error(`${name} must be a whole number of milliseconds`);
  return Number(v);
}

/** Journal limits read from JOURNAL_* variables (all optional; see the README). */
export function journalLimits(env: Env): Partial<PostingServiceOptions> {
  const days = env.JOURNAL_RETENTION_DAYS?.trim();
  if (days !== undefined && days !== '' && !/^\d+$/.test(days)) {
    throw new Error('JOURNAL_RETENTION_DAYS must be a whole number of days');
  }
  const limits: Partial<PostingServiceOptions> = {
    upstreamLimitMs: ms(env, 'JOURNAL_UPSTREAM_LIMIT_MS'),
    waitMs: ms(env, 'JOURNAL_WAIT_MS'),
    quietMs: ms(env, 'JOURNAL_QUIET_MS'),
    unknownHorizonMs: ms(env, 'JOURNAL_UNKNOWN_HORIZON_MS'),
    recheckMs: ms(env, 'JOURNAL_RECHECK_MS'),
    leaseMs: ms(env, 'JOURNAL_LEASE_MS'),
    retentionMs: days ? Number(days) * 24 * 3_600_000 : undefined,
  };
  return Object.fromEntries(Object.entries(limits).filter(([, v]) => v !== undefined));
}

export async function openJournal(
  env: Env,
  root: string,
  call: UpstreamCall,
  establishmentId: number,
  logger: Logger,
) {
  const url = env.DATABASE_URL?.trim();
  let db: Kysely<JournalTables>;
  if (url) {
    db = new Kysely({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 10 }) }),
    });
  } else {
    const file = path.resolve(root, env.APP_DB?.trim() || path.join('data', 'app.db'));
    mkdirSync(path.dirname(file), { recursive: true });
    const conn = new Database(file);
    conn.pragma('journal_mode = WAL');
    conn.pragma('synchronous = FULL');
    conn.pragma('busy_timeout = 5000');
    db = new Kysely({ dialect: new SqliteDialect({ database: conn }) });
  }
  await migrateJournal(db);
  const service = createPostingService({
    store: createJournalStore(db),
    call,
    establishmentId,
    logger,
    ...journalLimits(env),
  });
  service.start();
  return {
    service,
    async close() {
      await service.stop();
      await db.destroy();
    },
  };
}
