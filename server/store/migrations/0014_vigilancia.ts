/** Migration `0014_vigilancia`: its name is stored in every database that ran it; never edit it. */
import { sql } from 'kysely';
import { defineMigration, createIndexes, stamps } from './kit';

export const migration0014 = defineMigration(async (db, { autoId }) => {
  // Vigilância: each rule's settings per store, the alerts (one per rule + evidence, by
  // the unique dedup), the nights re-evaluated; and the journal's indexes its rules read
  // by (one customer across stores, one counter's shift).
  await db.schema
    .createTable('vigilancia_rules')
    .addColumn('establishment_id', 'integer', (c) => c.notNull())
    .addColumn('rule', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('params', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_by', 'text')
    .addPrimaryKeyConstraint('vigilancia_rules_pk', ['establishment_id', 'rule'])
    .execute();
  await autoId(db.schema.createTable('vigilancia_alerts'))
    .addColumn('establishment_id', 'integer', (c) => c.notNull())
    .addColumn('rule', 'text', (c) => c.notNull())
    .addColumn('dedup', 'text', (c) => c.notNull())
    .addColumn('terminal_id', 'text')
    .addColumn('customer_key', 'text')
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint')
    .addColumn('posting_keys', 'text', (c) => c.notNull())
    .addColumn('evidence', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('decided_by', 'text')
    .addColumn('decided_at', 'bigint')
    .$call(stamps)
    .addCheckConstraint(
      'vigilancia_alerts_state',
      sql`state in ('aberto', 'reconhecido', 'descartado')`,
    )
    .execute();
  await createIndexes(db, 'vigilancia_alerts', {
    vigilancia_alerts_dedup: { columns: ['establishment_id', 'dedup'], unique: true },
    vigilancia_alerts_list: ['establishment_id', 'state', 'created_at'],
    vigilancia_alerts_customer: ['establishment_id', 'customer_key'],
  });
  await db.schema
    .createTable('vigilancia_nights')
    .addColumn('establishment_id', 'integer', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .addPrimaryKeyConstraint('vigilancia_nights_pk', ['establishment_id', 'day'])
    .execute();
  await createIndexes(db, 'posting_journal', {
    posting_journal_customer_time: ['customer_key', 'created_at'],
    posting_journal_terminal_time: ['terminal_id', 'created_at'],
  });
});
