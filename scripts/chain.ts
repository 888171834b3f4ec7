// `npm run chain -- up [--replicas=3] [--dir=data/chain]` / `npm run chain -- down`: a chain's
// deployment on one machine, as an operator would run it: PostgreSQL (Debian's binaries, a
// cluster in the folder on a free port), the sandbox as the one loyalty service every replica
// talks to (`npm run sandbox`, `LOYALTY_BASE_URL`), K app-server replicas (the built
// `dist-server/main.js` on the project's Node.js, one `DATABASE_URL` and `APP_SECRET`) and
// HAProxy in front (round robin, health check on `/readyz`, `X-Forwarded-For` with the
// replicas' `TRUSTED_PROXIES`). `up` leaves them running and writes `chain.json` in the folder;
// `down` stops them. The bench (`npm run bench -- --chain`) and the fault tests
// (`scripts/chain-faults.test.ts`) start the same chain with `startChain`.
//
// The stores are a parameter: the first is the deployment's default store (its token in the
// environment), the others join as an operator adds them (`npm run loja -- add`: sealed in the
// shared store) before the replicas start; the sandbox seeds its demo chain's stores 3, 4, ….

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { addChainStore } from '../server/app/domain/stores';
import { openStore } from '../server/store';
import { startPgCluster, stopPgClusterAt, type PgCluster } from '../server/testing/pg-server';
import { freePort } from '../server/testing/processes';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const HAPROXY = '/usr/sbin/haproxy';

export interface ChainOptions {
  /** App-server replicas behind the balancer. */
  replicas: number;
  /** Establishment ids the deployment serves: 1 (the default), then the sandbox's 3, 4, …. */
  stores: readonly number[];
  /** Working folder: the sandbox's database, HAProxy's configuration, every process's log. */
  dir: string;
  /** Processes outlive this one (`npm run chain -- up`); else they go with it. */
  detached?: boolean;
  /** Run `server/main.ts` through tsx instead of `dist-server/main.js` (tests: no build). */
  fromSources?: boolean;
  /**
   * A test run's build of the servers (`SERVER_BUILD`, server/testing/server-build.ts): the
   * sandbox and the replicas run its `sandbox-cli.js` and `main.js`, not the sources.
   */
  serverBuild?: string;
  /** HAProxy's health-check interval (ms); 1 s here, 5 s in docs/operations.md. */
  checkIntervalMs?: number;
  /** More environment for the replicas. */
  env?: Record<string, string>;
  /** How long each replica may take to answer /readyz 200 at start (ms; 60 s). */
  readyMs?: number;
  /** The sandbox logs a line per request it serves (sandbox.log): tests count its calls. */
  sandboxRequestLog?: boolean;
}

export interface ChainProcess {
  name: string;
  pid: number;
  url: string;
  child: ChildProcess;
}

export interface Chain {
  /** The balancer's URL: the one origin terminals open. */
  url: string;
  databaseUrl: string;
  secret: string;
  pg: PgCluster;
  sandbox: ChainProcess & { dbPath: string };
  replicas: ChainProcess[];
  haproxy: ChainProcess & { config: string };
  /** Every process, the cluster's postmaster included, by part: for CPU accounting. */
  parts(): { name: string; pid: number }[];
  /** `kill -9` of replica `i`; resolves once it is gone. */
  killReplica(i: number): Promise<void>;
  stop(): Promise<void>;
}

/** Why the chain cannot start here (no HAProxy), or null. */
export function haproxyUnavailableReason(): string | null {
  return existsSync(HAPROXY) ? null : `${HAPROXY} not found (apt-get install haproxy)`;
}

/** Connections the balancer opens to one replica at most (the replica's own cap is 256). */
export const REPLICA_MAXCONN = 200;

/** HAProxy's configuration for `replicas` (ports on 127.0.0.1) behind `port`. */
export function haproxyConfig(port: number, replicas: readonly number[], checkMs = 5000): string {
  return [
    'global',
    '  maxconn 4096',
    '',
    'defaults',
    '  mode http',
    // Appends the client to X-Forwarded-For: the replicas list this balancer in TRUSTED_PROXIES.
    '  option forwardfor',
    // A request that never reached a replica (connection refused) goes to another one; a
    // request a replica received is never sent twice by the balancer.
    '  retries 2',
    '  option redispatch',
    '  timeout connect 2s',
    '  timeout http-request 10s',
    '  timeout queue 10s',
    // Event streams (counter, kiosk) send a heartbeat every 15 s and long polls last at most
    // 20 s: 60 s of silence is a dead peer.
    '  timeout client 60s',
    '  timeout server 60s',
    '  timeout http-keep-alive 10s',
    '',
    'frontend pdv',
    `  bind 127.0.0.1:${port}`,
    '  default_backend replicas',
    '',
    'backend replicas',
    '  balance roundrobin',
    '  option httpchk GET /readyz',
    '  http-check expect status 200',
    // A busy replica answers /readyz late (its store's pool is shared with the postings): it
    // gets 5 s before it counts as a failure, so load alone does not take replicas out one
    // after another. A dead one refuses the connection and is out after `fall` checks anyway.
    '  timeout check 5s',
    // A replica closes connections past its own cap (MAX_CONNECTIONS, 256): the balancer
    // opens at most REPLICA_MAXCONN to each and queues the rest (`timeout queue`), leaving
    // room for the health checks and a local /metrics scrape.
    `  default-server inter ${checkMs}ms fall 2 rise 2 maxconn ${REPLICA_MAXCONN}`,
    ...replicas.map((p, i) => `  server replica${i + 1} 127.0.0.1:${p} check`),
    '',
  ].join('\n');
}

