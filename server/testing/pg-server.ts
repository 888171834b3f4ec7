/**
 * A throwaway PostgreSQL cluster for tests, from Debian's package (`/usr/lib/postgresql/N`):
 * initdb in a temporary folder, started on a free 127.0.0.1 port with its socket in that
 * folder, durability off (fsync=off: it is deleted at the end), stopped by `stop()`.
 * As root, initdb/postgres refuse to run, so they run as the `postgres` user via runuser.
 * No Vitest here: `scripts/chain.ts` starts its cluster with it outside the test runner.
 */
import { execFile } from 'node:child_process';
import {
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './processes';

const run = promisify(execFile);

export interface PgCluster {
  /** postgres://… of the cluster's `postgres` database. */
  url: string;
  /** Its folder (data, socket, log): `stopPgClusterAt(dir)` stops it from another process. */
  dir: string;
  /** A new empty database on the cluster; its URL. */
  createDatabase(): Promise<string>;
  /** The postmaster's process id (it forks a process per connection). */
  pid(): number;
  /** Stops the server (fast shutdown: open connections are cut); the data stays. */
  pause(): Promise<void>;
  /** Starts it again on the same port after pause(). */
  resume(): Promise<void>;
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
  const startServer = () =>
    exec('pg_ctl', [
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
  try {
    await startServer();
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let n = 0;
  return {
    url,
    dir,
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
    pid() {
      return Number(readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    },
    async pause() {
      await exec('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
    },
    async resume() {
      await startServer();
    },
    stop: () => stopPgClusterAt(dir),
  };
}

/** Stops the cluster in `dir` (started by startPgCluster) and deletes it. */
export async function stopPgClusterAt(dir: string): Promise<void> {
  const pgCtl = path.join(findPgBin() ?? '/usr/lib/postgresql/15/bin', 'pg_ctl');
  const args = ['-D', path.join(dir, 'data'), '-m', 'immediate', '-w', 'stop'];
  await (
    userInfo().uid === 0
      ? run('runuser', ['-u', 'postgres', '--', pgCtl, ...args])
      : run(pgCtl, args)
  ).catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
}

async function pgUser(): Promise<{ uid: number; gid: number }> {
  const { stdout } = await run('id', ['-u', 'postgres']);
  const { stdout: g } = await run('id', ['-g', 'postgres']);
  return { uid: Number(stdout.trim()), gid: Number(g.trim()) };
}
