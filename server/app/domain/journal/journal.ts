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
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import { firstError, validatePontuar } from '../../../sandbox/rules/validation';
import { backoffMs } from './backoff';
import { postingFingerprint } from './fingerprint';
import { seal, unseal, type SealKey } from './sealed';
import type {
  CustomerReading,
  EntryPatch,
  JournalEntry,
  JournalStore,
  LostKind,
  NewEntry,
  PostingState,
  Store,
} from '../../../store';
import { UNSETTLED } from '../../../store';
import type { Circuit } from '../../upstream/circuit';
import type { UpstreamCall } from '../../upstream/client';

export type { UpstreamCall };

export interface PostingServiceOptions {
  store: JournalStore;
  /** Sends one request to the upstream service (tokens and establishment already applied). */
  call: UpstreamCall;
  establishmentId: number;
  logger?: Logger;
  now?: () => number;
  /** This process in the store's leases. Default: a random id. */
  instanceId?: string;
  /** Limit of one upstream pontuar request. Default 60 s. */
  upstreamLimitMs?: number;
  /** Limit of one customer read (snapshot, verification). Default 10 s. */
  readLimitMs?: number;
  /** Longest long poll of a POST or GET. Default 8 s. */
  waitMs?: number;
  /** How long a posting waits for another posting of the same customer. Default 30 s. */
  slotWaitMs?: number;
  /** Unchanged this long after a reset / 5xx ended: "não lançado". Default 5 s. */
  quietMs?: number;
  /** Unchanged this long after a timeout / crash: "não lançado". Default 5 min. */
  unknownHorizonMs?: number;
  /** Interval of re-checks of a `desconhecido` entry. Default 15 s. */
  recheckMs?: number;
  /** Lease of an entry being worked on (renewed while working). Default 15 s. */
  leaseMs?: number;
  /** Interval of the sweep (stale entries, re-checks, pruning). Default 1 s. */
  sweepMs?: number;
  /** Entries older than this are pruned. Default 90 days. */
  retentionMs?: number;
  /** Whether the upstream is reachable (see circuit.ts); without it, always reachable. */
  circuit?: Pick<Circuit, 'isOpen' | 'onChange' | 'openedAt'> | null;
  /** Seals kept sales' passwords (from APP_SECRET); without it there is no contingency. */
  sealKey?: SealKey | null;
  /** Most kept sales waiting at once. Default 500. */
  maxWaiting?: number;
  /** Longest a kept sale may have waited before no more are kept. Default 24 h. */
  maxWaitMs?: number;
  /** Kept sales delivered at once (each of another customer). Default 4. */
  deliveryConcurrency?: number;
  /** Tries of one kept sale before it needs a manager's attention. Default 8. */
  maxDeliveryAttempts?: number;
  /** First wait before a kept sale is tried again (doubling, with jitter). Default 2 s. */
  retryBaseMs?: number;
  /** Longest wait between two tries of a kept sale or two failed re-reads. Default 5 min. */
  retryCapMs?: number;
  /** A lost answer that still cannot be read this long after it ended is given up. Default 24 h. */
  verifyGiveUpMs?: number;
  /** The jitter's source (tests make it fixed). Default Math.random. */
  random?: () => number;
}

/** What the counter shows of contingency (`GET /api/contingencia`). */
export interface ContingencyStatus {
  /** The circuit is open: the service is unreachable, sales are kept. */
  open: boolean;
  openedAt: number | null;
  waiting: number;
  attention: number;
  oldestWaitingAt: number | null;
  maxWaiting: number;
  maxWaitMs: number;
  /** Whether a new sale could be kept now (false past a limit, or no contingency). */
  accepting: boolean;
}

export interface Submission {
  key: string | undefined;
  terminalId: string | null;
  requestId: string | null;
  body: unknown;
}

export type SubmitResult =
  | { kind: 'invalid'; message: string; errors?: Record<string, string[]> }
  /** The service is unreachable and no more sales may be kept (a limit): nothing journaled. */
  | { kind: 'full'; message: string }
  /** The service refused the customer's read before anything was sent: its own answer. */
  | { kind: 'refused'; status: number; body: string }
  | { kind: 'entry'; entry: JournalEntry };

