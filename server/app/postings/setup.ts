/**
 * The postings journal for server/main.ts: the service over the app server's store, with
 * limits from JOURNAL_* variables.
 */
import type { Logger } from 'pino';
import { createJournalStore, type Store } from '../../store';
import { createPostingService, type PostingServiceOptions, type UpstreamCall } from './postings';

type Env = Readonly<Record<string, string | undefined>>;

function ms(env: Env, name: string): number | undefined {
  const v = env[name]?.trim();
  if (v === undefined || v === '') return undefined;
  if (!/^\d+$/.test(v)) throw new Error(`${name} must be a whole number of milliseconds`);
  return Number(v);
}

/** Journal limits read from JOURNAL_* variables (all optional; see the README). */
export function journalLimits(env: Env): Partial<PostingServiceOptions> {
  const days = env.JOURNAL_RETENTION_DAYS?.trim();
  if (days !== undefined && days !== '' && !/^\d+$/.test(days)) {
    throw new Error('JOURNAL_RETENTION_DAYS must be a whole number of days');
  }
  const limits: Partial<PostingServiceOptions> = {
    upstreamLimitMs: ms(env, 'JOURNAL_UPSTREAM_LIMIT_MS'),
    waitMs: ms(env, 'JOURNAL_WAIT_MS'),
    quietMs: ms(env, 'JOURNAL_QUIET_MS'),
    unknownHorizonMs: ms(env, 'JOURNAL_UNKNOWN_HORIZON_MS'),
    recheckMs: ms(env, 'JOURNAL_RECHECK_MS'),
    leaseMs: ms(env, 'JOURNAL_LEASE_MS'),
    retentionMs: days ? Number(days) * 24 * 3_600_000 : undefined,
  };
  return Object.fromEntries(Object.entries(limits).filter(([, v]) => v !== undefined));
}

/** Starts the journal's service (and its sweep) over the app server's store. */
export function startJournal(
  env: Env,
  store: Store,
  call: UpstreamCall,
  establishmentId: number,
  logger: Logger,
) {
  const service = createPostingService({
    store: createJournalStore(store),
    call,
    establishmentId,
    logger,
    now: () => store.now(),
    ...journalLimits(env),
  });
  service.start();
  return service;
}
