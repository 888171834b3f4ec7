/**
 * The postings journal for server/main.ts: the service over the app server's store, and the
 * upstream circuit of contingency. `startJournal` and `startCircuit` take options already read;
 * `journalLimits` (JOURNAL_* variables) and `contingencyLimits` (CONTINGENCY_* variables) read
 * them from the environment until config.ts does.
 */
import type { Logger } from 'pino';
import { createJournalStore, type Store } from '../../../store';
import { createCircuit, type Circuit } from '../../upstream/circuit';
import type { PostingServiceOptions, UpstreamCall } from './context';
import { sealKeyFrom } from './sealed';
import { createPostingService, type PostingService } from './service';

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
    // REWARD_HANDOVER=0: rewards are never handed over at the counter.
    rewardHandover: env.REWARD_HANDOVER?.trim() === '0' ? false : undefined,
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
export function startCircuit(options: {
  probe: UpstreamCall;
  logger: Logger;
  /** Failures in a row that open it (see circuit.ts for the default). */
  failures?: number;
  /** Interval of the probe while open (see circuit.ts for the default). */
  probeMs?: number;
}): Circuit {
  const { probe } = options;
  return createCircuit({
    failures: options.failures,
    probeMs: options.probeMs,
    logger: options.logger,
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

export interface JournalSetup {
  store: Store;
  call: UpstreamCall;
  establishmentId: number;
  logger: Logger;
  /** The journal's limits (from `journalLimits`); defaults where absent. */
  limits?: Partial<PostingServiceOptions>;
  /** Contingency: the circuit, APP_SECRET (seals kept sales) and its limits (`contingencyLimits`). */
  contingency?: {
    circuit: Circuit | null;
    appSecret: string;
    limits?: Partial<PostingServiceOptions>;
  } | null;
}

/** Starts the journal's service (and its sweep) over the app server's store. */
export function startJournal(deps: JournalSetup): PostingService {
  const { store, contingency = null } = deps;
  const service = createPostingService({
    store: createJournalStore(store),
    call: deps.call,
    establishmentId: deps.establishmentId,
    logger: deps.logger,
    now: () => store.now(),
    ...deps.limits,
    ...(contingency === null
      ? {}
      : {
          circuit: contingency.circuit,
          sealKey: sealKeyFrom(contingency.appSecret),
          ...contingency.limits,
        }),
  });
  service.start();
  return service;
}
