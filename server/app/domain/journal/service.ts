/**
 * The postings journal: exactly-once `pontuar` at the app server's edge.
 *
 * A posting (one sale, one `Idempotency-Key`) is journaled before it is sent, then runs
 * detached from the browser's connection:
 *
 *   enviando ──answer──────────────► lançado | recusado
 *      │ answer lost (reset, timeout, 5xx, unreadable)
 *      ▼
 *   verificando / desconhecido ──re-read the customer, compare with the snapshot──►
 *      lançado (one more purchase) | recusado (unchanged long enough) | desconhecido
 *
 * - One posting per establishment + customer at a time (a slot row in the store, so across
 *   replicas too): a snapshot of the customer taken just before sending can then only be
 *   changed by this posting (or by something outside this app, which makes it ambiguous).
 * - A lost answer is decided only after the upstream request has ended, never re-sent.
 *   "Unchanged" becomes "não lançado" only after a quiet period (a reset or 5xx: the upstream
 *   closed the exchange) or a long horizon (a timeout or a crash: the upstream may still be
 *   working on it); until then the entry is `verificando` / `desconhecido` and re-checked.
 * - Entries are leased by the process working on them; a process that dies (kill -9) leaves
 *   its entries with an expired lease, and any process's sweep takes them over and settles
 *   them the same way.
 *
 * Contingency (when a seal key is given): while the upstream circuit is open, or the service
 * cannot be read before sending, or the customer already has a kept sale, a sale is journaled
 * as `aguardando envio` (its body, and its attendant password sealed) and answered at once.
 * The deliverer sends kept sales oldest first, one per customer at a time, through the same
 * path (slot, snapshot, send, verification of a lost answer); a kept sale goes back to
 * `aguardando envio` only when it is known not to have been posted (never sent, or verified
 * unchanged), and a refusal makes it `precisa de atenção` for a manager (resend with a
 * corrected password, or discard). The password is erased once the sale is settled.
 *
 * The jobs, each in its file over one shared `deps` (context.ts): submit.ts (request checks,
 * the fast path, keeping), send.ts (one posting's slot, snapshot and send), verify.ts (lost
 * answers), deliver.ts (kept sales, contingency status, a manager's decision), sweep.ts (stale
 * entries, re-checks, pruning), ledger.ts (reading entries, long polls, the shift ledger).
 */
import type { JournalEntry, JournalStore, Store } from '../../../store';
import { createDeps, track, type JournalOptions, type PostingServiceOptions } from './context';
import {
  contingencyStatus,
  deliver,
  resolve,
  type ContingencyStatus,
  type Decision,
} from './deliver';
import { handOver, type HandoverResult, type HandoverSwitch } from './handover';
import { getEntry, ledger, waitEntry, type LedgerFilter } from './ledger';
import { lookupAnswered, lookupStarted, type LookupToken } from './lookups';
import { submit, type Submission, type SubmitResult } from './submit';
import { startSweep, stopSweep, sweep } from './sweep';

export type { JournalEntry } from '../../../store';

export type { HandoverResult } from './handover';

export type { LookupToken } from './lookups';

export interface PostingService {
  submit(s: Submission): Promise<SubmitResult>;
  /** A reward handed over (resgatar-premio), exactly once (see handover.ts). */
  handOver(s: Submission): Promise<HandoverResult>;
  /** Whether rewards may be handed over: the setting, and the service offers it (as far as known). */
  handoverAvailable(): boolean;
  get(key: string): Promise<JournalEntry | null>;
  /** Waits (bounded) until the entry leaves `enviando`/`verificando`, then answers it. */
  wait(key: string, ms?: number): Promise<JournalEntry | null>;
  list: JournalStore['list'];
  /**
   * The shift ledger: the period's entries, newest first, with every still-unsettled entry of
   * earlier days put on top (they need the cashier's attention).
   */
  ledger(filter: LedgerFilter): Promise<{ entries: JournalEntry[]; truncated: boolean }>;
  /** Runs one sweep now (stale entries, due re-checks, pruning). */
  sweep(): Promise<void>;
  /** Starts the periodic sweep (and the start-up recovery of stale entries). */
  start(): void;
  /** Stops the sweep and waits for the postings this process is running. */
  stop(): Promise<void>;
  /** Contingency as the counter shows it. */
  status(): Promise<ContingencyStatus>;
  /**
   * A counter terminal's lookup of a customer about to be sent to the service: what keeping
   * its answer needs (null: it is not kept). See lookups.ts.
   */
  lookupStarted(terminalId: string, body: unknown): Promise<LookupToken | null>;
  /**
   * The lookup's answer: kept as that terminal's lookup, in the background (stop() waits for
   * it; the promise is for tests, never rejects).
   */
  lookupAnswered(token: LookupToken, status: number, text: string): Promise<void>;
  /**
   * A manager's decision on a `precisa de atenção` sale: resend with the (corrected)
   * attendant password, or discard. Null when the sale is not in that state.
   */
  resolve(key: string, decision: Decision): Promise<JournalEntry | null>;
  /** Claims and starts deliveries of kept sales now (also run by the sweep). */
  deliver(): Promise<void>;
  /**
   * True when the journal writes to `store`: a posting's flushed journaling, before it is
   * sent, then flushes that store's earlier commits too (one WAL).
   */
  journalsIn(store: Store): boolean;
  readonly options: JournalOptions;
}

export function createPostingService(options: PostingServiceOptions): PostingService {
  const deps = createDeps(options);
  const handover: HandoverSwitch = { enabled: options.rewardHandover ?? true, missing: null };
  const unsubscribe = options.circuit?.onChange((open) => {
    if (!open) void deliver(deps);
  });
  return {
    submit: (s) => submit(deps, s),
    handOver: (s) => handOver(deps, handover, s),
    handoverAvailable: () => handover.enabled && handover.missing === null,
    get: (key) => getEntry(deps, key),
    wait: (key, ms) => waitEntry(deps, key, ms),
    list: (filter) => deps.store.list(filter),
    ledger: (filter) => ledger(deps, filter),
    sweep: () => sweep(deps),
    start: () => startSweep(deps),
    async stop() {
      deps.stopped = true;
      unsubscribe?.();
      // Postings still waiting for a read that tells their points keep them unknown.
      for (const timer of deps.pointTimers) clearTimeout(timer);
      deps.pointTimers.clear();
      await stopSweep(deps);
      await deps.delivery.running;
      await Promise.allSettled([...deps.running]);
    },
    deliver: () => deliver(deps),
    journalsIn: (other) => other === deps.store.store,
    status: () => contingencyStatus(deps),
    lookupStarted: (terminalId, body) => lookupStarted(deps, terminalId, body),
    lookupAnswered(token, status, text) {
      const kept = lookupAnswered(deps, token, status, text).catch((err: unknown) =>
        deps.log?.warn({ err: String(err) }, 'lookup not kept'),
      );
      track(deps, kept);
      return kept;
    },
    resolve: (key, decision) => resolve(deps, key, decision),
    options: deps.options,
  };
}
