/** Migration `0013_customer_lookups`: its name is stored in every database that ran it; never edit it. */
import { defineMigration } from './kit';

export const migration0013 = defineMigration(async (db) => {
  // Each counter terminal's latest lookup of a customer (through the proxy), with the
  // customer's posting turn when it was read: the journal's snapshot when that terminal
  // posts for that customer moments later with nothing posted since (see readings.ts).
  await db.schema
    .createTable('customer_lookups')
    .addColumn('establishment_id', 'integer', (c) => c.notNull())
    .addColumn('terminal_id', 'text', (c) => c.notNull())
    .addColumn('customer_key', 'text', (c) => c.notNull())
    .addColumn('turn', 'bigint', (c) => c.notNull())
    .addColumn('reading', 'text', (c) => c.notNull())
    .addColumn('read_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('customer_lookups_pk', ['establishment_id', 'terminal_id'])
    .execute();
});
