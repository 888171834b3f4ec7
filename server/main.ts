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
import { embeddedSandbox } from './app/embedded';
import { createAppServer } from './app/app';
import type { AppServerOptions } from './app/app';
import { readServerEnv } from './app/env';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function die(message: string): never {
  process.stderr.write(`fidelidade-pdv: ${message}\n`);
  process.exit(1);
}

const read = readServerEnv(process.env);
if (!read.ok) die(read.error);
const env = read.env;

// Log lines are written to stdout asynchronously (a synchronous write per request cost
// 7-12 % of the CPU); pino flushes what is pending when the process exits.
const logger = pino(
  { level: process.env.LOG_LEVEL ?? 'info', timestamp: pino.stdTimeFunctions.isoTime },
  pino.destination({ dest: 1, sync: false }),
);
let closeUpstream = (): void => {};

let options: AppServerOptions;
const common = { distDir: path.join(root, 'dist'), logger };
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

// The postings journal (exactly-once pontuar): every posting carries the sale's
// Idempotency-Key and is journaled in the app server's store before it is sent.
let closeJournal = async (): Promise<void> => {};
{
  const { openStore } = await import('./store');
  const { startJournal } = await import('./app/postings/setup');
  const { upstreamCall } = await import('./app/postings/upstream');
  try {
    const store = await openStore({
      databaseUrl: process.env.DATABASE_URL ?? null,
      sqlitePath: path.resolve(root, process.env.APP_DB?.trim() || path.join('data', 'app.db')),
    });
    const postings = startJournal(
      process.env,
      store,
      upstreamCall(options),
      options.establishmentId,
      logger,
    );
    options = { ...options, postings };
    closeJournal = async () => {
      await postings.stop();
      await store.close();
    };
  } catch (err) {
    closeUpstream();
    die(`cannot open the postings journal: ${err instanceof Error ? err.message : String(err)}`);
  }
}

const app = createAppServer(options);
const server = serve(
  { fetch: app.fetch, port: env.port, hostname: env.host },
  (info: AddressInfo) => {
    const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
    const url = `http://${host}:${info.port}`;
    logger.info(
      { url, mode: options.mode, establishmentId: options.establishmentId },
      `listening on ${url}`,
    );
  },
);

server.on('error', (err: NodeJS.ErrnoException) => {
  closeUpstream();
  die(`cannot listen on ${env.host}:${env.port}: ${err.code ?? err.message}`);
});

let stopping = false;
function shutdown(signal: NodeJS.Signals): void {
  if (stopping) process.exit(1); // a second signal: stop now
  stopping = true;
  logger.info({ signal }, 'shutting down');
  const force = setTimeout(() => {
    if ('closeAllConnections' in server) server.closeAllConnections();
  }, 5_000);
  force.unref();
  server.close(() => {
    void closeJournal().finally(() => {
      closeUpstream();
      process.exit(0);
    });
  });
}
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