function launch(
  name: string,
  command: string,
  args: string[],
  env: Record<string, string>,
  options: { dir: string; detached: boolean },
): ChildProcess {
  const log = openSync(path.join(options.dir, `${name}.log`), 'a');
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', log, log],
    detached: options.detached,
  });
  if (options.detached) child.unref();
  else process.once('exit', () => child.kill('SIGKILL'));
  return child;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `url` until it answers `status` (any: 0); backoff with jitter, up to `ms`. */
export async function waitForStatus(url: string, status: number, ms = 60_000): Promise<void> {
  const until = Date.now() + ms;
  let delay = 50;
  for (;;) {
    let last: string;
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await res.body?.cancel();
      if (res.status === status || status === 0) return;
      last = `HTTP ${res.status}`;
    } catch (err) {
      last = err instanceof Error ? err.message : String(err);
    }
    if (Date.now() > until) throw new Error(`${url}: no ${status} in ${ms} ms (${last})`);
    await sleep(delay / 2 + Math.random() * delay);
    delay = Math.min(delay * 2, 1_000);
  }
}

/** The replicas' service configuration: the default store, `stores[0]`. */
function storeEnv(stores: readonly number[], sandboxUrl: string): Record<string, string> {
  const id = stores[0]!;
  return {
    LOYALTY_BASE_URL: sandboxUrl,
    LOYALTY_APP_TOKEN: 'demo-app-token',
    LOYALTY_ACCESS_TOKEN: `demo-access-token-${id}`,
    LOYALTY_ESTABLISHMENT_ID: String(id),
  };
}

export async function startChain(options: ChainOptions): Promise<Chain> {
  const dir = path.resolve(options.dir);
  mkdirSync(dir, { recursive: true });
  const detached = options.detached ?? false;
  const node = process.execPath;
  const secret = `chain-${Math.random().toString(36).slice(2)}-0123456789abcdefghij`;
  const started: ChildProcess[] = [];
  const pg = await startPgCluster();
  try {
    const databaseUrl = await pg.createDatabase();
    const dbPath = path.join(dir, 'sandbox.db');
    const sandboxPort = await freePort();
    const sandboxChild = launch(
      'sandbox',
      node,
      options.serverBuild
        ? [path.join(options.serverBuild, 'sandbox-cli.js')]
        : ['--import', 'tsx', 'server/sandbox-cli.ts'],
      {
        SANDBOX_PORT: String(sandboxPort),
        SANDBOX_DB: dbPath,
        SANDBOX_STORES: String(Math.max(1, ...options.stores.map((id) => id - 1))),
        LOG_LEVEL: options.sandboxRequestLog === true ? 'info' : 'warn',
      },
      { dir, detached },
    );
    started.push(sandboxChild);
    const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
    const balancerPort = await freePort();
    const url = `http://127.0.0.1:${balancerPort}`;
    await waitForStatus(sandboxUrl, 0);
    await addStores(databaseUrl, secret, options.stores);
    const ports = await Promise.all(Array.from({ length: options.replicas }, () => freePort()));
    const main = options.serverBuild
      ? [path.join(options.serverBuild, 'main.js')]
      : options.fromSources
        ? ['--import', 'tsx', 'server/main.ts']
        : [path.join(root, 'dist-server', 'main.js')];
    if (!options.fromSources && !existsSync(main[0]!)) {
      throw new Error('dist-server/main.js is missing: npm run build && npm run build:server');
    }
    const replicaChildren = ports.map((port, i) => {
      const child = launch(
        `replica${i + 1}`,
        node,
        main,
        {
          PORT: String(port),
          HOST: '127.0.0.1',
          DATABASE_URL: databaseUrl,
          APP_SECRET: secret,
          PUBLIC_ORIGIN: url,
          TRUSTED_PROXIES: '127.0.0.1',
          LOG_LEVEL: 'warn',
          ...storeEnv(options.stores, sandboxUrl),
          ...options.env,
        },
        { dir, detached },
      );
      started.push(child);
      return child;
    });
    await Promise.all(
      ports.map((p) => waitForStatus(`http://127.0.0.1:${p}/readyz`, 200, options.readyMs)),
    );
    const config = path.join(dir, 'haproxy.cfg');
    writeFileSync(config, haproxyConfig(balancerPort, ports, options.checkIntervalMs ?? 1000));
    const haproxyChild = launch('haproxy', HAPROXY, ['-f', config, '-db'], {}, { dir, detached });
    started.push(haproxyChild);
    await waitForStatus(`${url}/readyz`, 200);
    const replicas = replicaChildren.map((child, i) => ({
      name: `replica${i + 1}`,
      pid: child.pid!,
      url: `http://127.0.0.1:${ports[i]}`,
      child,
    }));
    const sandbox = {
      name: 'sandbox',
      pid: sandboxChild.pid!,
      url: sandboxUrl,
      child: sandboxChild,
      dbPath,
    };
    const haproxy = { name: 'haproxy', pid: haproxyChild.pid!, url, child: haproxyChild, config };
    return {
      url,
      databaseUrl,
      secret,
      pg,
      sandbox,
      replicas,
      haproxy,
      parts: () => [
        ...replicas.map((r) => ({ name: r.name, pid: r.pid })),
        { name: 'postgresql', pid: pg.pid() },
        { name: 'haproxy', pid: haproxy.pid },
        { name: 'sandbox', pid: sandbox.pid },
      ],
      async killReplica(i) {
        await stopChild(replicas[i]!.child, 'SIGKILL');
      },
      async stop() {
        await Promise.all([...started].reverse().map((c) => stopChild(c, 'SIGTERM')));
        await pg.stop();
      },
    };
  } catch (err) {
    for (const c of started) c.kill('SIGKILL');
    await pg.stop();
    throw err;
  }
}

