/**
 * The postings journal for server/main.ts: the service over the app server's store, with
 * limits from JOURNAL_* variables, and contingency (the upstream circuit, kept sales) from
 * CONTINGENCY_* variables.
 */
import type { Logger } from 'pino';
import { createJournalStore, type Store } from '../../../store';
import { createCircuit, type Circuit } from '../../upstream/circuit';
import { createPostingService, type PostingServiceOptions, type UpstreamCall } from './journal';
import { sealKeyFrom } from './sealed';

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

function whole(env: Env, name: string, min: number): number | undefined {
  const v = env[name]?.trim();
  if (v === undefined || v === '') return undefined;
  if (!/^\d+$/.test(v) || Number(v) < min) {
    throw new Error(`${name} must be a whole number of at least ${min}`);
  }
  return Number(v);
}

/** Contingency settings from CONTINGENCY_* variables (all optional; see the README). */
export function contingencyLimits(env: Env): {
  failures?: number;
  probeMs?: number;
  journal: Partial<PostingServiceOptions>;
} {
  const hours = env.CONTINGENCY_MAX_HOURS?.trim();
  if (hours !== undefined && hours !== '' && !/^\d+(\.\d+)?$/.test(hours)) {
    throw new Error('CONTINGENCY_MAX_HOURS must be a number of hours');
  }
  const journal: Partial<PostingServiceOptions> = {
    maxWaiting: whole(env, 'CONTINGENCY_MAX_WAITING', 0),
    maxWaitMs: hours ? Math.round(Number(hours) * 3_600_000) : undefined,
    deliveryConcurrency: whole(env, 'CONTINGENCY_DELIVERY_CONCURRENCY', 1),
  };
  return {
    failures: whole(env, 'CONTINGENCY_FAILURES', 1),
    probeMs: whole(env, 'CONTINGENCY_PROBE_MS', 100),
    journal: Object.fromEntries(Object.entries(journal).filter(([, v]) => v !== undefined)),
  };
}

/**
 * The upstream circuit: `probe` is a light request to the service (a customer lookup) sent
 * straight, not through the circuit's own accounting.
 */
export function startCircuit(env: Env, probe: UpstreamCall, logger: Logger): Circuit {
  const c = contingencyLimits(env);
  return createCircuit({
    failures: c.failures,
    probeMs: c.probeMs,
    logger,
    async probe() {
      const controller = new AbortController();
      const t = setTimeout(() => controller.abort(), 5_000);
      try {
        const res = await probe('buscar', { celular: '+5511900000000' }, controller.signal);
        await res.body?.cancel().catch(() => undefined);
        return res.status < 500;
      } finally {
        clearTimeout(t);
      }
    },
  });
}

/** Starts the journal's service (and its sweep) over the app server's store. */
export function startJournal(
  env: Env,
  store: Store,
  call: UpstreamCall,
  establishmentId: number,
  logger: Logger,
  contingency: { circuit: Circuit | null; appSecret: string } | null = null,
) {
  const service = createPostingService({
    store: createJournalStore(store),
    call,
    establishmentId,
    logger,
    now: () => store.now(),
    ...journalLimits(env),
    ...(contingency === null
      ? {}
      : {
          circuit: contingency.circuit,
          sealKey: sealKeyFrom(contingency.appSecret),
          ...contingencyLimits(env).journal,
        }),
  });
  service.start();
  return service;
}
