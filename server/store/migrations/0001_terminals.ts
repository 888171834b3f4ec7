/** Migration `0001_terminals`: its name is stored in every database that ran it; never edit it. */
import { sql } from 'kysely';
import { defineMigration, createIndex } from './kit';

export const migration0001 = defineMigration(async (db, { autoId }) => {
  await autoId(db.schema.createTable('terminals'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('enrolled_at', 'bigint')
    .addColumn('credential_nonce', 'text')
    .addColumn('revoked_at', 'bigint')
    .addColumn('last_seen_at', 'bigint')
    .addCheckConstraint('terminals_role', sql`role in ('caixa', 'gerente', 'quiosque')`)
    .execute();
  await db.schema
    .createTable('enrollment_codes')
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    .addColumn('terminal_id', 'integer', (c) =>
      c.notNull().references('terminals.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await createIndex(db, 'enrollment_codes_terminal', 'enrollment_codes', ['terminal_id']);
  await db.schema
    .createTable('rate_counters')
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_counters_pk', ['key', 'window_start'])
    .execute();
  await createIndex(db, 'rate_counters_window', 'rate_counters', ['window_start']);
  await db.schema
    .createTable('lockouts')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('strikes', 'integer', (c) => c.notNull())
    .addColumn('locked_until', 'bigint')
    .execute();
});
