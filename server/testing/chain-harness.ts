/**
 * A chain of three stores served by one deployment, in process: the embedded sandbox (its
 * establishments 1, 3 and 4, each with its own token, program and customers), the app's store
 * given by the test (SQLite or PostgreSQL), the store directory and the dispatcher with one
 * app per store, exactly as server/main.ts composes them. Every call reaching the sandbox is
 * counted by establishment, and a store's calls can be made to fail (an outage at one store).
 */
import pino from 'pino';
import { afterEach, beforeEach } from 'vitest';
import { createChainServer, startStoreApp } from '../app/chain';
import { signCredential } from '../app/domain/credential';
import { addChainStore, createStoreDirectory } from '../app/domain/stores';
import type { StoreDirectory } from '../app/domain/stores';
import { credentialCookieName } from '../app/http/access/terminal';
import { createMetrics } from '../app/domain/ops/metrics';
import { openSandbox } from '../sandbox/sandbox';
import type { Sandbox } from '../sandbox/sandbox';
import { enrollDirectly, openStore } from '../store';
import type { Role, Store } from '../store';
import { TEST_SECRET } from './app-harness';
import type { StoreEngine, StoreFixture, StoreLocation } from './store-fixture';

export const CHAIN = { a: 1, b: 3, c: 4 } as const;
/** Opens /metrics to the tests (there is no loopback peer in app.request). */
export const CHAIN_METRICS_TOKEN = 'chain-metrics-token-0123456789';

export interface Chain {
  chain: ReturnType<typeof createChainServer>;
  directory: StoreDirectory;
  sandbox: Sandbox;
  /** Calls that reached the sandbox, by establishment id in the path. */
  calls: Map<number, number>;
  /** Establishments whose calls fail before reaching the sandbox (an outage there). */
  down: Set<number>;
  callsTo(id: number): number;
  /** An enrolled terminal of a store and a request function carrying its cookie. */
  terminal(
    establishmentId: number,
    role: Role,
    name?: string,
  ): Promise<{ id: number; request: (path: string, init?: RequestInit) => Promise<Response> }>;
  /** A request with no terminal (health, metrics, enrollment). */
  request(path: string, init?: RequestInit): Promise<Response>;
  stop(): Promise<void>;
}

const ESTABLISHMENT = /\/api\/v4\/estabelecimentos\/(\d+)\//;

export async function makeChain(store: Store, options: { ttlMs?: number } = {}): Promise<Chain> {
  const sandbox = openSandbox({ dbPath: ':memory:', chainStores: 3 });
  const calls = new Map<number, number>();
  const down = new Set<number>();
  const counted = {
    async fetch(req: Request): Promise<Response> {
      const id = Number(ESTABLISHMENT.exec(new URL(req.url).pathname)?.[1] ?? 0);
      calls.set(id, (calls.get(id) ?? 0) + 1);
      if (down.has(id)) throw new TypeError('fetch failed (the test took this store down)');
      return sandbox.app.fetch(req);
    },
  };
  const demo = new Map(sandbox.establishments().map((e) => [e.id, e]));
  const token = (id: number) => demo.get(id)!.accessToken;
  for (const id of [CHAIN.b, CHAIN.c]) {
    await addChainStore(store, TEST_SECRET, CHAIN.a, {
      establishmentId: id,
      name: demo.get(id)!.nome,
      accessToken: token(id),
    });
  }
  const directory = createStoreDirectory({
    store,
    appSecret: TEST_SECRET,
    defaultStore: { establishmentId: CHAIN.a, name: 'Loja Demo', accessToken: token(CHAIN.a) },
    ttlMs: options.ttlMs ?? 0,
  });
  const logger = pino({ level: 'silent' });
  const metrics = createMetrics({ store, processDefaults: false });
  const chain = createChainServer({
    store,
    directory,
    publicOrigin: null,
    start: (s, network) =>
      startStoreApp(
        {
          common: {
            distDir: '/nonexistent/dist',
            store,
            secret: TEST_SECRET,
            publicOrigin: null,
            autoEnroll: false,
            metrics,
            metricsToken: CHAIN_METRICS_TOKEN,
            limits: {
              burst: { limit: 1_000_000, windowMs: 1_000 },
              sustained: { limit: 1_000_000, windowMs: 2_000 },
            },
          },
          upstreamFor: (x) => ({
            mode: 'sandbox',
            upstream: counted,
            upstreamBaseUrl: 'http://sandbox.internal',
            appToken: demo.get(CHAIN.a)!.appToken,
            accessToken: x.accessToken,
            establishmentId: x.establishmentId,
            establishmentName: x.name,
            pdvPassword: '1234',
          }),
          defaultId: CHAIN.a,
          logger,
          metrics,
          contingency: { failures: 3, probeMs: 60_000 },
          conferencia: null,
        },
        s,
        network,
      ),
  });
  await chain.start(60_000);
  const send = (path: string, init: RequestInit = {}, cookie: string | null = null) => {
    const headers = new Headers(init.headers);
    const url = new URL(path, 'http://localhost');
    if (cookie !== null) headers.set('cookie', `${credentialCookieName(url.href)}=${cookie}`);
    const method = (init.method ?? 'GET').toUpperCase();
    if (method !== 'GET' && method !== 'HEAD' && !headers.has('origin')) {
      headers.set('origin', 'http://localhost');
    }
    if (init.body !== undefined && !headers.has('content-type')) {
      headers.set('content-type', 'application/json');
    }
    return chain.fetch(new Request(url, { ...init, headers }));
  };
  return {
    chain,
    directory,
    sandbox,
    calls,
    down,
    callsTo: (id) => calls.get(id) ?? 0,
    async terminal(establishmentId, role, name = `${role} ${establishmentId}`) {
      const { terminal, nonce } = await enrollDirectly(store, { name, role, establishmentId });
      const cookie = signCredential(TEST_SECRET, terminal.id, nonce);
      return { id: terminal.id, request: (path, init) => send(path, init, cookie) };
    },
    request: (path, init) => send(path, init),
    async stop() {
      await chain.stop();
      sandbox.close();
    },
  };
}

/** What `chainEachTest` opened for one test. */
export interface ChainOfTest {
  store: Store;
  /** Where the store lives (a SQLite file or a PostgreSQL database). */
  where: StoreLocation;
  chain: Chain;
}

/**
 * A chain on a new empty store of `engine` for each test of the suite it is called in: `use`
 * receives them before each test; the chain is stopped and the store closed after it.
 */
export function chainEachTest(
  stores: StoreFixture,
  engine: StoreEngine,
  use: (opened: ChainOfTest) => void,
): void {
  let opened: ChainOfTest | null = null;
  beforeEach(async () => {
    const where = await stores.location(engine);
    const store = await openStore(where);
    opened = { store, where, chain: await makeChain(store) };
    use(opened);
  }, 30_000);
  afterEach(async () => {
    await opened?.chain.stop();
    await opened?.store.close();
    opened = null;
  });
}
