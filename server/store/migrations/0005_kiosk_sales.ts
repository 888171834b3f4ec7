/** Migration `0005_kiosk_sales`: its name is stored in every database that ran it; never edit it. */
import { sql } from 'kysely';
import { defineMigration, createIndexes, stagedSaleTimes } from './kit';

export const migration0005 = defineMigration(async (db) => {
  const states = sql`state in ('aguardando', 'lançando', 'lançado', 'recusado', 'desconhecido', 'cancelado', 'expirado')`;
  await db.schema
    .createTable('kiosk_sales')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kiosk_id', 'integer', (c) =>
      c.notNull().references('terminals.id').onDelete('cascade'),
    )
    .addColumn('counter_id', 'integer', (c) => c.references('terminals.id').onDelete('cascade'))
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('items', 'text')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('message', 'text')
    .addColumn('points', 'integer')
    .addColumn('customer', 'text')
    .addColumn('secret', 'text')
    .$call(stagedSaleTimes)
    .addCheckConstraint('kiosk_sales_state', states)
    .execute();
  // One sale waiting for a customer per kiosk, whichever replica stages it.
  await createIndexes(db, 'kiosk_sales', {
    kiosk_sales_waiting: { columns: ['kiosk_id'], unique: true, where: { state: 'aguardando' } },
    kiosk_sales_kiosk: ['kiosk_id', 'state'],
    kiosk_sales_expiry: ['state', 'expires_at'],
  });
});
