/**
 * Starts the app server: `npm start` (after `vite build`) or `npm run serve`.
 * Without LOYALTY_BASE_URL it embeds the sandbox in this process; with it, it proxies to
 * the live service. See server/README-server.md for the variables.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { createChainServer, startStoreApp } from './app/chain';
import type { StoreUpstream } from './app/chain';
import {
  DEMO_CHAIN_DEFAULT,
  DEMO_CHAIN_STORES,
  embeddedSandbox,
  joinDemoChain,
} from './app/embedded';
import { createStoreDirectory } from './app/domain/stores';
import type { ChainStore } from './app/domain/stores';
import { readConfig, resolveAppDb } from './app/config';
import { createAuditTrail } from './app/domain/audit';
import { createLifecycle } from './app/domain/ops/lifecycle';
import { createMetrics } from './app/domain/ops/metrics';
import { createAlertWebhook } from './app/domain/vigilancia/webhook';
import { appSecretFor } from './ops/app-secret';
import { startBackupSchedule } from './ops/backup-schedule';
import type { BackupSchedule } from './ops/backup-schedule';
import { currentRuntime } from './ops/runtime';
import { adoptTerminals, openStore, storeCounts } from './store';
import type { Store } from './store';

/** A slow client cannot hold a request open: headers within 10 s, the whole request in 30 s. */
const HEADERS_TIMEOUT_MS = 10_000;
const REQUEST_TIMEOUT_MS = 30_000;
const KEEP_ALIVE_TIMEOUT_MS = 5_000;
/** Open connections at most (a store has a handful of terminals; more is an attack or a bug). */
const MAX_CONNECTIONS = 256;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// React's server renderer (the pages' first view, app/page-render.ts) picks its build by
// NODE_ENV when it first loads: the production one unless this process is told otherwise.
process.env.NODE_ENV ??= 'production';

function die(message: string): never {
  process.stderr.write(`fidelidade-pdv: ${message}\n`);
  process.exit(1);
}

// A runtime package.json's `engines` does not list (started some other way than through npm,
// which brings Node.js 24): said first, since SQLite's native driver may crash it below.
let runtime: ReturnType<typeof currentRuntime>;
try {
  runtime = currentRuntime(root);
} catch (err) {
  die(
    `cannot read the supported Node.js versions: ${err instanceof Error ? err.message : String(err)}`,
  );
}
if (!runtime.supported) {
  process.stderr.write(
    `fidelidade-pdv: warning: Node.js ${runtime.version} (${runtime.execPath}) is not supported (package.json engines: ${runtime.engines}); start it with npm start, or node_modules/.bin/node\n`,
  );
}

// The environment is read here, once; everything below receives what it needs.
const read = readConfig(process.env);
if (!read.ok) die(read.error);
const config = read.config;
const env = config.server;
const accessEnv = config.access;

const appDb = resolveAppDb(accessEnv.appDb, root);
/** The store's query times, into the metrics once they exist. */
let onQuery = (_ms: number, _ok: boolean): void => undefined;
let store: Store;
try {
  store = await openStore({
    databaseUrl: accessEnv.databaseUrl,
    sqlitePath: appDb,
    onQuery: (ms, ok) => onQuery(ms, ok),
  });
} catch (err) {
  die(
    `cannot open the app store (${accessEnv.databaseUrl === null ? appDb : 'DATABASE_URL'}): ${err instanceof Error ? err.message : String(err)}`,
  );
}

// APP_SECRET, or in sandbox mode a random one kept beside the store (created once).
const secret = appSecretFor(accessEnv.appSecret, appDb);

// JSON lines for machines (a service's journal, a log shipper); readable lines when a person
// reads stdout in a terminal. JSON is written asynchronously (a synchronous write per request
// cost 7-12 % of the CPU); pino flushes what is pending when the process exits.
const logger = pino(
  { level: config.logLevel, timestamp: pino.stdTimeFunctions.isoTime },
  process.stdout.isTTY
    ? (await import('pino-pretty')).default({
        colorize: true,
        translateTime: 'SYS:HH:MM:ss',
        ignore: 'pid,hostname',
        hideObject: true,
      })
    : pino.destination({ dest: 1, sync: false }),
);
// Which replica ran the migrations (none when the schema was up to date or another ran them).
if (store.migrated.length > 0) {
  logger.info(
    { migrations: store.migrated },
    `store migrated: ${store.migrated.length} migration(s) applied`,
  );
}
let closeUpstream = (): void => {};
const lifecycle = createLifecycle();
const metrics = createMetrics({ store });
// The audit trail, purged of what is past AUDIT_RETENTION_DAYS now and every hour.
const audit = createAuditTrail({ store, retentionDays: config.auditRetentionDays, log: logger });
audit.start();
onQuery = metrics.storeQuery;

