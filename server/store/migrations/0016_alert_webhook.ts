/**
 * Migration `0016_alert_webhook`: its name is stored in every database that ran it; never edit
 * it. The outbound webhook's deliveries of Vigilância's alerts (alert-webhook.ts).
 */
import { defineMigration, createIndexes, lease, stamps } from './kit';

export const migration0016 = defineMigration(async (db, { autoId }) => {
  await autoId(db.schema.createTable('alert_webhook_deliveries'))
    .addColumn('establishment_id', 'integer', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('alert_id', 'integer')
    .addColumn('dedup', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('last_status', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .$call(lease)
    .$call(stamps)
    .addColumn('delivered_at', 'bigint')
    .execute();
  await createIndexes(db, 'alert_webhook_deliveries', {
    alert_webhook_deliveries_dedup: { columns: ['establishment_id', 'dedup'], unique: true },
    alert_webhook_deliveries_due: ['status', 'next_attempt_at'],
  });
});
