/** Migration `0015_chain_stores`: its name is stored in every database that ran it; never edit it. */
import { sql } from 'kysely';
import { defineMigration, widenSqliteRoles, createIndex, stamps } from './kit';

export const migration0015 = defineMigration(async (db, { engine }) => {
  // A chain's stores from one deployment. The role `rede` (the chain's manager: reads
  // every store, posts nothing); each terminal and audit entry names its store's
  // establishment (null: rows from before, the configured default store's); the stores
  // besides the default one, each with its access-token sealed under APP_SECRET.
  if (engine === 'postgres') {
    const roles = sql.raw("role in ('caixa', 'gerente', 'quiosque', 'integracao', 'rede')");
    await sql`alter table terminals drop constraint terminals_role`.execute(db);
    await sql`alter table terminals add constraint terminals_role check (${roles})`.execute(db);
  } else {
    await widenSqliteRoles(
      db,
      "'quiosque', 'integracao')",
      "'quiosque', 'integracao', 'rede')",
      'terminals_v15',
    );
  }
  await db.schema.alterTable('terminals').addColumn('establishment_id', 'integer').execute();
  await createIndex(db, 'terminals_establishment', 'terminals', ['establishment_id']);
  await db.schema.alterTable('audit_log').addColumn('establishment_id', 'integer').execute();
  await db.schema
    .createTable('stores')
    .addColumn('establishment_id', 'integer', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('token_sealed', 'text', (c) => c.notNull())
    .$call(stamps)
    .execute();
});
