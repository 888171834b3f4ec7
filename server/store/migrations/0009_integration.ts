/** Migration `0009_integration`: its name is stored in every database that ran it; never edit it. */
import { sql } from 'kysely';
import { defineMigration, widenSqliteRoles, createIndexes, stagedSaleTimes } from './kit';

export const migration0009 = defineMigration(async (db, { engine }) => {
  // The store's PDV as a terminal of role `integracao`, paired with the counter terminal
  // it rings up for (`counter_id`); its bearer token's SHA-256 is the credential nonce.
  const roles = sql.raw("role in ('caixa', 'gerente', 'quiosque', 'integracao')");
  if (engine === 'postgres') {
    await sql`alter table terminals drop constraint terminals_role`.execute(db);
    await sql`alter table terminals add constraint terminals_role check (${roles})`.execute(db);
  } else {
    await widenSqliteRoles(db, "'quiosque')", "'quiosque', 'integracao')", 'terminals_v9');
  }
  await db.schema
    .alterTable('terminals')
    .addColumn('counter_id', 'integer', (c) => c.references('terminals.id'))
    .execute();
  const states = sql.raw(
    "state in ('aguardando', 'no quiosque', 'lançando', 'lançada', 'recusada', " +
      "'cancelada', 'não identificada')",
  );
  await db.schema
    .createTable('pdv_sales')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('terminal_id', 'integer', (c) =>
      c.notNull().references('terminals.id').onDelete('cascade'),
    )
    .addColumn('counter_id', 'integer', (c) => c.references('terminals.id').onDelete('set null'))
    .addColumn('sale_id', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('items', 'text')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('posting_key', 'text')
    .addColumn('auto', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('points', 'integer')
    .addColumn('customer', 'text')
    .addColumn('rewards', 'text')
    .addColumn('message', 'text')
    .$call(stagedSaleTimes)
    .addCheckConstraint('pdv_sales_state', states)
    .execute();
  // id_venda is the idempotency key per integration terminal.
  await createIndexes(db, 'pdv_sales', {
    pdv_sales_sale: { columns: ['terminal_id', 'sale_id'], unique: true },
    pdv_sales_counter: ['counter_id', 'created_at'],
    pdv_sales_state: ['state', 'expires_at'],
    pdv_sales_posting: ['posting_key'],
  });
});
