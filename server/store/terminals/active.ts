/**
 * Which terminal a credential belongs to, checked on every request and kept in memory while
 * nothing can have changed it; and the notice that forgets what was kept.
 */
import type { Store } from '../store';
import { COLUMNS, toTerminal, type Terminal } from './model';

/** last_seen_at is written at most this often per terminal (a write per request is wasteful). */
const SEEN_EVERY_MS = 60_000;

/**
 * PostgreSQL: how long a replica may go on trusting a terminal it checked, should the
 * notification of a revocation from elsewhere be lost (normally it arrives within
 * milliseconds, see `activeTerminal`).
 */
export const TERMINAL_TRUST_MS = 1_000;
/** NOTIFY channel: a terminal was revoked or re-enrolled (payload: its id). */
const TERMINALS_CHANNEL = 'terminals_changed';

/**
 * Terminals this process found active, by credential (`id.nonce`). Only found ones: a forged
 * credential never reaches the store (its HMAC fails first), a revoked one is read each time.
 */
interface TerminalCache {
  entries: Map<string, { terminal: Terminal; checkedAt: number }>;
  /** Bumped by every invalidation: a read begun before it is not kept. */
  generation: number;
  /** `store.changedElsewhere()` when the entries were read (SQLite). */
  version: number | null;
  /** PostgreSQL: entries are kept only while this store hears the other replicas. */
  listening: boolean;
  subscribing: boolean;
}
const caches = new WeakMap<Store, TerminalCache>();

function cacheOf(store: Store): TerminalCache {
  let cache = caches.get(store);
  if (cache === undefined) {
    cache = {
      entries: new Map(),
      generation: 0,
      version: null,
      listening: false,
      subscribing: false,
    };
    caches.set(store, cache);
  }
  if (store.engine === 'postgres' && !cache.listening && !cache.subscribing) {
    const c = cache;
    c.subscribing = true;
    store
      .listen(TERMINALS_CHANNEL, () => forget(c))
      .then(() => {
        forget(c);
        c.listening = true;
      })
      .catch(() => undefined) // not listening: nothing is kept, every request reads the store
      .finally(() => {
        c.subscribing = false;
      });
  }
  return cache;
}

function forget(cache: TerminalCache): void {
  cache.entries.clear();
  cache.generation++;
}

/** This process forgets every checked terminal, and tells the other replicas to. */
export async function terminalChanged(store: Store, id: number): Promise<void> {
  const cache = caches.get(store);
  if (cache !== undefined) forget(cache);
  // Without the notification (the database went away just after the commit), the other
  // replicas stop trusting the terminal within TERMINAL_TRUST_MS anyway.
  await store.notify(TERMINALS_CHANNEL, String(id)).catch(() => undefined);
}

/**
 * The enrolled, unrevoked terminal this credential belongs to; null otherwise.
 *
 * Checked on every request, so a terminal found active is kept in memory and not read again
 * while nothing can have changed it:
 * - this process's own revocations and enrollments forget every kept terminal at once;
 * - SQLite: a commit by any other process (`npm run terminal -- revoke`) changes the file's
 *   `data_version`, checked on each call, which forgets them too: a revocation is refused
 *   from the next request on, as when every request read the row;
 * - PostgreSQL (several replicas): a revocation NOTIFYs every replica, which forgets them on
 *   hearing it (milliseconds); a replica keeps a terminal at most TERMINAL_TRUST_MS in any
 *   case, and keeps none while it is not listening;
 * - a kept terminal is read again (and its `last_seen_at` written) every SEEN_EVERY_MS.
 */
export async function activeTerminal(
  store: Store,
  id: number,
  nonce: string,
): Promise<Terminal | null> {
  const cache = cacheOf(store);
  const version = store.changedElsewhere();
  if (version !== cache.version) {
    forget(cache);
    cache.version = version;
  }
  const key = `${id}.${nonce}`;
  const now = store.now();
  const kept = cache.entries.get(key);
  if (kept !== undefined) {
    const seen = kept.terminal.lastSeenAt!;
    const fresh =
      now >= seen &&
      now - seen < SEEN_EVERY_MS &&
      (store.engine === 'sqlite' ||
        (now >= kept.checkedAt && now - kept.checkedAt < TERMINAL_TRUST_MS));
    if (fresh) return kept.terminal;
    cache.entries.delete(key);
  }
  const generation = cache.generation;
  const row = await store.db
    .selectFrom('terminals')
    .select(COLUMNS)
    .where('id', '=', id)
    .where('credential_nonce', '=', nonce)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (row === undefined) return null;
  if (row.last_seen_at === null || now - row.last_seen_at >= SEEN_EVERY_MS) {
    await store.db
      .updateTable('terminals')
      .set({ last_seen_at: now })
      .where('id', '=', id)
      .execute();
    row.last_seen_at = now;
  }
  const terminal = Object.freeze(toTerminal(row));
  const keep = store.engine === 'sqlite' || cache.listening;
  if (keep && cache.generation === generation) {
    cache.entries.set(key, { terminal, checkedAt: now });
  }
  return terminal;
}
