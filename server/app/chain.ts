/**
 * A chain's stores from one deployment (docs/operations/chain.md). Each store
 * the deployment serves gets its own app server, as one store had before: its upstream
 * client with that store's access-token, its circuit (a store whose token was revoked, or
 * whose establishment the service refuses, opens nobody else's), its postings journal, its
 * conferência, and its terminals, PDV sales, kiosks, dashboard and audit trail read from the
 * shared store under its establishment. One dispatcher in front sends each request to the app
 * of the store its terminal belongs to: the cookie's terminal, an integration token's
 * terminal, an enrollment code's terminal; anything else (health, metrics, a browser not
 * enrolled) goes to the default store's. The app it reaches checks the terminal again
 * (a terminal of another store is no terminal there), so a misrouted or forged request is
 * refused, never answered for another store.
 *
 * The list of stores comes from the store directory (domain/stores.ts), read again every few
 * seconds: a store added with `npm run loja` is served by every replica with no restart; a
 * new token replaces the store's app; a removed store's terminals are refused.
 */
import type { Logger } from 'pino';
import type { PainelPeriod, PainelWire } from '#contract/api/painel';
import type { Store } from '../store';
import { activeTerminalRole, codeStore, terminalStore } from '../store';
import type { AppServer } from './app';
import type { AppServerOptions } from './options';
import { createAppServer } from './app';
import { createConferencia } from './domain/conferencia/service';
import type { PostingServiceOptions } from './domain/journal/context';
import { startCircuit, startJournal } from './domain/journal/setup';
import type { PostingService } from './domain/journal/service';
import type { Metrics } from './domain/ops/metrics';
import type { ChainStore, StoreDirectory } from './domain/stores';
import type { ChainNetwork } from './domain/rede';
import { chosenStore } from './http/rede';
import { storePainel } from './store-parts';
import { createVigilancia } from './domain/vigilancia/service';
import type { AlertWebhook } from './domain/vigilancia/webhook';
import { createSweepGate, type SweepGate } from './domain/sweep-gate';
import { credentialCookieName } from './http/access/terminal';
import { clientOf } from './upstream/client';
import type { Circuit } from './upstream/circuit';

/** The upstream part of one store's options: its tokens, its establishment, its name. */
export type StoreUpstream = Pick<
  AppServerOptions,
  | 'mode'
  | 'upstream'
  | 'upstreamBaseUrl'
  | 'appToken'
  | 'accessToken'
  | 'establishmentId'
  | 'establishmentName'
  | 'pdvPassword'
>;

/** What every store's app shares (server/main.ts, or a test). */
export interface StoreAppSetup {
  /** Options common to every store's app (the store, the secret, limits, the lifecycle…). */
  common: Omit<
    AppServerOptions,
    keyof StoreUpstream | 'postings' | 'circuit' | 'conferencia' | 'chain' | 'audit' | 'vigilancia'
  >;
  /** One store's upstream (live: the service with its token; sandbox: the sandbox). */
  upstreamFor: (store: ChainStore) => StoreUpstream;
  defaultId: number;
  logger: Logger;
  metrics?: Metrics | null;
  journal?: Partial<PostingServiceOptions>;
  contingency?: { failures?: number; probeMs?: number; journal?: Partial<PostingServiceOptions> };
  /** The conferência's pace and hour; null: none (tests). */
  conferencia?: { readsPerSecond: number; nightlyHour: number } | null;
  /** Vigilância's outbound webhook (one sender for the deployment); null: off. */
  webhook?: AlertWebhook | null;
  /**
   * The stores' sweeps ask it whether there is anything to do (domain/sweep-gate.ts).
   * Default: one for every store of the shared store; null: none (every tick sweeps).
   */
  sweepGate?: SweepGate | null;
  /** How long a store's settled webhook deliveries are kept (its nightly prune). */
  webhookRetentionMs?: number;
}

/** One store's running app. */
export interface StoreApp {
  establishmentId: number;
  /** The token it was built with: a new one in the directory replaces the app. */
  accessToken: string;
  app: AppServer;
  /** Its dashboard of a period (the chain's roll-up reads it). */
  painel: (period: PainelPeriod) => Promise<PainelWire>;
  postings: PostingService;
  circuit: Circuit;
  stop(): Promise<void>;
}

/** The stores of one shared store ask one gate (one probe a second for all of them). */
const gates = new WeakMap<Store, SweepGate>();
function sweepGateOf(setup: StoreAppSetup): SweepGate | null {
  if (setup.sweepGate !== undefined) return setup.sweepGate;
  const { store } = setup.common;
  const gate = gates.get(store) ?? createSweepGate(store);
  gates.set(store, gate);
  return gate;
}

/**
 * Starts one store's app: its circuit, vigilância, journal, conferência and the app server
 * over them.
 */
