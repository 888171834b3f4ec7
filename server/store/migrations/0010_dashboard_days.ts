/** Migration `0010_dashboard_days`: its name is stored in every database that ran it; never edit it. */
import { defineMigration, createIndex } from './kit';

export const migration0010 = defineMigration(async (db) => {
  // The dashboard's figures of past local days, computed once (see painel.ts); a day
  // is computed again when one of its entries changed after it (updated_at).
  await db.schema
    .createTable('dashboard_days')
    .addColumn('establishment_id', 'integer', (c) => c.notNull())
    .addColumn('offset_ms', 'bigint', (c) => c.notNull())
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('computed_at', 'bigint', (c) => c.notNull())
    .addColumn('groups', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('dashboard_days_pk', ['establishment_id', 'offset_ms', 'day'])
    .execute();
  await createIndex(db, 'posting_journal_updated', 'posting_journal', [
    'establishment_id',
    'updated_at',
  ]);
});
