// A single store's database from before the chain (migrated up to 0013, with terminals, an
// integration, a journal entry and audit entries), opened by this release on both engines:
// migration 0015 widens the roles with `rede` (the check still refuses an unknown role), the
// terminals are adopted by the configured default store at start, and the rows from before
// read as that store's.
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import { expect, test } from 'vitest';
import { adoptTerminals, listTerminals, openStore, readAudit } from './index';
import { migrations } from './migrations';
import type { StoreOptions } from './store';
import { describeEngines } from '../testing/pg-cluster';
import { storeFixture } from '../testing/store-fixture';

const stores = storeFixture('chain-migration');

describeEngines('a single store from before the chain, on %s', (engine) => {
  test('is migrated, its terminals adopted by the default store, its records kept', async () => {
    const where: StoreOptions = await stores.location(engine);
    const dialect =
      engine === 'postgres'
        ? new PostgresDialect({
            pool: new pg.Pool({ connectionString: where.databaseUrl!, max: 1 }),
          })
        : new SqliteDialect({ database: new BetterSqlite3(where.sqlitePath!) });
    const older = new Kysely<unknown>({ dialect });
    const all = Object.keys(migrations(engine));
    const { error } = await new Migrator({
      db: older,
      provider: { getMigrations: async () => migrations(engine) },
    }).migrateTo('0013_customer_lookups');
    expect(error).toBeUndefined();
    // What the single store held: a counter, a manager, its PDV, an audit entry.
    await sql`insert into terminals (name, role, created_at) values
      ('Caixa 1', 'caixa', 1), ('Gerência', 'gerente', 2)`.execute(older);
    await sql`insert into terminals (name, role, created_at, counter_id) values
      ('PDV 1', 'integracao', 3, 1)`.execute(older);
    await sql`insert into audit_log (at, terminal_id, terminal_name, role, action, details)
      values (10, 2, 'Gerência', 'gerente', 'terminal.criado', '{}')`.execute(older);
    await older.destroy();

    const store = await openStore(where);
    try {
      expect(store.migrated).toEqual(all.slice(all.indexOf('0013_customer_lookups') + 1));
      // The role check is widened, and still a check.
      await sql`insert into terminals (name, role, created_at) values ('Rede', 'rede', 4)`.execute(
        store.db,
      );
      await expect(
        sql`insert into terminals (name, role, created_at) values ('X', 'dono', 5)`.execute(
          store.db,
        ),
      ).rejects.toThrow();
      // At start: every terminal naming no store becomes the default store's (once).
      expect(await adoptTerminals(store, 7)).toBe(4);
      expect(await adoptTerminals(store, 7)).toBe(0);
      const terminals = await listTerminals(store, { establishmentId: 7, orUnnamed: true });
      expect(terminals.map((t) => [t.name, t.role, t.establishmentId])).toEqual([
        ['Caixa 1', 'caixa', 7],
        ['Gerência', 'gerente', 7],
        ['PDV 1', 'integracao', 7],
        ['Rede', 'rede', 7],
      ]);
      expect(await listTerminals(store, { establishmentId: 8, orUnnamed: false })).toEqual([]);
      // The audit entry from before is the default store's, and no other's.
      const page = { from: null, to: null, action: null, terminalId: null, offset: 0, limit: 10 };
      const mine = await readAudit(store, {
        ...page,
        store: { establishmentId: 7, orUnnamed: true },
      });
      const other = await readAudit(store, {
        ...page,
        store: { establishmentId: 8, orUnnamed: false },
      });
      expect([mine.total, other.total]).toEqual([1, 0]);
      console.log(
        `[chain migration ${engine}] ${store.migrated.length} migration(s); 4 terminals adopted; audit 1/0`,
      );
    } finally {
      await store.close();
    }
  });
});
