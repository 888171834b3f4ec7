/**
 * Reading the journal: one posting (with a bounded long poll while it is in flight), and the
 * shift ledger of a period. Both answer this process's settled verdicts before their final
 * write lands, and wait briefly for the points of a posting answered a moment ago.
 */
import type { JournalEntry, PostingState } from '../../../store';
import { UNSETTLED } from '../../../store';
import { sleep, type JournalDeps } from './context';

/** Most entries one ledger answer lists (a busy terminal posts a few hundred a day). */
export const LEDGER_LIMIT = 2000;
/** Longest the ledger waits for the points of postings answered a moment ago. */
const LEDGER_POINTS_WAIT_MS = 2_000;

export function isSettled(state: PostingState): boolean {
  return !UNSETTLED.includes(state);
}

/** Waits (bounded) until the entry leaves `enviando`/`verificando`, then answers it. */
export async function wait(
  deps: JournalDeps,
  key: string,
  ms = deps.options.waitMs,
  /** The entry as this process just journaled it (spares reading it back). */
  known: JournalEntry | null = null,
): Promise<JournalEntry | null> {
  const { local, store, events, now } = deps;
  const deadline = now() + Math.min(ms, deps.options.waitMs);
  const done = (e: JournalEntry | null) =>
    e === null || (e.state !== 'enviando' && e.state !== 'verificando');
  const current = async () => local.get(key) ?? (await store.get(key));
  let entry = local.get(key) ?? known ?? (await store.get(key));
  while (!done(entry) && now() < deadline) {
    // Woken by this process's writes; polls for other replicas' writes.
    await new Promise<void>((resolve) => {
      const t = setTimeout(finish, Math.min(250, Math.max(0, deadline - now())));
      function finish() {
        clearTimeout(t);
        events.off(key, finish);
        resolve();
      }
      events.on(key, finish);
    });
    entry = await current();
  }
  return entry;
}

/** Waits (briefly) for the points of a posting answered a moment ago. */
async function completed(deps: JournalDeps, key: string): Promise<void> {
  const p = deps.completing.get(key);
  if (p !== undefined) await Promise.race([p, sleep(LEDGER_POINTS_WAIT_MS)]);
}

/** One posting by its key (any case), its points included once known. */
export async function getEntry(deps: JournalDeps, raw: string): Promise<JournalEntry | null> {
  const key = raw.toLowerCase();
  await completed(deps, key);
  return deps.local.get(key) ?? (await deps.store.get(key));
}

/** One posting once it has left `enviando`/`verificando` (or after `ms`), its points included. */
export async function waitEntry(
  deps: JournalDeps,
  raw: string,
  ms?: number,
): Promise<JournalEntry | null> {
  const entry = await wait(deps, raw.toLowerCase(), ms);
  if (entry === null || !deps.completing.has(entry.key)) return entry;
  await completed(deps, entry.key);
  return deps.local.get(entry.key) ?? (await deps.store.get(entry.key));
}

export interface LedgerFilter {
  terminalId: string | null;
  from: number;
  to: number;
}

/**
 * The shift ledger: the period's entries, newest first, with every still-unsettled entry of
 * earlier days put on top (they need the cashier's attention).
 */
export async function ledger(
  deps: JournalDeps,
  filter: LedgerFilter,
): Promise<{ entries: JournalEntry[]; truncated: boolean }> {
  const { store, local, completing } = deps;
  const limit = LEDGER_LIMIT;
  const scope = { establishmentId: deps.options.establishmentId, terminalId: filter.terminalId };
  const [earlier, period] = await Promise.all([
    store.listUnsettled({ ...scope, before: filter.from, limit }),
    store.list({ ...scope, from: filter.from, to: filter.to, limit: limit + 1 }),
  ]);
  const truncated = period.length > limit;
  let shown = truncated ? period.slice(0, limit) : period;
  // A posting answered a moment ago may still be reading its points: wait for it, briefly
  // (then its row is read again: its final write may have landed meanwhile).
  const pending = new Map(
    shown.flatMap((e) => {
      const p = completing.get(e.key);
      return p === undefined ? [] : [[e.key, p] as const];
    }),
  );
  if (pending.size > 0) {
    await Promise.race([Promise.all(pending.values()), sleep(LEDGER_POINTS_WAIT_MS)]);
  }
  shown = await Promise.all(
    shown.map(
      async (e) => local.get(e.key) ?? (pending.has(e.key) ? ((await store.get(e.key)) ?? e) : e),
    ),
  );
  const open = shown.filter((e) => !isSettled(e.state));
  const settled = shown.filter((e) => isSettled(e.state));
  const entries = [...earlier.map((e) => local.get(e.key) ?? e), ...open, ...settled];
  return { entries, truncated };
}