export const postingMessages = {
  noKey:
    'Este lançamento não tem identificador (Idempotency-Key). Recarregue a página e lance de novo.',
  badKey: 'O identificador do lançamento (Idempotency-Key) deve ser um UUID.',
  keyReused:
    'Este identificador já foi usado para outra venda. Recarregue a página e lance de novo.',
  noCustomer: 'Informe o celular do cliente.',
  busy: 'Outro lançamento deste cliente ainda está em andamento. Nada foi lançado: aguarde e lance de novo.',
  readFailed:
    'O serviço de fidelidade não respondeu antes do envio. Nada foi lançado: lance de novo.',
  notSentRestart:
    'O servidor reiniciou antes de enviar esta venda. Nada foi lançado: lance de novo.',
  verifiedPosted:
    'A resposta do serviço se perdeu, mas o cadastro do cliente mostra a compra: lançado.',
  verifiedNotPosted:
    'A resposta do serviço se perdeu e o cadastro do cliente não mostra a compra: não lançado. Pode lançar de novo.',
  verifying: 'A resposta do serviço se perdeu. Conferindo no cadastro do cliente…',
  unknown:
    'Ainda não se sabe se a compra foi registrada. Não lance de novo: o servidor confere sozinho em instantes.',
  unknownReadFailed:
    'Não foi possível conferir o cadastro do cliente. Não lance de novo: o servidor confere de novo em instantes.',
  ambiguous:
    'O cadastro do cliente mudou por outra compra ao mesmo tempo; não dá para saber se esta foi registrada. Confira o histórico do cliente antes de lançar de novo.',
  kept: 'Guardado: será lançado quando o serviço voltar.',
  keptRequeued: 'A entrega foi interrompida antes de chegar ao serviço: será enviada de novo.',
  keptVerifiedNotPosted:
    'A resposta do serviço se perdeu e o cadastro do cliente não mostra a compra: será enviada de novo.',
  keptAmbiguous:
    'O cadastro do cliente mudou por outra compra durante a entrega; não dá para saber se esta foi registrada. Um gerente confere o histórico do cliente e reenvia ou descarta.',
  keptNoPassword:
    'A senha do atendente desta venda não pôde ser lida. Um gerente informa a senha e reenvia.',
  discarded: 'Descartada por um gerente: nada foi lançado.',
  gaveUp: (attempts: number, last: string | null) =>
    `Não foi entregue depois de ${attempts} tentativas${last ? ` (a última: ${last})` : ''}. Um gerente confere e reenvia ou descarta.`,
  keptRefused: (message: string | null) =>
    `O serviço recusou esta venda guardada${message ? `: ${message}` : '.'} Um gerente corrige e reenvia, ou descarta.`,
  verifyGaveUp:
    'Não foi possível conferir no cadastro do cliente se a compra foi registrada. Confira o histórico do cliente antes de lançar de novo.',
  fullCount: (n: number) =>
    `Serviço indisponível e o limite de ${n} vendas guardadas foi atingido: esta venda não foi guardada nem lançada. Lance de novo quando o serviço voltar.`,
  fullAge: (hours: number) =>
    `Serviço indisponível há mais de ${hours} h (o limite das vendas guardadas): esta venda não foi guardada nem lançada. Lance de novo quando o serviço voltar.`,
} as const;

/** Most entries one ledger answer lists (a busy terminal posts a few hundred a day). */
export const LEDGER_LIMIT = 2000;
/** Longest the ledger waits for the points of postings answered a moment ago. */
const LEDGER_POINTS_WAIT_MS = 2_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

class UpstreamTimeout extends Error {
  override name = 'UpstreamTimeout';
}

/** Reads the body of a `clientes/buscar` answer into what the journal compares. */
export function readCustomer(data: unknown): CustomerReading {
  const d = (data ?? {}) as Record<string, unknown>;
  const wallet = (d.carteira ?? {}) as Record<string, unknown>;
  const history = Array.isArray(wallet.historico) ? (wallet.historico as unknown[]) : [];
  const credit = history.find((h) => (h as { tipo?: unknown } | null)?.tipo === 'credito') as
    { pontos?: unknown } | undefined;
  const int = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  return {
    exists: true,
    id_cliente: typeof d.id_cliente === 'number' ? d.id_cliente : null,
    nome: typeof d.nome === 'string' ? d.nome : null,
    compras: int(d.compras),
    ultima_compra: typeof d.ultima_compra === 'string' ? d.ultima_compra : null,
    saldo: int(wallet.saldo),
    saldo_carencia: int(wallet.saldo_carencia),
    ultimo_credito: typeof credit?.pontos === 'number' ? credit.pontos : null,
  };
}

export const ABSENT: CustomerReading = {
  exists: false,
  id_cliente: null,
  nome: null,
  compras: 0,
  ultima_compra: null,
  saldo: 0,
  saldo_carencia: 0,
  ultimo_credito: null,
};

/**
 * Compares the customer after a lost answer with the snapshot taken just before sending.
 * Only this app's one in-flight posting per customer can change it, so exactly one more
 * purchase is this posting; none is "not yet"; anything else is ambiguous.
 */
export function compareReadings(
  before: CustomerReading,
  after: CustomerReading,
): 'posted' | 'unchanged' | 'ambiguous' {
  if (!after.exists) return before.exists ? 'ambiguous' : 'unchanged';
  const delta = after.compras - (before.exists ? before.compras : 0);
  if (delta === 0 && after.ultima_compra === before.ultima_compra) return 'unchanged';
  if (delta === 1 && after.ultima_compra !== null) return 'posted';
  return 'ambiguous';
}

/** True when the upstream answer is a trustworthy success of pontuar. */
function postedAnswer(status: number, text: string): Record<string, unknown> | null {
  if (status < 200 || status > 299) return null;
  try {
    const body = JSON.parse(text) as { success?: unknown; data?: Record<string, unknown> };
    if (body.success === true && typeof body.data?.id_ponto === 'number') return body.data;
  } catch {
    return null;
  }
  return null;
}

/** What a read of the customer came to. */
type ReadOutcome =
  | { kind: 'read'; reading: CustomerReading }
  /** The service answered and refused the read (a 4xx but 404 and 408): an answer, not an outage. */
  | { kind: 'refused'; status: number; text: string; message: string | null }
  /** No answer, a timeout, a 5xx or an unreadable body: the service may be down. */
  | { kind: 'failed' };

/** The `message` of a service's envelope, or null. */
function envelopeMessage(text: string): string | null {
  try {
    const m = (JSON.parse(text) as { message?: unknown } | null)?.message;
    return typeof m === 'string' ? m : null;
  } catch {
    return null;
  }
}

function refusedAnswer(status: number): boolean {
  // The service refuses before committing: validation, auth, not found, conflict, rate limit.
  return status >= 400 && status <= 499 && status !== 408;
}

