/** Migration `0006_reward_handover`: its name is stored in every database that ran it; never edit it. */
import { defineMigration } from './kit';

export const migration0006 = defineMigration(async (db) => {
  // A journal entry is a posting ('pontos') or a reward handed over ('premio', with the
  // reward and the customer's records of it read before sending, as JSON).
  await db.schema
    .alterTable('posting_journal')
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('pontos'))
    .execute();
  await db.schema.alterTable('posting_journal').addColumn('reward', 'text').execute();
});