export function startStoreApp(
  setup: StoreAppSetup,
  store: ChainStore,
  network: ChainNetwork | null = null,
): StoreApp {
  const { logger, metrics = null, contingency = {} } = setup;
  const up = setup.upstreamFor(store);
  const log = logger.child({ estabelecimento: store.establishmentId });
  let options: AppServerOptions = {
    ...setup.common,
    ...up,
    logger: log,
    chain: { defaultId: setup.defaultId, network },
    sweepGate: sweepGateOf(setup),
  };
  // Every upstream call is counted (by operation, and by store), the circuit's probe included.
  if (metrics !== null) {
    options = { ...options, upstream: metrics.wrap(options.upstream, store.establishmentId) };
  }
  const circuit = startCircuit({
    probe: clientOf(options).call,
    logger: log,
    failures: contingency.failures,
    probeMs: contingency.probeMs,
  });
  options = { ...options, upstream: circuit.wrap(options.upstream), circuit };
  metrics?.watchStore(store.establishmentId, circuit);
  // Vigilância: this store's own, each of its postings evaluated once settled, off its path;
  // its night's re-evaluation; its PDV's cancels of posted sales.
  const vigilancia = createVigilancia({
    store: setup.common.store,
    establishmentId: store.establishmentId,
    log,
    ...(setup.conferencia ? { nightlyHour: setup.conferencia.nightlyHour } : {}),
    ...(metrics === null ? {} : { onAlert: metrics.alertRaised }),
    webhook: setup.webhook ?? null,
    ...(setup.webhookRetentionMs === undefined
      ? {}
      : { webhookRetentionMs: setup.webhookRetentionMs }),
  });
  vigilancia.start();
  options = { ...options, vigilancia };
  const postings = startJournal({
    store: setup.common.store,
    call: clientOf(options).call,
    establishmentId: store.establishmentId,
    logger: log,
    limits: { ...setup.journal, sweepGate: sweepGateOf(setup) },
    observer: metrics?.journal,
    onSettled: vigilancia.onSettled,
    contingency: { circuit, appSecret: setup.common.secret, limits: contingency.journal ?? {} },
  });
  options = { ...options, postings };
  let stopConferencia = async (): Promise<void> => {};
  if (setup.conferencia) {
    const reads = clientOf(options);
    const conferencia = createConferencia({
      store: setup.common.store,
      establishmentId: store.establishmentId,
      buscar: (body, signal) => reads.call('buscar', body, signal),
      circuitOpen: () => circuit.isOpen(),
      log,
      readsPerSecond: setup.conferencia.readsPerSecond,
      nightlyHour: setup.conferencia.nightlyHour,
    });
    options = { ...options, conferencia };
    if (store.isDefault) metrics?.watchConferencia(() => conferencia.lastFindings());
    conferencia.run();
    stopConferencia = () => conferencia.stop();
  }
  if (store.isDefault) metrics?.watch(postings);
  return {
    establishmentId: store.establishmentId,
    accessToken: store.accessToken,
    app: createAppServer(options),
    painel: storePainel(options),
    postings,
    circuit,
    async stop() {
      circuit.stop();
      await stopConferencia();
      await postings.stop();
      await vigilancia.stop();
    },
  };
}

export interface ChainDeps {
  store: Store;
  directory: StoreDirectory;
  /** Starts one store's app (startStoreApp in production), the chain's view handed to it. */
  start: (store: ChainStore, network: ChainNetwork) => StoreApp;
  /** PUBLIC_ORIGIN (the cookie's name depends on it), or null. */
  publicOrigin: string | null;
  logger?: Logger;
}

const REGISTER_PATH = '/api/terminal/registrar';
/** Terminals whose store this process remembers (a terminal never changes store). */
const KEPT_TERMINALS = 10_000;

/** `pdv.<id>.<secret>`: the integration token's terminal id. */
function bearerTerminal(req: Request): number | null {
  const m = /^Bearer\s+pdv\.([1-9]\d{0,15})\./i.exec(req.headers.get('authorization') ?? '');
  return m === null ? null : Number(m[1]);
}

