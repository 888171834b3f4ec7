// The schema a fresh database gets from every migration, on both engines, against a committed
// snapshot: the migrations have landed in deployed databases, so a change to their code must
// leave what they create exactly as it was (SQLite keeps each statement's text as written).
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { expect, test } from 'vitest';
import { describeEngines } from '../testing/pg-cluster';
import { storeFixture } from '../testing/store-fixture';

const stores = storeFixture('schema-snapshot');

type Rows = Record<string, unknown>[];

async function rows(db: Kysely<unknown>, query: ReturnType<typeof sql>): Promise<Rows> {
  return (await query.execute(db)).rows as Rows;
}

/** SQLite: every table, index and trigger with the statement that created it. */
async function sqliteSchema(db: Kysely<unknown>): Promise<Rows> {
  return rows(
    db,
    sql`select type, name, tbl_name, sql from sqlite_master
      where name not like 'sqlite_%' order by type, name`,
  );
}

/** PostgreSQL: columns, constraints, indexes, triggers and functions of the public schema. */
async function postgresSchema(db: Kysely<unknown>): Promise<Record<string, Rows>> {
  return {
    columns: await rows(
      db,
      sql`select table_name, ordinal_position, column_name, data_type, is_nullable,
        column_default from information_schema.columns where table_schema = 'public'
        order by table_name, ordinal_position`,
    ),
    constraints: await rows(
      db,
      sql`select conrelid::regclass::text as table_name, conname, pg_get_constraintdef(oid) as def
        from pg_constraint where connamespace = 'public'::regnamespace
        order by table_name, conname`,
    ),
    indexes: await rows(
      db,
      sql`select tablename, indexname, indexdef from pg_indexes where schemaname = 'public'
        order by tablename, indexname`,
    ),
    triggers: await rows(
      db,
      sql`select tgrelid::regclass::text as table_name, tgname, pg_get_triggerdef(oid) as def
        from pg_trigger where not tgisinternal order by table_name, tgname`,
    ),
    functions: await rows(
      db,
      sql`select proname, pg_get_functiondef(p.oid) as def from pg_proc p
        where pronamespace = 'public'::regnamespace order by proname`,
    ),
  };
}

describeEngines('the schema every migration gives a fresh database, on %s', (engine) => {
  test('is the committed snapshot', async () => {
    const store = await stores.open(engine);
    try {
      const db = store.db as unknown as Kysely<unknown>;
      const schema = engine === 'postgres' ? await postgresSchema(db) : await sqliteSchema(db);
      await expect(JSON.stringify(schema, null, 2) + '\n').toMatchFileSnapshot(
        `./__snapshots__/schema-${engine}.json`,
      );
    } finally {
      await store.close();
    }
  });
});
