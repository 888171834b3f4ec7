/** Migration `0003_posting_turns`: its name is stored in every database that ran it; never edit it. */
import { defineMigration } from './kit';

export const migration0003 = defineMigration(async (db) => {
  // How many postings took each customer's slot: a posting that read the customer
  // before taking the slot knows no other posting of ours came in between.
  await db.schema
    .createTable('posting_turns')
    .addColumn('establishment_id', 'integer', (c) => c.notNull())
    .addColumn('customer_key', 'text', (c) => c.notNull())
    .addColumn('turn', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('posting_turns_pk', ['establishment_id', 'customer_key'])
    .execute();
});