export interface PostingService {
  submit(s: Submission): Promise<SubmitResult>;
  get(key: string): Promise<JournalEntry | null>;
  /** Waits (bounded) until the entry leaves `enviando`/`verificando`, then answers it. */
  wait(key: string, ms?: number): Promise<JournalEntry | null>;
  list: JournalStore['list'];
  /**
   * The shift ledger: the period's entries, newest first, with every still-unsettled entry of
   * earlier days put on top (they need the cashier's attention).
   */
  ledger(filter: { terminalId: string | null; from: number; to: number }): Promise<{
    entries: JournalEntry[];
    truncated: boolean;
  }>;
  /** Runs one sweep now (stale entries, due re-checks, pruning). */
  sweep(): Promise<void>;
  /** Starts the periodic sweep (and the start-up recovery of stale entries). */
  start(): void;
  /** Stops the sweep and waits for the postings this process is running. */
  stop(): Promise<void>;
  /** Contingency as the counter shows it. */
  status(): Promise<ContingencyStatus>;
  /**
   * A manager's decision on a `precisa de atenção` sale: resend with the (corrected)
   * attendant password, or discard. Null when the sale is not in that state.
   */
  resolve(
    key: string,
    decision: { resend: { password: string } } | { discard: true },
  ): Promise<JournalEntry | null>;
  /** Claims and starts deliveries of kept sales now (also run by the sweep). */
  deliver(): Promise<void>;
  /**
   * True when the journal writes to `store`: a posting's flushed journaling, before it is
   * sent, then flushes that store's earlier commits too (one WAL).
   */
  journalsIn(store: Store): boolean;
  readonly options: Required<
    Omit<PostingServiceOptions, 'logger' | 'store' | 'call' | 'circuit' | 'sealKey' | 'random'>
  >;
}