/**
 * The stores besides the default one, added as `npm run loja -- add` does (the sandbox's demo
 * tokens `demo-access-token-<id>`, sealed with the chain's APP_SECRET) in a store migrated first.
 */
async function addStores(databaseUrl: string, secret: string, stores: readonly number[]) {
  if (stores.length < 2) return;
  const store = await openStore({ databaseUrl });
  try {
    for (const id of stores.slice(1)) {
      await addChainStore(store, secret, stores[0]!, {
        establishmentId: id,
        name: `Loja ${id}`,
        accessToken: `demo-access-token-${id}`,
      });
    }
  } finally {
    await store.close();
  }
}

/** Signals `child` and waits for its exit (SIGKILL after 10 s). */
function stopChild(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill(signal);
  });
}

interface ChainState {
  url: string;
  databaseUrl: string;
  pgDir: string;
  pids: { name: string; pid: number }[];
}

async function up(dir: string, replicas: number): Promise<void> {
  if (existsSync(path.join(dir, 'chain.json'))) {
    throw new Error(`${dir}/chain.json exists: npm run chain -- down first`);
  }
  const reason = haproxyUnavailableReason();
  if (reason !== null) throw new Error(reason);
  const chain = await startChain({ replicas, stores: [1], dir, detached: true });
  const state: ChainState = {
    url: chain.url,
    databaseUrl: chain.databaseUrl,
    pgDir: chain.pg.dir,
    pids: chain.parts().filter((p) => p.name !== 'postgresql'),
  };
  writeFileSync(path.join(dir, 'chain.json'), `${JSON.stringify(state, null, 2)}\n`);
  console.log(
    [
      `chain up: ${chain.url}  (HAProxy, round robin over ${replicas} replicas)`,
      ...chain.replicas.map((r) => `  ${r.name} ${r.url}  pid ${r.pid}`),
      `  sandbox ${chain.sandbox.url}  PostgreSQL ${chain.databaseUrl}`,
      `  logs and haproxy.cfg in ${dir}`,
      `enroll a terminal: DATABASE_URL=${chain.databaseUrl} npm run terminal -- add --role caixa`,
      'stop: npm run chain -- down',
    ].join('\n'),
  );
}

async function down(dir: string): Promise<void> {
  const file = path.join(dir, 'chain.json');
  if (!existsSync(file)) throw new Error(`no chain running from ${dir} (no chain.json)`);
  const state = JSON.parse(readFileSync(file, 'utf8')) as ChainState;
  for (const p of state.pids) {
    try {
      process.kill(p.pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
  }
  for (const p of state.pids) {
    for (let i = 0; i < 100 && alive(p.pid); i++) await sleep(100);
    if (alive(p.pid)) process.kill(p.pid, 'SIGKILL');
  }
  await stopPgClusterAt(state.pgDir);
  rmSync(file);
  console.log(`chain down: stopped ${state.pids.map((p) => p.name).join(', ')} and PostgreSQL`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function cli(argv: readonly string[]): Promise<void> {
  const [command, ...rest] = argv;
  let dir = path.join(root, 'data', 'chain');
  let replicas = 3;
  for (const a of rest) {
    const m = /^--(dir|replicas)=(.+)$/.exec(a);
    if (m?.[1] === 'dir') dir = path.resolve(m[2]!);
    else if (m?.[1] === 'replicas' && Number(m[2]) >= 1) replicas = Number(m[2]);
    else throw new Error(`unknown option ${a} (--replicas=N, --dir=PATH)`);
  }
  if (command === 'up') await up(dir, replicas);
  else if (command === 'down') await down(dir);
  else throw new Error('usage: npm run chain -- up [--replicas=3] [--dir=data/chain] | down');
}

if (
  process.argv[1] !== undefined &&
  path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)
) {
  cli(process.argv.slice(2)).catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exitCode = 1;
  });
}