/** The credential cookie's terminal id (`<id>.<nonce>.<mac>`), unverified: a routing hint. */
function cookieTerminal(req: Request, name: string): number | null {
  for (const part of (req.headers.get('cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    const m = /^\s*"?([1-9]\d{0,15})\./.exec(part.slice(eq + 1));
    if (m !== null) return Number(m[1]);
  }
  return null;
}

export function createChainServer(deps: ChainDeps) {
  const { directory } = deps;
  const defaultId = directory.defaultStore.establishmentId;
  const apps = new Map<number, StoreApp>();
  const terminals = new Map<number, number>();
  const secure = deps.publicOrigin?.startsWith('https://') ?? false;
  const cookieName = (url: string) =>
    secure ? '__Host-pdv_terminal' : credentialCookieName(deps.publicOrigin ?? url);

  /** The running app of a store the directory lists now (started, or restarted for a new token). */
  async function appOf(establishmentId: number): Promise<StoreApp | null> {
    const store = await directory.get(establishmentId);
    const running = apps.get(establishmentId);
    if (store === null) {
      if (running !== undefined) {
        apps.delete(establishmentId);
        void running.stop();
        deps.logger?.info({ estabelecimento: establishmentId }, 'store removed from the chain');
      }
      return null;
    }
    if (running !== undefined && running.accessToken === store.accessToken) return running;
    const started = deps.start(store, network);
    apps.set(establishmentId, started);
    if (running !== undefined) void running.stop();
    deps.logger?.info(
      { estabelecimento: establishmentId, default: store.isDefault },
      running === undefined ? 'store served' : 'store token replaced',
    );
    return started;
  }

  /** The store of a terminal (null: unknown terminal, the default store answers it). */
  async function storeOfTerminal(id: number): Promise<number> {
    const known = terminals.get(id);
    if (known !== undefined) return known;
    const found = await terminalStore(deps.store, id);
    if (found === undefined) return defaultId;
    if (terminals.size >= KEPT_TERMINALS) terminals.clear();
    terminals.set(id, found ?? defaultId);
    return found ?? defaultId;
  }

  /** Which store's app answers this request. */
  async function storeOf(req: Request): Promise<number> {
    const pdv = bearerTerminal(req);
    if (pdv !== null) return storeOfTerminal(pdv);
    const terminal = cookieTerminal(req, cookieName(req.url));
    if (terminal !== null) {
      const home = await storeOfTerminal(terminal);
      // The chain's rede reads the store it names; anyone else's naming another store goes
      // to its own store's app, which refuses it (403).
      // (The API's requests only: a page is always the terminal's own store's.)
      const chosen = new URL(req.url).pathname.startsWith('/api/') ? chosenStore(req) : null;
      if (typeof chosen !== 'number' || chosen === home) return home;
      return (await activeTerminalRole(deps.store, terminal)) === 'rede' ? chosen : home;
    }
    if (req.method === 'POST' && new URL(req.url).pathname === REGISTER_PATH) {
      const body = (await req
        .clone()
        .json()
        .catch(() => null)) as { codigo?: unknown } | null;
      if (typeof body?.codigo === 'string' && body.codigo.length <= 32) {
        return (await codeStore(deps.store, body.codigo)) ?? defaultId;
      }
    }
    return defaultId;
  }

  /** Starts every listed store's app and drops the ones no longer listed. */
  async function refresh(): Promise<void> {
    const listed = await directory.list();
    for (const s of listed) await appOf(s.establishmentId);
    const ids = new Set(listed.map((s) => s.establishmentId));
    for (const id of [...apps.keys()]) if (!ids.has(id)) await appOf(id);
  }
  let timer: ReturnType<typeof setInterval> | undefined;

  /** The chain's view every store's app offers a `rede` terminal. */
  const network: ChainNetwork = {
    async stores() {
      const listed = await directory.list();
      return listed
        .map((s) => ({ id: s.establishmentId, nome: s.name, padrao: s.isDefault }))
        .sort((a, b) => Number(b.padrao) - Number(a.padrao) || a.id - b.id);
    },
    async painel(id, period) {
      const app = await appOf(id);
      if (app === null) throw new Error(`store ${id} is not served`);
      return app.painel(period);
    },
  };

  return {
    appOf,
    /**
     * Starts every store's app now (their journals deliver what they kept) and follows the
     * list every `everyMs`: a store added, re-tokened or removed elsewhere, with no restart.
     */
    async start(everyMs = 5_000): Promise<void> {
      await refresh();
      timer ??= setInterval(() => {
        refresh().catch((err: unknown) =>
          deps.logger?.warn({ err: String(err) }, "the chain's list of stores could not be read"),
        );
      }, everyMs);
      timer.unref?.();
    },
    /** Hono's fetch, for @hono/node-server or app.request() in tests. */
    async fetch(req: Request, ...rest: unknown[]): Promise<Response> {
      const establishmentId = await storeOf(req);
      const target = (await appOf(establishmentId)) ?? (await appOf(defaultId));
      if (target === null) throw new Error('the default store is always served');
      if (target.establishmentId !== establishmentId) {
        // A terminal of a store no longer served: refused, never answered as another store.
        return Response.json(
          { success: false, message: 'Esta loja não é mais atendida por este servidor.', data: {} },
          { status: 403, headers: { 'cache-control': 'no-store' } },
        );
      }
      return target.app.fetch(req, ...(rest as []));
    },
    /** Every store's app (the ones started so far) stops its work. */
    async stop(): Promise<void> {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
      const running = [...apps.values()];
      apps.clear();
      await Promise.all(running.map((a) => a.stop()));
    },
  };
}
