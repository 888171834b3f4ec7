// The bulk load of a big journal that the scale benches share: a store migrated by the app
// itself, then written raw in large transactions (no fsync, WAL) and analyzed once.

import Database from 'better-sqlite3';
import { openStore } from '../server/store';

export const DAY_MS = 86_400_000;

/** The journal's columns, in the order the benches' `values (…)` give them. */
export const INSERT_JOURNAL = `insert into posting_journal (key, establishment_id, terminal_id,
       request_id, fingerprint, customer_key, customer_name, amount, state, reason,
       answer_status, answer_body, snapshot, reading, points, lost_kind, created_at, sent_at,
       ended_at, updated_at, settled_at, owner, lease_until, next_check_at, body, secret, kind,
       reward)`;

/** The store at `dbPath` migrated by the app, opened raw for a bulk load. */
export async function openForBulkLoad(dbPath: string): Promise<Database.Database> {
  const store = await openStore({ sqlitePath: dbPath });
  await store.close();
  const db = new Database(dbPath);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  return db;
}

/**
 * Writes rows 0 to `entries` with `write(from, to)` (a transaction) 50,000 at a time, runs
 * `finish` (say, rebuilding indexes), analyzes and closes `db`: the milliseconds it took.
 */
export function loadInBatches(
  db: Database.Database,
  entries: number,
  write: (from: number, to: number) => void,
  finish: () => void = () => undefined,
): number {
  const t0 = performance.now();
  for (let i = 0; i < entries; i += 50_000) write(i, Math.min(entries, i + 50_000));
  finish();
  db.exec('analyze');
  db.close();
  return performance.now() - t0;
}
