/** Migration `0008_reconciliation`: its name is stored in every database that ran it; never edit it. */
import { sql } from 'kysely';
import { defineMigration, createIndexes, lease } from './kit';

export const migration0008 = defineMigration(async (db, { autoId }) => {
  // The conferência: a run re-reads the day's customers from the service and matches
  // the journal's postings with their history. One run of a day at a time, and one
  // nightly run of a day, whichever replica gets there first (partial unique indexes);
  // each customer's progress is a row, so a run resumes where it stopped.
  await autoId(db.schema.createTable('reconciliation_runs'))
    .addColumn('establishment_id', 'integer', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('offset_min', 'integer', (c) => c.notNull())
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .$call(lease)
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .addColumn('reported_at', 'bigint')
    .addColumn('customers', 'integer', (c) => c.notNull())
    .addColumn('done', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reads', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('postings', 'integer', (c) => c.notNull())
    .addColumn('confirmed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('findings', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('summary', 'text')
    .addCheckConstraint('reconciliation_runs_state', sql`state in ('em andamento', 'concluída')`)
    .addCheckConstraint('reconciliation_runs_origin', sql`origin in ('noite', 'gerente')`)
    .execute();
  const oneRunOfADay = { columns: ['establishment_id', 'day'], unique: true };
  await createIndexes(db, 'reconciliation_runs', {
    reconciliation_runs_running: { ...oneRunOfADay, where: { state: 'em andamento' } },
    reconciliation_runs_nightly: { ...oneRunOfADay, where: { origin: 'noite' } },
    reconciliation_runs_day: ['establishment_id', 'day', 'id'],
    reconciliation_runs_lease: ['state', 'lease_until'],
  });
  await db.schema
    .createTable('reconciliation_customers')
    .addColumn('run_id', 'integer', (c) =>
      c.notNull().references('reconciliation_runs.id').onDelete('cascade'),
    )
    .addColumn('customer_key', 'text', (c) => c.notNull())
    .addColumn('id_cliente', 'bigint')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('confirmed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('findings', 'text')
    .addColumn('read_at', 'bigint')
    .addPrimaryKeyConstraint('reconciliation_customers_pk', ['run_id', 'customer_key'])
    .execute();
});
