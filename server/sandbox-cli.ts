// `npm run sandbox`: the stand-in service alone, over HTTP.
//
//   SANDBOX_PORT (default 8787), SANDBOX_HOST (default 127.0.0.1),
//   SANDBOX_DB (default data/sandbox.db, relative to the working directory; created, migrated
//   and seeded when missing, kept across restarts), SANDBOX_STORES (default 1: the demo
//   chain's stores 3, 4, … besides establishment 1 are seeded only when asked, chain-seed.ts).
//
// Every answer carries the app server's security headers and Cache-Control: no-store.
// One log line per request: method, path, status, ms. Never headers, bodies or query strings,
// so no token, password or CPF reaches the log.

import { serve } from '@hono/node-server';
import { resolve } from 'node:path';
import pino from 'pino';
import { withSecurityHeaders } from './app/http/security';
import { loggedFetch } from './sandbox/logged-fetch';
import { openSandbox, type Sandbox } from './sandbox/sandbox';

const log = pino({ name: 'sandbox', level: process.env.LOG_LEVEL ?? 'info' });

function port(value: string | undefined): number {
  if (value === undefined || value === '') return 8787;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) {
    throw new Error(`SANDBOX_PORT must be a port number, got ${JSON.stringify(value)}`);
  }
  return n;
}

/** SANDBOX_STORES: the demo chain's length (1 … 1000). */
function chainStores(value: string | undefined): number {
  if (value === undefined || value === '') return 1;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 1000) {
    throw new Error(
      `SANDBOX_STORES must be an integer from 1 to 1000, got ${JSON.stringify(value)}`,
    );
  }
  return n;
}

function main(): void {
  const listenPort = port(process.env.SANDBOX_PORT);
  const stores = chainStores(process.env.SANDBOX_STORES);
  const host = process.env.SANDBOX_HOST || '127.0.0.1';
  const dbPath = resolve(process.env.SANDBOX_DB || 'data/sandbox.db');

  let sandbox: Sandbox;
  try {
    sandbox = openSandbox({
      dbPath,
      chainStores: stores,
      onError: (err) =>
        log.error(
          {
            err:
              err instanceof Error
                ? { name: err.name, message: err.message, stack: err.stack }
                : String(err),
          },
          'unexpected error',
        ),
    });
  } catch (err) {
    log.fatal(
      { dbPath, reason: err instanceof Error ? err.message : String(err) },
      'cannot open the sandbox database',
    );
    process.exitCode = 1;
    return;
  }

  const server = serve(
    {
      hostname: host,
      port: listenPort,
      // The same security headers as the app server sends.
      fetch: withSecurityHeaders(loggedFetch(sandbox, log)),
    },
    (info) => {
      log.info(
        { url: `http://${host}:${info.port}/api/v4/estabelecimentos/1/recompensas`, dbPath },
        'sandbox listening',
      );
    },
  );

  server.on('error', (err) => {
    log.fatal({ reason: err.message }, 'cannot listen');
    sandbox.close();
    process.exit(1);
  });

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping');
    const force = setTimeout(() => {
      sandbox.close();
      process.exit(0);
    }, 5000);
    force.unref();
    server.close(() => {
      sandbox.close();
      log.info('stopped');
      process.exit(0);
    });
    if ('closeIdleConnections' in server) server.closeIdleConnections();
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main();
