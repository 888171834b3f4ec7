/** What the store's migrations share: the engine, its auto-increment key, SQLite's role rebuild. */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { sql } from 'kysely';
import type { Engine } from '../engine';

/** `db` is untyped on purpose: a migration sees the schema as it was then, not as now. */
export type AnyDb = Kysely<unknown>;

type TableBuilder = ReturnType<AnyDb['schema']['createTable']>;

export interface MigrationKit {
  engine: Engine;
  /** Adds the auto-increment `id` primary key, the one dialect branch of a table's creation. */
  autoId: (table: TableBuilder) => TableBuilder;
}

/**
 * A migration file's export: `up(db, kit)` with the kit of the engine it runs on; `migrations.ts`
 * gives each the kit and lists it under its name.
 */
export function defineMigration(
  up: (db: AnyDb, kit: MigrationKit) => Promise<void>,
): (kit: MigrationKit) => Migration {
  return (kit) => ({ up: (db: AnyDb) => up(db, kit) });
}

export function migrationKit(engine: Engine): MigrationKit {
  return {
    engine,
    autoId: (table) =>
      engine === 'postgres'
        ? table.addColumn('id', 'serial', (c) => c.primaryKey())
        : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()),
  };
}

/** The lease a replica takes on a row it works on: `owner`, `lease_until` (`.$call(lease)`). */
export function lease(table: TableBuilder): TableBuilder {
  return table.addColumn('owner', 'text').addColumn('lease_until', 'bigint', (c) => c.notNull());
}

/** A row's creation and last change, epoch ms (`.$call(stamps)`). */
export function stamps(table: TableBuilder): TableBuilder {
  return table
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull());
}

/** A sale staged for a kiosk or from the PDV: made, expires, last changed, settled. */
export function stagedSaleTimes(table: TableBuilder): TableBuilder {
  return table
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('settled_at', 'bigint');
}

/** An index's options: `unique`, and `where` for a partial one (`{ state: 'aguardando' }`). */
export interface IndexOptions {
  unique?: boolean;
  where?: Record<string, string>;
}

/** Creates the index `name` on `table`'s `columns`, the same statement on both engines. */
export async function createIndex(
  db: AnyDb,
  name: string,
  table: string,
  columns: string[],
  { unique = false, where = {} }: IndexOptions = {},
): Promise<void> {
  let index = db.schema.createIndex(name).on(table).columns(columns);
  if (unique) index = index.unique();
  for (const [column, value] of Object.entries(where)) {
    index = index.where(sql.ref(column), '=', value);
  }
  await index.execute();
}

/** An index of `createIndexes`: its columns, or its columns with its options. */
export type IndexSpec = string[] | ({ columns: string[] } & IndexOptions);

/** Creates `table`'s indexes, by name, in the order listed (one `createIndex` each). */
export async function createIndexes(
  db: AnyDb,
  table: string,
  indexes: Record<string, IndexSpec>,
): Promise<void> {
  for (const [name, spec] of Object.entries(indexes)) {
    if (Array.isArray(spec)) await createIndex(db, name, table, spec);
    else await createIndex(db, name, table, spec.columns, spec);
  }
}

/**
 * SQLite cannot change a CHECK constraint: `terminals` is rebuilt from its own definition with
 * the role list widened (whatever columns earlier migrations gave it), with foreign keys off
 * so that dropping the old table cascades nothing into the tables that reference it (their
 * references name `terminals` and find the new table once it is renamed). One transaction;
 * `foreign_key_check` must find nothing before it commits.
 */
export async function widenSqliteRoles(
  db: AnyDb,
  from: string,
  to: string,
  scratch: string,
): Promise<void> {
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await sql`begin immediate`.execute(db);
    try {
      const table = await sql<{ sql: string }>`select sql from sqlite_master
        where type = 'table' and name = 'terminals'`.execute(db);
      const indexes = await sql<{ sql: string }>`select sql from sqlite_master
        where type = 'index' and tbl_name = 'terminals' and sql is not null`.execute(db);
      const old = table.rows[0]!.sql;
      const list = `role in ('caixa', 'gerente', `;
      const widened = old.replace(list + from, list + to);
      if (widened === old) throw new Error('terminals_role: unexpected definition');
      const create = widened.replace(/^create table "?terminals"?/i, `create table ${scratch}`);
      await sql.raw(create).execute(db);
      await sql.raw(`insert into ${scratch} select * from terminals`).execute(db);
      await sql`drop table terminals`.execute(db);
      await sql.raw(`alter table ${scratch} rename to terminals`).execute(db);
      for (const index of indexes.rows) await sql.raw(index.sql).execute(db);
      const broken = await sql`pragma foreign_key_check`.execute(db);
      if (broken.rows.length > 0) throw new Error('terminals: foreign keys broken by the rebuild');
      await sql`commit`.execute(db);
    } catch (err) {
      await sql`rollback`.execute(db);
      throw err;
    }
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}
