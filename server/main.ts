/**
 * Starts the app server: `npm start` (after `vite build`) or `npm run serve`.
 * Without LOYALTY_BASE_URL it embeds the sandbox in this process; with it, it proxies to
 * the live service. See server/README-server.md for the variables.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { embeddedSandbox } from './app/embedded';
import { createAppServer } from './app/app';
import type { AppServerOptions } from './app/app';
import { readConfig, resolveAppDb } from './app/config';
import { createAuditTrail } from './app/domain/audit';
import { createLifecycle } from './app/domain/ops/lifecycle';
import { createMetrics } from './app/domain/ops/metrics';
import { startBackupSchedule } from './ops/backup-schedule';
import type { BackupSchedule } from './ops/backup-schedule';
import { currentRuntime } from './ops/runtime';
import { openStore, storeCounts } from './store';
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

/** APP_SECRET, or in sandbox mode a random one kept beside the store (created once). */
function sandboxSecret(): string {
  const file = path.join(path.dirname(appDb), 'app-secret');
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, randomBytes(32).toString('base64url') + '\n', { mode: 0o600, flag: 'wx' });
  }
  return readFileSync(file, 'utf8').trim();
}
const secret = accessEnv.appSecret ?? sandboxSecret();

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

let options: AppServerOptions;
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
  audit,
};
if (env.mode === 'live') {
  options = {
    ...common,
    mode: 'live',
    upstream: { fetch: (req: Request) => fetch(req) },
    upstreamBaseUrl: env.baseUrl,
    appToken: env.appToken,
    accessToken: env.accessToken,
    establishmentId: env.establishmentId,
    establishmentName: env.establishmentName,
  };
} else {
  const dbPath =
    env.sandboxDb === null ? path.join(root, 'data', 'sandbox.db') : path.resolve(env.sandboxDb);
  mkdirSync(path.dirname(dbPath), { recursive: true });
  const { openSandbox } = await import('./sandbox/sandbox');
  let sandbox: ReturnType<typeof openSandbox>;
  try {
    sandbox = openSandbox({
      dbPath,
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
  options = { ...common, ...upstream };
}
// PDV_SENHA_ATENDENTE: the PDV's own postings (the sandbox's demo password by default).
if (config.pdv.password !== undefined) options = { ...options, pdvPassword: config.pdv.password };

// The postings journal (exactly-once pontuar): every posting carries the sale's
// Idempotency-Key and is journaled in the app server's store before it is sent.
let closeJournal = async (): Promise<void> => {};
{
  const { startCircuit, startJournal } = await import('./app/domain/journal/setup');
  const { clientOf } = await import('./app/upstream/client');
  try {
    const contingency = config.contingency;
    // Every upstream call is counted and timed (/metrics), the circuit's probe included.
    options = { ...options, upstream: metrics.wrap(options.upstream) };
    // Contingency: every upstream request feeds the circuit; its probe goes straight.
    const circuit = startCircuit({
      probe: clientOf(options).call,
      logger,
      failures: contingency.failures,
      probeMs: contingency.probeMs,
    });
    options = { ...options, upstream: circuit.wrap(options.upstream), circuit };
    // Vigilância: each posting evaluated once settled, off its path; the night's re-evaluation.
    const { createVigilancia } = await import('./app/domain/vigilancia/service');
    const vigilancia = createVigilancia({
      store,
      establishmentId: options.establishmentId,
      log: logger,
      nightlyHour: config.conferencia.nightlyHour,
      onAlert: metrics.alertRaised,
    });
    vigilancia.start();
    options = { ...options, vigilancia };
    const postings = startJournal({
      store,
      call: clientOf(options).call,
      establishmentId: options.establishmentId,
      logger,
      limits: config.journal,
      observer: metrics.journal,
      onSettled: vigilancia.onSettled,
      contingency: { circuit, appSecret: secret, limits: contingency.journal },
    });
    options = { ...options, postings };
    metrics.watch(postings);
    // The conferência: reads only (clientes/buscar), through the circuit, at its own pace.
    const { createConferencia } = await import('./app/domain/conferencia/service');
    const reads = clientOf(options);
    const conferencia = createConferencia({
      store,
      establishmentId: options.establishmentId,
      buscar: (body, signal) => reads.call('buscar', body, signal),
      circuitOpen: () => circuit.isOpen(),
      log: logger,
      readsPerSecond: config.conferencia.readsPerSecond,
      nightlyHour: config.conferencia.nightlyHour,
    });
    options = { ...options, conferencia };
    metrics.watchConferencia(() => conferencia.lastFindings());
    conferencia.run();
    closeJournal = async () => {
      circuit.stop();
      await conferencia.stop();
      await postings.stop();
      await vigilancia.stop();
    };
  } catch (err) {
    closeUpstream();
    void store.close();
    die(`cannot open the postings journal: ${err instanceof Error ? err.message : String(err)}`);
  }
}

const app = createAppServer(options);
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
        mode: options.mode,
        establishmentId: options.establishmentId,
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
