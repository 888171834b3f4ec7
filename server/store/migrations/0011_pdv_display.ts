/** Migration `0011_pdv_display`: its name is stored in every database that ran it; never edit it. */
import { defineMigration, createIndex } from './kit';

export const migration0011 = defineMigration(async (db) => {
  // A counter terminal whose paired kiosk faces the customer: every PDV sale for that
  // counter is staged there by itself (null: the cashier passes one with F7).
  await db.schema
    .alterTable('terminals')
    .addColumn('pdv_kiosk_id', 'integer', (c) => c.references('terminals.id'))
    .execute();
  // The dashboard's identification rate: a period's PDV sales grouped by day, counter
  // and state, read from this index alone (covering).
  await createIndex(db, 'pdv_sales_created', 'pdv_sales', ['created_at', 'counter_id', 'state']);
});
