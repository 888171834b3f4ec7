// Upgrades on PostgreSQL: app-server replicas starting at the same moment on one database, empty
// or left at an older version, migrate it once (an advisory lock held around the whole run) and
// all serve.
import { Kysely, PostgresDialect, sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addTerminal, listTerminals, openStore } from './index';
import type { Store } from './index';
import { migrations } from './migrations';
import { postgresSuite, startPgCluster } from '../testing/pg-cluster';
import type { PgCluster } from '../testing/pg-cluster';
import { MIGRATION_LOCK_KEY } from './store';

const REPLICAS = 4;
const ALL = Object.keys(migrations('postgres'));

describe('migrations on postgres', postgresSuite(), () => {
  let cluster: PgCluster;
  beforeAll(async () => {
    cluster = await startPgCluster();
  }, 60_000);
  afterAll(() => cluster?.stop());

  async function applied(url: string): Promise<{ name: string; timestamp: string }[]> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string; timestamp: string }>(
        'select name, timestamp from kysely_migration order by name',
      );
      return rows;
    } finally {
      await client.end();
    }
  }

  /** Opens REPLICAS stores at once; each writes and reads through the schema it got. */
  async function startTogether(url: string): Promise<void> {
    const results = await Promise.allSettled(
      Array.from({ length: REPLICAS }, () => openStore({ databaseUrl: url })),
    );
    const stores = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    try {
      expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
      await Promise.all(
        stores.map((s, i) => addTerminal(s, { name: `Caixa ${i + 1}`, role: 'caixa' })),
      );
      for (const s of stores) expect(await listTerminals(s)).toHaveLength(REPLICAS);
      await Promise.all(
        stores.map((s) => s.db.selectFrom('kiosk_sales').select('id').limit(1).execute()),
      );
    } finally {
      await Promise.all(stores.map((s: Store) => s.close()));
    }
  }

  test(`${REPLICAS} replicas starting at once on an empty database: each migration runs once, all serve`, async () => {
    const url = await cluster.createDatabase();
    await startTogether(url);
    expect((await applied(url)).map((m) => m.name)).toEqual(ALL);
  });

  test(`${REPLICAS} replicas starting at once on an older database: the missing migrations run once, all serve`, async () => {
    const url = await cluster.createDatabase();
    // The database as an earlier release left it: the first three migrations only.
    const older = new Kysely<unknown>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }),
    });
    const { error } = await new Migrator({
      db: older,
      provider: { getMigrations: async () => migrations('postgres') },
    }).migrateTo(ALL[2]!);
    await older.destroy();
    expect(error).toBeUndefined();
    const before = await applied(url);
    expect(before.map((m) => m.name)).toEqual(ALL.slice(0, 3));

    await startTogether(url);
    const after = await applied(url);
    expect(after.map((m) => m.name)).toEqual(ALL);
    // The first three kept the time they ran at: not run again.
    expect(after.slice(0, 3)).toEqual(before);
  });

  test('a replica waits while another holds the migration lock, then opens', async () => {
    const url = await cluster.createDatabase();
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      await holder.query('select pg_advisory_lock($1::bigint)', [MIGRATION_LOCK_KEY]);
      let opened = false;
      const opening = openStore({ databaseUrl: url }).then((s) => {
        opened = true;
        return s;
      });
      await new Promise((r) => setTimeout(r, 500));
      expect(opened).toBe(false);
      // Nothing ran behind the lock: not even Kysely's own tables.
      const { rows } = await holder.query(
        "select count(*)::int as n from pg_tables where tablename like 'kysely_%'",
      );
      expect(rows[0]).toEqual({ n: 0 });
      await holder.query('select pg_advisory_unlock($1::bigint)', [MIGRATION_LOCK_KEY]);
      const store = await opening;
      expect(opened).toBe(true);
      // The lock went with the run: another session takes it at once.
      const { rows: free } = await holder.query('select pg_try_advisory_lock($1::bigint) as free', [
        MIGRATION_LOCK_KEY,
      ]);
      expect(free[0]).toEqual({ free: true });
      await sql`select 1`.execute(store.db);
      await store.close();
    } finally {
      await holder.end();
    }
  });
});
