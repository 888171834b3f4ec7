/**
 * A throwaway PostgreSQL cluster for tests, from Debian's package (`/usr/lib/postgresql/N`):
 * initdb in a temporary folder, started on a free 127.0.0.1 port with its socket in that
 * folder, durability off (fsync=off: it is deleted at the end), stopped by `stop()`.
 * As root, initdb/postgres refuse to run, so they run as the `postgres` user via runuser.
 */
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { describe } from 'vitest';

const run = promisify(execFile);

export interface PgCluster {
  /** postgres://… of the cluster's `postgres` database. */
  url: string;
  /** A new empty database on the cluster; its URL. */
  createDatabase(): Promise<string>;
  stop(): Promise<void>;
}

/** The newest installed PostgreSQL's bin folder, or null. */
export function findPgBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? null : path.join(root, versions[0], 'bin');
}

/**
 * Why PostgreSQL tests cannot run here, or null when they can. Under CI=true a missing
 * PostgreSQL is a failure (the caller throws), not a skip.
 */
export function pgUnavailableReason(): string | null {
  return findPgBin() === null
    ? 'PostgreSQL binaries not found under /usr/lib/postgresql/*/bin (apt-get install postgresql)'
    : null;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export async function startPgCluster(): Promise<PgCluster> {
  const bin = findPgBin();
  if (bin === null) throw new Error(pgUnavailableReason()!);
  const asRoot = userInfo().uid === 0;
  const dir = mkdtempSync(path.join(tmpdir(), 'pg-test-'));
  const data = path.join(dir, 'data');
  const socket = path.join(dir, 'sock');
  mkdirSync(socket);
  if (asRoot) {
    const { uid, gid } = await pgUser();
    chownSync(dir, uid, gid);
    chownSync(socket, uid, gid);
  }
  const exec = (tool: string, args: string[]) =>
    asRoot
      ? run('runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args])
      : run(path.join(bin, tool), args);

  await exec('initdb', [
    '-D',
    data,
    '-U',
    'postgres',
    '--auth=trust',
    '-E',
    'UTF8',
    '--no-sync',
    '--no-instructions',
  ]);
  const port = await freePort();
  const opts = [
    `-p ${port}`,
    `-k ${socket}`,
    '-c listen_addresses=127.0.0.1',
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=200',
  ].join(' ');
  try {
    await exec('pg_ctl', [
      '-D',
      data,
      '-o',
      opts,
      '-l',
      path.join(dir, 'log'),
      '-w',
      '-t',
      '30',
      'start',
    ]);
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let n = 0;
  return {
    url,
    async createDatabase() {
      const name = `t_${process.pid}_${++n}`;
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`create database ${name}`);
      } finally {
        await client.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    async stop() {
      await exec('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function pgUser(): Promise<{ uid: number; gid: number }> {
  const { stdout } = await run('id', ['-u', 'postgres']);
  const { stdout: g } = await run('id', ['-g', 'postgres']);
  return { uid: Number(stdout.trim()), gid: Number(g.trim()) };
}

/** The store engines a suite runs on when both can. */
const STORE_ENGINES = ['sqlite', 'postgres'] as const;

/**
 * What a test left out of the run says in its meta (Vitest's JSON report carries it):
 * `scripts/test-summary.mjs` counts these by `why`, so a run without PostgreSQL says so on the
 * line before its last instead of looking like a full run.
 */
export interface LeftOut {
  /** What the test needs: "PostgreSQL". */
  needs: string;
  why: string;
}

declare module 'vitest' {
  interface TaskMeta {
    leftOut?: LeftOut;
  }
}

/** `describe` options: skipped, with the reason in each of its tests' meta, or run. */
type SuiteOptions = { skip: boolean; meta?: { leftOut: LeftOut } };

/**
 * Options for a `describe` that needs PostgreSQL. Without it the suite is skipped, each of its
 * tests reported as skipped with the reason (not silently absent from the run); under CI=true
 * a missing PostgreSQL throws instead, failing the file.
 */
export function postgresSuite(): SuiteOptions {
  const reason = pgUnavailableReason();
  if (reason === null) return { skip: false };
  if (process.env.CI === 'true') throw new Error(`CI=true and ${reason}`);
  console.warn(`skipping PostgreSQL tests: ${reason}`);
  return { skip: true, meta: { leftOut: { needs: 'PostgreSQL', why: reason } } };
}

/**
 * `describe.each(STORE_ENGINES)(name, fn)`, `%s` in `name` being the engine, with each
 * engine's options: the PostgreSQL suite is skipped with its reason when PostgreSQL is not
 * installed (see `postgresSuite`).
 */
export function describeEngines(
  name: string,
  fn: (engine: (typeof STORE_ENGINES)[number]) => void,
): void {
  for (const engine of STORE_ENGINES) {
    const options = engine === 'postgres' ? postgresSuite() : { skip: false };
    describe(name.replace('%s', engine), options, () => fn(engine));
  }
}

/**
 * For a test file: the engines its store suite runs on here, for its shared setup (a cluster
 * is started only when the PostgreSQL half runs). SQLite always; PostgreSQL when installed
 * (under CI=true it must be).
 */
export function storeEngines(): ('sqlite' | 'postgres')[] {
  const reason = pgUnavailableReason();
  if (reason === null) return ['sqlite', 'postgres'];
  if (process.env.CI === 'true') throw new Error(`CI=true and ${reason}`);
  return ['sqlite'];
}
