/** Migration `0012_reconciliation_trigger`: its name is stored in every database that ran it; never edit it. */
import { defineMigration } from './kit';

export const migration0012 = defineMigration(async (db) => {
  // What started a nightly run: 'on_time' (at CONFERENCIA_HORA), 'startup' (the first
  // check of a server started past that hour), 'late' (a later check, catching up).
  // Null: a manager's run, or a nightly one recorded before this column.
  await db.schema.alterTable('reconciliation_runs').addColumn('nightly_trigger', 'text').execute();
});