const common = {
  distDir: path.join(root, 'dist'),
  logger,
  store,
  secret,
  publicOrigin: accessEnv.publicOrigin,
  autoEnroll: accessEnv.autoEnroll,
  limits: accessEnv.rateLimits,
  trustedProxies: accessEnv.trustedProxies,
  lifecycle,
  metrics,
  metricsToken: config.metricsToken,
  ...(config.pdv.expiryMs === undefined ? {} : { pdvExpiryMs: config.pdv.expiryMs }),
  ...(config.pdv.rate === undefined ? {} : { pdvRate: config.pdv.rate }),
};
/** One store's upstream: the live service with the store's token, or the embedded sandbox. */
let upstreamFor: (s: ChainStore) => StoreUpstream;
let defaultStore: Omit<ChainStore, 'isDefault'>;
if (env.mode === 'live') {
  defaultStore = {
    establishmentId: env.establishmentId,
    name: env.establishmentName,
    accessToken: env.accessToken,
  };
  upstreamFor = (s) => ({
    mode: 'live',
    upstream: { fetch: (req: Request) => fetch(req) },
    upstreamBaseUrl: env.baseUrl,
    appToken: env.appToken,
    accessToken: s.accessToken,
    establishmentId: s.establishmentId,
    establishmentName: s.name,
    // PDV_SENHA_ATENDENTE is the default store's; another store's PDV sales wait at its counter.
    pdvPassword: s.isDefault ? (config.pdv.password ?? null) : null,
  });
} else {
  const dbPath =
    env.sandboxDb === null ? path.join(root, 'data', 'sandbox.db') : path.resolve(env.sandboxDb);
  mkdirSync(path.dirname(dbPath), { recursive: true });
  const { openSandbox } = await import('./sandbox/sandbox');
  let sandbox: ReturnType<typeof openSandbox>;
  try {
    sandbox = openSandbox({
      dbPath,
      // The demo chain (SANDBOX_STORES) belongs to the demo's default store, establishment 1.
      chainStores:
        env.establishmentId === DEMO_CHAIN_DEFAULT ? (env.sandboxStores ?? DEMO_CHAIN_STORES) : 1,
      // Unexpected errors only (answered as a generic 500); the sandbox never passes a body here.
      onError: (err) =>
        logger.error(
          err instanceof Error
            ? { err: { name: err.name, message: err.message, stack: err.stack } }
            : { err: String(err) },
          'sandbox error',
        ),
    });
  } catch (err) {
    die(
      `cannot open the sandbox database ${dbPath}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  closeUpstream = () => sandbox.close();
  const upstream = embeddedSandbox(sandbox, env.establishmentId);
  if (upstream === null) {
    const ids = sandbox.establishments().map((e) => e.id);
    sandbox.close();
    die(
      `LOYALTY_ESTABLISHMENT_ID=${env.establishmentId} is not a sandbox establishment (known: ${ids.join(', ')})`,
    );
  }
  defaultStore = {
    establishmentId: upstream.establishmentId,
    name: upstream.establishmentName,
    accessToken: upstream.accessToken,
  };
  upstreamFor = (s) => {
    const demo = embeddedSandbox(sandbox, s.establishmentId);
    return {
      mode: 'sandbox',
      upstream: sandbox.app,
      upstreamBaseUrl: 'http://sandbox.internal',
      appToken: upstream.appToken,
      accessToken: s.accessToken,
      establishmentId: s.establishmentId,
      establishmentName: s.name ?? demo?.establishmentName ?? null,
      pdvPassword: config.pdv.password ?? demo?.pdvPassword ?? null,
    };
  };
  // The demo chain: the sandbox's other stores join the list (their tokens sealed) at start.
  if (upstream.establishmentId === DEMO_CHAIN_DEFAULT) {
    await joinDemoChain(
      store,
      secret,
      sandbox.establishments(),
      env.sandboxStores ?? DEMO_CHAIN_STORES,
      logger,
    );
  }
}

// The chain's stores: the default one as configured, the others from the store (npm run loja).
const defaultId = defaultStore.establishmentId;
const adopted = await adoptTerminals(store, defaultId);
if (adopted > 0)
  logger.info(
    { terminals: adopted, estabelecimento: defaultId },
    'terminals adopted by the default store',
  );
const directory = createStoreDirectory({
  store,
  appSecret: secret,
  defaultStore,
  onUnreadable: (id) =>
    logger.error(
      { estabelecimento: id },
      "a store's access-token does not open with this APP_SECRET: the store is not served",
    ),
});
// Vigilância's outbound webhook (ALERT_WEBHOOK_URL): one sender for every store.
const webhook =
  config.webhook === null
    ? null
    : createAlertWebhook({
        store,
        ...config.webhook,
        log: logger,
        onSettled: metrics.webhookSettled,
      });
webhook?.start();
const chain = createChainServer({
  store,
  directory,
  publicOrigin: accessEnv.publicOrigin,
  logger,
  start: (s, network) =>
    startStoreApp(
      {
        common,
        upstreamFor,
        defaultId,
        logger,
        metrics,
        journal: config.journal,
        contingency: config.contingency,
        conferencia: config.conferencia,
        webhook,
        webhookRetentionMs: config.webhookRetentionMs,
      },
      s,
      network,
    ),
});
// The postings journal (exactly-once pontuar) of every store, its circuit and conferência.
const closeJournal = () => chain.stop();
try {
  await chain.start();
} catch (err) {
  closeUpstream();
  void store.close();
  die(`cannot open the postings journal: ${err instanceof Error ? err.message : String(err)}`);
}
const stores = await directory.list();
logger.info(
  { stores: stores.map((s) => s.establishmentId) },
  `serving ${stores.length} store(s): ${stores.map((s) => `${s.establishmentId} ${s.name ?? ''}`.trim()).join(', ')}`,
);
const app = chain;
const server = serve(
  {
    fetch: app.fetch,
    port: env.port,
    hostname: env.host,
    serverOptions: {
      headersTimeout: HEADERS_TIMEOUT_MS,
      requestTimeout: REQUEST_TIMEOUT_MS,
      keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    },
  },
  (info: AddressInfo) => {
    const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
    const url = `http://${host}:${info.port}`;
    const enrollment = accessEnv.autoEnroll
      ? 'browsers on this computer are enrolled automatically as gerente (sandbox on loopback; SANDBOX_AUTO_ENROLL=0 turns it off)'
      : 'terminals need an enrollment code: npm run terminal -- add --role caixa --name "Caixa 1"';
    logger.info(
      {
        url,
        node: process.version,
        mode: env.mode,
        establishmentId: defaultId,
        store: store.engine,
        publicOrigin: accessEnv.publicOrigin,
        autoEnroll: accessEnv.autoEnroll,
      },
      `listening on ${url} (Node.js ${process.version}); ${enrollment}`,
    );
  },
);
server.maxConnections = MAX_CONNECTIONS;

server.on('error', (err: NodeJS.ErrnoException) => {
  closeUpstream();
  void store.close();
  die(`cannot listen on ${env.host}:${env.port}: ${err.code ?? err.message}`);
});

// Scheduled backups of the SQLite store (BACKUP_DIR), through the server's own connection.
let backups: BackupSchedule | null = null;
if (config.backup !== null) {
  try {
    backups = startBackupSchedule({ store, ...config.backup, logger });
  } catch (err) {
    logger.error(
      { err: err instanceof Error ? err.message : String(err) },
      'scheduled backups not started',
    );
  }
}

/** Postings this store holds as being sent now (`enviando`, `verificando`). */
async function inFlight(): Promise<number> {
  const { postingsByState } = await storeCounts(store).catch(() => ({
    postingsByState: {} as Record<string, number>,
  }));
  return (postingsByState['enviando'] ?? 0) + (postingsByState['verificando'] ?? 0);
}

/**
 * A graceful restart: /readyz turns 503 and the event streams end with a retry hint, no new
 * connections are taken, the requests and postings in flight finish (within
 * SHUTDOWN_TIMEOUT_MS), then the store is closed and the process exits 0. A second signal, or
 * the bound, exits at once (kill -9 is safe too: the journal recovers what was in flight).
 */
let stopping = false;
async function shutdown(signal: NodeJS.Signals): Promise<void> {
  if (stopping) {
    logger.warn({ signal }, 'second signal: exiting now');
    logger.flush();
    process.exit(1);
  }
  stopping = true;
  lifecycle.drain();
  const before = await inFlight();
  logger.info({ signal, inFlight: before, boundMs: config.shutdownMs }, 'shutting down: draining');
  const report = async (): Promise<string> => {
    const left = await inFlight();
    return `[shutdown] in flight=${before} settled=${Math.max(0, before - left)} left=${left}`;
  };
  const bound = setTimeout(() => {
    void report().then((line) => {
      process.stderr.write(`${line} (SHUTDOWN_TIMEOUT_MS reached)\n`);
      logger.flush();
      process.exit(1);
    });
  }, config.shutdownMs);
  bound.unref();
  // Idle keep-alive connections close now; busy ones once their answer is out.
  const idle = setInterval(() => {
    if ('closeIdleConnections' in server) server.closeIdleConnections();
  }, 100);
  idle.unref();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  clearInterval(idle);
  await closeJournal();
  await webhook?.stop();
  await audit.stop();
  await backups?.stop();
  process.stderr.write(`${await report()}\n`);
  await store.close();
  closeUpstream();
  clearTimeout(bound);
  logger.info({ signal }, 'stopped');
  logger.flush();
  process.exit(0);
}
process.on('SIGINT', (signal) => void shutdown(signal));
process.on('SIGTERM', (signal) => void shutdown(signal));
