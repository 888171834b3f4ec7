/** Migration `0002_postings_journal`: its name is stored in every database that ran it; never edit it. */
import { sql } from 'kysely';
import { defineMigration, createIndex, createIndexes, lease } from './kit';

export const migration0002 = defineMigration(async (db) => {
  await db.schema
    .createTable('posting_journal')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('establishment_id', 'integer', (c) => c.notNull())
    .addColumn('terminal_id', 'text')
    .addColumn('request_id', 'text')
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('customer_key', 'text', (c) => c.notNull())
    .addColumn('customer_name', 'text')
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('answer_status', 'integer')
    .addColumn('answer_body', 'text')
    .addColumn('snapshot', 'text')
    .addColumn('reading', 'text')
    .addColumn('points', 'integer')
    .addColumn('lost_kind', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('sent_at', 'bigint')
    .addColumn('ended_at', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('settled_at', 'bigint')
    .$call(lease)
    .addColumn('next_check_at', 'bigint')
    .addCheckConstraint(
      'posting_journal_state',
      sql`state in ('enviando', 'lançado', 'recusado', 'verificando', 'desconhecido')`,
    )
    .execute();
  await createIndexes(db, 'posting_journal', {
    posting_journal_ledger: ['establishment_id', 'created_at'],
    posting_journal_state: ['state', 'lease_until'],
  });
  await db.schema
    .createTable('posting_slots')
    .addColumn('establishment_id', 'integer', (c) => c.notNull())
    .addColumn('customer_key', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('taken_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('posting_slots_pk', ['establishment_id', 'customer_key'])
    .execute();
  await createIndex(db, 'posting_slots_key', 'posting_slots', ['key']);
});
