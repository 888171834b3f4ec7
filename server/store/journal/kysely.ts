/** Every query of the journal built with Kysely: what PostgreSQL runs, and SQLite off its hot path. */
import type { Store } from '../store';
import { lookupQueries } from '../lookups';
import { kyselyEntries } from './entries';
import { kyselyQueue } from './queue';
import { fromRow } from './rows';
import { kyselySlots } from './slots';
import type { JournalStore } from './types';

export function kyselyJournal(store: Store): JournalStore {
  const db = store.db;
  const get = async (key: string) => {
    const row = await db
      .selectFrom('posting_journal')
      .selectAll()
      .where('key', '=', key)
      .executeTakeFirst();
    return row === undefined ? null : fromRow(row);
  };
  return {
    store,
    get,
    ...lookupQueries(store, fromRow),
    ...kyselyEntries(store, get),
    ...kyselySlots(store, get),
    ...kyselyQueue(store, get),
  };
}