export function createPostingService(o: PostingServiceOptions): PostingService {
  const opts = {
    establishmentId: o.establishmentId,
    now: o.now ?? Date.now,
    instanceId: o.instanceId ?? randomUUID(),
    upstreamLimitMs: o.upstreamLimitMs ?? 60_000,
    readLimitMs: o.readLimitMs ?? 10_000,
    waitMs: o.waitMs ?? 8_000,
    slotWaitMs: o.slotWaitMs ?? 30_000,
    quietMs: o.quietMs ?? 5_000,
    unknownHorizonMs: o.unknownHorizonMs ?? 5 * 60_000,
    recheckMs: o.recheckMs ?? 15_000,
    leaseMs: o.leaseMs ?? 15_000,
    sweepMs: o.sweepMs ?? 1_000,
    retentionMs: o.retentionMs ?? 90 * 24 * 60 * 60_000,
    maxWaiting: o.maxWaiting ?? 500,
    maxWaitMs: o.maxWaitMs ?? 24 * 3_600_000,
    deliveryConcurrency: Math.max(1, o.deliveryConcurrency ?? 4),
    maxDeliveryAttempts: Math.max(1, o.maxDeliveryAttempts ?? 8),
    retryBaseMs: Math.max(1, o.retryBaseMs ?? 2_000),
    retryCapMs: Math.max(1, o.retryCapMs ?? 5 * 60_000),
    verifyGiveUpMs: o.verifyGiveUpMs ?? 24 * 3_600_000,
  };
  const random = o.random ?? Math.random;
  const retryDelay = (attempt: number) =>
    backoffMs(attempt, opts.retryBaseMs, opts.retryCapMs, random);
  const sealKey = o.sealKey ?? null;
  const circuitOpen = () => o.circuit?.isOpen() ?? false;
  let delivering = 0;
  let stopped = false;
  const { store } = o;
  const now = opts.now;
  const me = opts.instanceId;
  const log = o.logger;
  const events = new EventEmitter();
  events.setMaxListeners(0);
  const running = new Set<Promise<void>>();
  /** Entries this process is working on: its own sweep leaves them alone. */
  const working = new Set<string>();
  /** Entries settled by this process whose final write is still under way. */
  const local = new Map<string, JournalEntry>();
  /** Settled entries whose points are still being read (the ledger waits for them, briefly). */
  const completing = new Map<string, Promise<void>>();
  let timer: ReturnType<typeof setInterval> | undefined;
  let sweeping: Promise<void> | null = null;
  let lastPrune = 0;

  function track(p: Promise<void>): void {
    running.add(p);
    void p.finally(() => running.delete(p));
  }

  async function write(key: string, patch: EntryPatch): Promise<boolean> {
    const ok = await store.update(key, me, patch, now());
    events.emit(key);
    return ok;
  }

  /**
   * Settles an entry: its final state and the release of its customer's slot in one write.
   * Waiters in this process get the final entry at once, before that write is durable: the
   * verdict is already known, and if this process dies before the write, the sweep reaches the
   * same verdict from the snapshot.
   */
  async function settle(
    entry: JournalEntry,
    state: 'lançado' | 'recusado' | 'desconhecido' | 'precisa de atenção',
    patch: EntryPatch,
    /** More of the final patch, learned after the answer has left (the slot still held). */
    after?: () => Promise<EntryPatch>,
  ): Promise<void> {
    const t = now();
    // A kept sale's password goes with its settlement (a manager gives it again to resend).
    const final: EntryPatch = {
      ...patch,
      state,
      settledAt: state === 'precisa de atenção' ? null : t,
      nextCheckAt: null,
      leaseUntil: 0,
      ...(entry.body !== null || entry.secret !== null ? { secret: null } : {}),
    };
    local.set(entry.key, { ...entry, ...final, updatedAt: t, owner: me });
    // The answer leaves first: on SQLite the durable commit blocks this thread while it syncs.
    const answered = new Promise<void>((resolve) => setImmediate(resolve));
    const finishing =
      after === undefined
        ? answered
        : answered.then(after).then(
            (more) => {
              Object.assign(final, more);
              local.set(entry.key, { ...entry, ...final, updatedAt: t, owner: me });
            },
            () => undefined,
          );
    if (after !== undefined) completing.set(entry.key, finishing);
    events.emit(entry.key);
    await finishing;
    try {
      // Not flushed before it returns: a verdict lost to a power cut is reached again from the
      // snapshot (the entry is still sent and unsettled in the store), and the next flushed
      // commit (every posting's journaling before it is sent) flushes it anyway.
      await store.finish(entry.key, me, final, t, { durable: false });
    } finally {
      local.delete(entry.key);
      completing.delete(entry.key);
      events.emit(entry.key);
    }
    log?.info({ key: entry.key, state, requestId: entry.requestId }, 'posting settled');
  }

  /**
   * A kept sale known not to have been posted goes back to the queue (its slot freed), to be
   * delivered again in its turn.
   */
  async function requeue(entry: JournalEntry, reason: string): Promise<void> {
    // Each claim counts one try: past the cap, a manager decides (nothing was posted).
    if (entry.attempts >= opts.maxDeliveryAttempts) {
      await settle(entry, 'precisa de atenção', {
        reason: postingMessages.gaveUp(entry.attempts, reason),
      });
      return;
    }
    const at = now() + retryDelay(entry.attempts);
    await store.finish(
      entry.key,
      me,
      {
        state: 'aguardando envio',
        reason,
        leaseUntil: 0,
        // Not claimed again before then (the queue keeps its order per customer).
        nextCheckAt: at,
        sentAt: null,
        snapshot: null,
      },
      now(),
    );
    events.emit(entry.key);
    log?.info(
      { key: entry.key, reason, attempt: entry.attempts, retryInMs: at - now() },
      'kept sale back in the queue',
    );
  }

  /** Why no more sales may be kept now, or null when one may. */
  async function keepRefusal(): Promise<string | null> {
    const stats = await store.queueStats(opts.establishmentId);
    if (stats.waiting >= opts.maxWaiting) return postingMessages.fullCount(opts.maxWaiting);
    if (stats.oldestWaitingAt !== null && now() - stats.oldestWaitingAt > opts.maxWaitMs) {
      return postingMessages.fullAge(Math.round(opts.maxWaitMs / 3_600_000));
    }
    return null;
  }

  /** The body to keep (no password) and the sealed password. */
  function keepable(key: string, body: Record<string, unknown>) {
    const { senha_atendente: password, ...rest } = body;
    return {
      body: rest,
      secret: seal(sealKey!, typeof password === 'string' ? password : '', key),
    };
  }

  /** Journals a new sale as kept; the existing entry when the key was journaled meanwhile. */
  async function keep(
    fresh: NewEntry,
    body: Record<string, unknown>,
  ): Promise<{ full: string } | { entry: JournalEntry | null }> {
    const refusal = await keepRefusal();
    if (refusal !== null) return { full: refusal };
    const created = await store.enqueue({
      ...fresh,
      ...keepable(fresh.key, body),
      reason: postingMessages.kept,
    });
    if (!created.created) return { entry: created.existing };
    log?.info({ key: fresh.key, requestId: fresh.requestId }, 'sale kept for later delivery');
    if (!circuitOpen()) void deliver();
    return { entry: null };
  }

  /** Parks an unsettled entry for the sweep: nobody holds it until `at`. */
  async function park(
    entry: JournalEntry,
    state: 'verificando' | 'desconhecido',
    at: number,
    patch: EntryPatch,
  ): Promise<void> {
    await write(entry.key, { ...patch, state, nextCheckAt: at, leaseUntil: at - 1 });
  }

  async function withLimit<T>(ms: number, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    let t: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      t = setTimeout(() => {
        controller.abort();
        reject(new UpstreamTimeout());
      }, ms);
    });
    deadline.catch(() => undefined);
    try {
      return await Promise.race([run(controller.signal), deadline]);
    } finally {
      clearTimeout(t);
    }
  }

  /** Reads the customer: by id once known, else by phone, then by CPF when the phone is unknown. */
  async function readOutcome(
    customerKey: string,
    snapshot: CustomerReading | null,
    cpf: string | null,
  ): Promise<ReadOutcome> {
    const once = async (key: Record<string, unknown>): Promise<ReadOutcome | 'absent'> =>
      withLimit(opts.readLimitMs, async (signal): Promise<ReadOutcome | 'absent'> => {
        const res = await o.call('buscar', key, signal);
        const text = await res.text();
        if (res.status === 404) return 'absent';
        if (refusedAnswer(res.status)) {
          return { kind: 'refused', status: res.status, text, message: envelopeMessage(text) };
        }
        if (res.status !== 200) return { kind: 'failed' };
        try {
          const reading = readCustomer((JSON.parse(text) as { data?: unknown }).data);
          return { kind: 'read', reading };
        } catch {
          return { kind: 'failed' };
        }
      }).catch((): ReadOutcome => ({ kind: 'failed' }));
    const absent: ReadOutcome = { kind: 'read', reading: ABSENT };
    const byId = snapshot?.id_cliente ?? null;
    const first = await once(byId !== null ? { id_cliente: byId } : { celular: customerKey });
    if (first !== 'absent') return first;
    if (byId === null && cpf !== null) {
      const second = await once({ cpf });
      return second === 'absent' ? absent : second;
    }
    return absent;
  }

  /** Reads the customer; null when there is no reading (no answer, or a refusal). */
  async function readFor(
    customerKey: string,
    snapshot: CustomerReading | null,
    cpf: string | null,
  ): Promise<CustomerReading | null> {
    const outcome = await readOutcome(customerKey, snapshot, cpf);
    return outcome.kind === 'read' ? outcome.reading : null;
  }

  /** Keeps the lease of an entry this process works on while `work` runs. */
  async function leased<T>(key: string, work: () => Promise<T>): Promise<T> {
    working.add(key);
    const renew = setInterval(
      () =>
        void store
          .update(key, me, { leaseUntil: now() + opts.leaseMs }, now())
          .catch(() => undefined),
      Math.max(50, Math.floor(opts.leaseMs / 3)),
    );
    try {
      return await work();
    } finally {
      clearInterval(renew);
      working.delete(key);
    }
  }

  /** Decides a lost answer by re-reading the customer. */
  async function verify(entry: JournalEntry, kind: LostKind, endedAt: number): Promise<void> {
    const snapshot = entry.snapshot ?? ABSENT;
    const reading = await readFor(entry.customerKey, entry.snapshot, null);
    const t = now();
    const horizon = kind === 'reset' ? opts.quietMs : opts.unknownHorizonMs;
    const waiting: 'verificando' | 'desconhecido' =
      kind === 'reset' ? 'verificando' : 'desconhecido';
    if (reading === null) {
      if (t - endedAt >= opts.verifyGiveUpMs) {
        // Never readable for that long: a person looks at the customer's history.
        await settle(entry, entry.body !== null ? 'precisa de atenção' : 'desconhecido', {
          reason: postingMessages.verifyGaveUp,
          lostKind: kind,
          endedAt,
        });
        return;
      }
      // Re-read later, less often the longer the service stays unreadable.
      const first = Math.min(opts.recheckMs, Math.max(opts.quietMs, 1));
      const delay = Math.max(
        first,
        backoffMs(2, Math.min(t - endedAt, opts.retryCapMs), opts.retryCapMs, random),
      );
      await park(entry, 'desconhecido', t + delay, {
        reason: postingMessages.unknownReadFailed,
        lostKind: kind,
        endedAt,
      });
      return;
    }
    const verdict = compareReadings(snapshot, reading);
    if (verdict === 'posted') {
      await settle(entry, 'lançado', {
        reason: postingMessages.verifiedPosted,
        reading,
        points: reading.ultimo_credito,
        customerName: reading.nome,
        lostKind: kind,
        endedAt,
      });
    } else if (verdict === 'ambiguous' && entry.body !== null) {
      await settle(entry, 'precisa de atenção', {
        reason: postingMessages.keptAmbiguous,
        reading,
        lostKind: kind,
        endedAt,
      });
    } else if (verdict === 'ambiguous') {
      await settle(entry, 'desconhecido', {
        reason: postingMessages.ambiguous,
        reading,
        lostKind: kind,
        endedAt,
      });
    } else if (t - endedAt >= horizon && entry.body !== null) {
      // Verified not posted: the one case a kept sale is sent again.
      await requeue(entry, postingMessages.keptVerifiedNotPosted);
    } else if (t - endedAt >= horizon) {
      await settle(entry, 'recusado', {
        reason: postingMessages.verifiedNotPosted,
        reading,
        lostKind: kind,
        endedAt,
      });
    } else {
      const next = Math.min(
        t + (kind === 'reset' ? opts.quietMs : opts.recheckMs),
        endedAt + horizon,
      );
      await park(entry, waiting, next, {
        reason: waiting === 'verificando' ? postingMessages.verifying : postingMessages.unknown,
        reading,
        lostKind: kind,
        endedAt,
      });
    }
  }

  /**
   * The service refused to read the customer before anything was sent (the data it was given
   * is wrong, or it refuses this client): a new sale is refused with the service's own answer;
   * a kept sale, already answered, waits for a manager, or for its next turn after a 429.
   */
  async function refusedRead(
    entry: JournalEntry,
    refusal: Extract<ReadOutcome, { kind: 'refused' }>,
  ): Promise<void> {
    if (entry.body === null) {
      await settle(entry, 'recusado', {
        answerStatus: refusal.status,
        answerBody: refusal.text,
        reason: refusal.message,
      });
    } else if (refusal.status === 429) {
      await requeue(entry, postingMessages.keptRequeued);
    } else {
      await settle(entry, 'precisa de atenção', {
        reason: postingMessages.keptRefused(refusal.message),
      });
    }
  }

  /** The detached life of one posting, from its slot to its verdict. */
  async function run(entry: JournalEntry, body: Record<string, unknown>): Promise<void> {
    await leased(entry.key, async () => {
      // One posting per customer at a time: wait our turn (bounded).
      const slotDeadline = now() + opts.slotWaitMs;
      for (let turn = 1; ; turn += 1) {
        if (await store.takeSlot(entry.establishmentId, entry.customerKey, entry.key, now())) break;
        if (now() >= slotDeadline) {
          if (entry.body !== null) await requeue(entry, postingMessages.keptRequeued);
          else await settle(entry, 'recusado', { reason: postingMessages.busy });
          return;
        }
        await sleep(backoffMs(turn, 50, 1_000, random));
      }
      const cpf =
        typeof (body.cliente as { cpf?: unknown }).cpf === 'string'
          ? (body.cliente as { cpf: string }).cpf
          : null;
      const outcome = await readOutcome(entry.customerKey, null, cpf);
      if (outcome.kind === 'refused') {
        await refusedRead(entry, outcome);
        return;
      }
      const snapshot = outcome.kind === 'read' ? outcome.reading : null;
      if (snapshot === null) {
        // Nothing was sent: a kept sale waits its next turn; a new one is kept if it may be.
        if (entry.body !== null) {
          await requeue(entry, postingMessages.keptRequeued);
          return;
        }
        if (sealKey !== null && (await keepRefusal()) === null) {
          await store.finish(
            entry.key,
            me,
            {
              ...keepable(entry.key, body),
              state: 'aguardando envio',
              reason: postingMessages.kept,
              leaseUntil: 0,
              nextCheckAt: now() + retryDelay(1),
            },
            now(),
          );
          events.emit(entry.key);
          return;
        }
        await settle(entry, 'recusado', { reason: postingMessages.readFailed });
        return;
      }
      // The snapshot and the send time are journaled before anything leaves, and only while
      // the entry is still this process's and still unsent: if a sweep settled it meanwhile
      // (its lease ran out), nothing is sent.
      const sentAt = now();
      const mayStillSend = await store.update(
        entry.key,
        me,
        { snapshot, sentAt, customerName: snapshot.nome ?? entry.customerName },
        sentAt,
        ['enviando'],
      );
      if (!mayStillSend) {
        await store.releaseSlot(entry.key);
        log?.warn({ key: entry.key }, 'posting taken over before it was sent; not sent');
        return;
      }
      await send({ ...entry, snapshot, sentAt }, body, snapshot);
    });
  }

  /**
   * The points a posting earned. Its answer carries the balance after it (`saldo_atual`), not
   * its points, and a reward won by it debits that balance, so the difference from the
   * snapshot is not its points. Its own credit in the customer's history is: read while its
   * slot is still held (no other posting of ours can add a credit meanwhile), and taken only
   * when exactly this one purchase was added since the snapshot. Unknown (null) otherwise.
   */
  async function earnedPoints(
    sending: JournalEntry,
    snapshot: CustomerReading,
    data: Record<string, unknown>,
  ): Promise<EntryPatch> {
    const id = typeof data.id_cliente === 'number' ? data.id_cliente : snapshot.id_cliente;
    const reading = await readFor(sending.customerKey, { ...snapshot, id_cliente: id }, null);
    if (reading === null || compareReadings(snapshot, reading) !== 'posted') return {};
    return {
      points: reading.ultimo_credito,
      reading,
      customerName: reading.nome ?? sending.customerName,
    };
  }

  /** Sends the posting (journaled as sent, its slot held) and settles it from what follows. */
  async function send(
    sending: JournalEntry,
    body: Record<string, unknown>,
    snapshot: CustomerReading,
  ): Promise<void> {
    let status: number | null = null;
    let text = '';
    let lost: LostKind | null = null;
    try {
      const answer = await withLimit(opts.upstreamLimitMs, async (signal) => {
        const res = await o.call('pontuar', body, signal);
        return { status: res.status, text: await res.text() };
      });
      status = answer.status;
      text = answer.text;
    } catch (err) {
      lost = err instanceof UpstreamTimeout ? 'timeout' : 'reset';
    }
    const endedAt = now();
    if (status !== null) {
      const data = postedAnswer(status, text);
      if (data !== null) {
        await settle(
          sending,
          'lançado',
          { answerStatus: status, answerBody: text, endedAt, reason: null },
          () => earnedPoints(sending, snapshot, data),
        );
        return;
      }
      if (refusedAnswer(status)) {
        let reason: string | null = null;
        try {
          const m = (JSON.parse(text) as { message?: unknown }).message;
          if (typeof m === 'string') reason = m;
        } catch {
          reason = null;
        }
        if (sending.body !== null && status === 429) {
          // Refused for now (rate): nothing was posted; it waits its next turn.
          await requeue(sending, postingMessages.keptRequeued);
          return;
        }
        await settle(sending, sending.body !== null ? 'precisa de atenção' : 'recusado', {
          answerStatus: status,
          answerBody: text,
          endedAt,
          reason,
        });
        return;
      }
      lost = 'reset';
    }
    log?.warn(
      { key: sending.key, lost, status, requestId: sending.requestId },
      'posting answer lost',
    );
    await write(sending.key, {
      state: 'verificando',
      reason: postingMessages.verifying,
      lostKind: lost,
      endedAt,
    });
    await verify({ ...sending, state: 'verificando' }, lost ?? 'reset', endedAt);
  }

  /** Takes over what nobody works on: crashed processes' entries and due re-checks. */
  async function recover(entry: JournalEntry): Promise<void> {
    await leased(entry.key, async () => {
      if (entry.state === 'enviando' && entry.sentAt === null) {
        if (entry.body !== null) await requeue(entry, postingMessages.keptRequeued);
        else await settle(entry, 'recusado', { reason: postingMessages.notSentRestart });
        return;
      }
      if (entry.state === 'enviando') {
        // Its process died mid-request: that request has ended, the upstream may still commit.
        await verify(entry, 'crash', now());
        return;
      }
      await verify(entry, entry.lostKind ?? 'crash', entry.endedAt ?? now());
    });
  }

  async function sweepOnce(): Promise<void> {
    const t = now();
    const claimed = await store.claimStale(t, me, t + opts.leaseMs, 50);
    for (const entry of claimed) {
      // Its lease lapsed while this very process works on it (a stalled event loop): the
      // claim renewed the lease; the work goes on.
      if (working.has(entry.key)) continue;
      const p = recover(entry).catch((err: unknown) =>
        log?.error({ key: entry.key, err: String(err) }, 'posting recovery failed'),
      );
      track(p);
    }
    if (sealKey !== null) await deliver();
    if (t - lastPrune > 60 * 60_000) {
      lastPrune = t;
      const pruned = await store.prune(t - opts.retentionMs);
      if (pruned > 0) log?.info({ pruned }, 'journal pruned');
    }
  }

  function sweep(): Promise<void> {
    if (sweeping) return sweeping;
    sweeping = sweepOnce()
      .catch((err: unknown) => log?.error({ err: String(err) }, 'journal sweep failed'))
      .finally(() => {
        sweeping = null;
      });
    return sweeping;
  }

  async function wait(
    key: string,
    ms = opts.waitMs,
    /** The entry as this process just journaled it (spares reading it back). */
    known: JournalEntry | null = null,
  ): Promise<JournalEntry | null> {
    const deadline = now() + Math.min(ms, opts.waitMs);
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

  /**
   * The usual case in one journal write before sending: the customer's slot is free, so read
   * the customer first, then journal the entry as sent and take the slot together, unless
   * another posting took the slot meanwhile (then the slow path: journal, wait the slot, read).
   * Answers the existing entry when the key was journaled meanwhile; null once started.
   */
  async function startFast(
    fresh: NewEntry,
    body: Record<string, unknown>,
    cpf: string | null,
    slot: { held: boolean; turn: number },
  ): Promise<
    | { started: JournalEntry }
    | { existing: JournalEntry }
    | { refused: Extract<ReadOutcome, { kind: 'refused' }> }
    | 'unreachable'
  > {
    const outcome = slot.held ? null : await readOutcome(fresh.customerKey, null, cpf);
    // The service refused the read: its answer is the cashier's, nothing journaled or kept.
    if (outcome?.kind === 'refused') return { refused: outcome };
    const snapshot = outcome?.kind === 'read' ? outcome.reading : null;
    // The service could not be read with the customer's slot free: nothing was sent.
    if (snapshot === null && !slot.held && sealKey !== null) return 'unreachable';
    if (snapshot !== null) {
      const sentAt = now();
      const started = await store.start(
        { ...fresh, createdAt: sentAt, leaseUntil: sentAt + opts.leaseMs, snapshot, sentAt },
        slot.turn,
      );
      if (started.kind === 'exists') return { existing: started.existing };
      if (started.kind === 'started') {
        const entry = started.entry;
        track(
          leased(entry.key, () => send(entry, body, snapshot)).catch((err: unknown) => {
            // The lease runs out and the sweep settles it from the snapshot.
            log?.error({ key: entry.key, err: String(err) }, 'posting failed');
          }),
        );
        return { started: entry };
      }
    }
    const created = await store.create(fresh);
    if (!created.created) return { existing: created.existing };
    const entry = await store.get(fresh.key);
    if (entry === null) throw new Error('journal entry missing after insert');
    track(
      run(entry, body).catch((err: unknown) => {
        log?.error({ key: entry.key, err: String(err) }, 'posting failed');
      }),
    );
    return { started: entry };
  }

  /** Waits (briefly) for the points of a posting answered a moment ago. */
  async function completed(key: string): Promise<void> {
    const p = completing.get(key);
    if (p !== undefined) await Promise.race([p, sleep(LEDGER_POINTS_WAIT_MS)]);
  }

  let delivery: Promise<void> | null = null;
  let deliverAgain = false;

  /** Claims kept sales (oldest first, one per customer) up to the concurrency and sends them. */
  function deliver(): Promise<void> {
    if (sealKey === null || stopped) return Promise.resolve();
    if (delivery) {
      deliverAgain = true;
      return delivery;
    }
    delivery = (async () => {
      do {
        deliverAgain = false;
        if (circuitOpen() || stopped) return;
        const free = opts.deliveryConcurrency - delivering;
        if (free <= 0) return;
        const t = now();
        const claimed = await store.claimWaiting(
          opts.establishmentId,
          t,
          me,
          t + opts.leaseMs,
          free,
        );
        for (const entry of claimed) {
          delivering += 1;
          events.emit(entry.key);
          track(
            deliverOne(entry)
              .catch((err: unknown) =>
                log?.error({ key: entry.key, err: String(err) }, 'kept sale delivery failed'),
              )
              .finally(() => {
                delivering -= 1;
                void deliver();
              }),
          );
        }
      } while (deliverAgain);
    })()
      .catch((err: unknown) => log?.error({ err: String(err) }, 'kept sales delivery failed'))
      .finally(() => {
        delivery = null;
      });
    return delivery;
  }

  async function deliverOne(entry: JournalEntry): Promise<void> {
    const password = entry.secret === null ? null : unseal(sealKey!, entry.secret, entry.key);
    if (password === null || entry.body === null) {
      await settle(entry, 'precisa de atenção', { reason: postingMessages.keptNoPassword });
      return;
    }
    log?.info({ key: entry.key, attempt: entry.attempts }, 'delivering kept sale');
    await run(entry, { ...entry.body, senha_atendente: password });
  }

  const unsubscribe = o.circuit?.onChange((open) => {
    if (!open) void deliver();
  });

  async function submit(s: Submission): Promise<SubmitResult> {
    if (s.key === undefined || s.key.trim() === '')
      return { kind: 'invalid', message: postingMessages.noKey };
    const key = s.key.trim().toLowerCase();
    if (!UUID.test(key)) return { kind: 'invalid', message: postingMessages.badKey };
    if (s.body === null || typeof s.body !== 'object' || Array.isArray(s.body)) {
      return { kind: 'invalid', message: 'O corpo da requisição deve ser um objeto JSON.' };
    }
    const body = s.body as Record<string, unknown>;
    // What the service would refuse is refused here, before anything is journaled or kept: the
    // service's own rules (decisions.md), but the password and the date, which it alone knows.
    const valid = validatePontuar(body, { today: '9999-12-31', checkPassword: () => true });
    if (!valid.ok) {
      return { kind: 'invalid', message: firstError(valid.errors), errors: valid.errors };
    }
    const { cliente, valor_gasto: amount } = valid.value;
    const celular = cliente.celular;
    const fingerprint = postingFingerprint(body);
    const cpf = cliente.cpf ?? null;
    const t = now();
    const fresh = {
      key,
      establishmentId: opts.establishmentId,
      terminalId: s.terminalId,
      requestId: s.requestId,
      fingerprint,
      customerKey: celular,
      customerName: cliente.nome ?? null,
      amount,
      owner: me,
      leaseUntil: t + opts.leaseMs,
      createdAt: t,
    };
    const full = body;
    // The usual case (a new key, the customer's slot free, the service up) reads the store
    // once before the journaling: the slot, and whether this customer has kept sales (they
    // must be delivered first, in order). A key journaled before is found by the journaling
    // itself (insert-if-absent), so a new sale pays no read for it.
    const slot = await store.slotState(fresh.establishmentId, celular, {
      queued: sealKey !== null,
    });
    let existing: JournalEntry | null = null;
    let started: JournalEntry | null = null;
    // Kept for later: the service is unreachable, or this customer's earlier kept sales
    // must be delivered first (in order).
    let keepIt = sealKey !== null && (circuitOpen() || slot.queued === true);
    if (!keepIt) {
      const fast = await startFast(fresh, full, cpf, slot);
      if (fast === 'unreachable') keepIt = true;
      else if ('refused' in fast) {
        return { kind: 'refused', status: fast.refused.status, body: fast.refused.text };
      } else if ('existing' in fast) existing = fast.existing;
      else started = fast.started;
    }
    if (keepIt) {
      // A key seen before is that sale, whatever the limits of kept sales say now.
      existing = await store.get(key);
      if (existing === null) {
        const kept = await keep(fresh, full);
        if ('full' in kept) return { kind: 'full', message: kept.full };
        if (kept.entry !== null) existing = kept.entry;
      }
    }
    if (existing !== null && existing.fingerprint !== fingerprint) {
      return { kind: 'invalid', message: postingMessages.keyReused };
    }
    const entry = await wait(key, opts.waitMs, started);
    if (entry === null) throw new Error('journal entry missing');
    return { kind: 'entry', entry };
  }

  return {
    submit,
    get: async (raw) => {
      const key = raw.toLowerCase();
      await completed(key);
      return local.get(key) ?? (await store.get(key));
    },
    wait: async (raw, ms) => {
      const entry = await wait(raw.toLowerCase(), ms);
      if (entry === null || !completing.has(entry.key)) return entry;
      await completed(entry.key);
      return local.get(entry.key) ?? (await store.get(entry.key));
    },
    list: (f) => store.list(f),
    async ledger(f) {
      const limit = LEDGER_LIMIT;
      const scope = { establishmentId: opts.establishmentId, terminalId: f.terminalId };
      const [earlier, period] = await Promise.all([
        store.listUnsettled({ ...scope, before: f.from, limit }),
        store.list({ ...scope, from: f.from, to: f.to, limit: limit + 1 }),
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
          async (e) =>
            local.get(e.key) ?? (pending.has(e.key) ? ((await store.get(e.key)) ?? e) : e),
        ),
      );
      const open = shown.filter((e) => !isSettled(e.state));
      const settled = shown.filter((e) => isSettled(e.state));
      const entries = [...earlier.map((e) => local.get(e.key) ?? e), ...open, ...settled];
      return { entries, truncated };
    },
    sweep,
    start() {
      if (timer !== undefined) return;
      void sweep();
      timer = setInterval(() => void sweep(), opts.sweepMs);
      timer.unref?.();
    },
    async stop() {
      stopped = true;
      unsubscribe?.();
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
      await sweeping;
      await delivery;
      await Promise.allSettled([...running]);
    },
    deliver,
    journalsIn: (other) => other === store.store,
    async status() {
      const stats = await store.queueStats(opts.establishmentId);
      return {
        open: circuitOpen(),
        openedAt: o.circuit?.openedAt() ?? null,
        waiting: stats.waiting,
        attention: stats.attention,
        oldestWaitingAt: stats.oldestWaitingAt,
        maxWaiting: opts.maxWaiting,
        maxWaitMs: opts.maxWaitMs,
        accepting:
          sealKey !== null &&
          stats.waiting < opts.maxWaiting &&
          (stats.oldestWaitingAt === null || now() - stats.oldestWaitingAt <= opts.maxWaitMs),
      };
    },
    async resolve(rawKey, decision) {
      const key = rawKey.toLowerCase();
      const ok = await store.resolveAttention(
        key,
        now(),
        'resend' in decision
          ? { resend: { secret: seal(sealKey!, decision.resend.password, key) } }
          : { discard: { reason: postingMessages.discarded } },
      );
      events.emit(key);
      if (!ok) return null;
      if ('resend' in decision) void deliver();
      return store.get(key);
    },
    options: opts,
  };
}

export function isSettled(state: PostingState): boolean {
  return !UNSETTLED.includes(state);
}
