/**
 * The postings journal's queries (tables `posting_journal` and `posting_slots`, migration
 * 0002). Every write that must not race is one conditional statement (insert-if-absent,
 * update-if-owner, update-if-lease-expired), atomic on both engines without row locks.
 */
import type { Store } from './store';
import { kyselyJournal } from './journal/kysely';
import { sqliteHotPath } from './journal/sqlite';
import type { JournalStore } from './journal/types';

export type { CustomerReading } from './lookups';
export * from './journal/types';

/** The journal: Kysely's queries, with SQLite's hot path prepared on its connection. */
export function createJournalStore(store: Store): JournalStore {
  const kysely = kyselyJournal(store);
  return store.sqlite === null ? kysely : { ...kysely, ...sqliteHotPath(store.sqlite) };
}
