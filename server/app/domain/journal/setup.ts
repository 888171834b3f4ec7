/**
 * The postings journal for server/main.ts: the service over the app server's store, and the
 * upstream circuit of contingency. `startJournal` and `startCircuit` take options already read
 * by server/app/config.ts (JOURNAL_* and CONTINGENCY_* variables).
 */
import type { Logger } from 'pino';
import { createJournalStore, type Store } from '../../../store';
import { createCircuit, type Circuit } from '../../upstream/circuit';
import type { JournalObserver, PostingServiceOptions, UpstreamCall } from './context';
import { sealKeyFrom } from './sealed';
import { createPostingService, type PostingService } from './service';

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
  /** The journal's limits (config.ts: JOURNAL_*); defaults where absent. */
  limits?: Partial<PostingServiceOptions>;
  /** The metrics' observer of postings. */
  observer?: JournalObserver | null;
  /** Told each posting settled `lançado` (Vigilância). */
  onSettled?: ((key: string) => void) | null;
  /** Contingency: the circuit, APP_SECRET (seals kept sales) and its limits (config.ts: CONTINGENCY_*). */
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
    observer: deps.observer ?? null,
    onSettled: deps.onSettled ?? null,
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
