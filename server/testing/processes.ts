/**
 * The one way tests and the bench run the project's processes: the app server
 * (`server/main.ts`, or a build's `dist-server/main.js`), the sandbox alone
 * (`server/sandbox-cli.ts`) and the CLIs, each a real process on a free 127.0.0.1 port where
 * it listens, tied to the test process (`reapOnExit`) and stopped by the test (SIGTERM, or
 * SIGKILL to simulate a crash). In a Vitest or Playwright run, `server/<name>.ts` runs from
 * the run's build of the sources (server/testing/server-build.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root: the processes' working folder unless told another (a release's). */
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface SpawnOptions {
  /**
   * The script, relative to `cwd`: `server/main.ts` when absent. A `.ts` script runs on node
   * with tsx's loader (one process, not the tsx CLI and its child: SIGKILL hits the server
   * itself as `kill -9` would, and the CLI's 30 ms SIGTERM handshake is missed on a loaded
   * machine); a `.js` one (a build) runs as it is.
   */
  script?: string;
  args?: string[];
  /** Added to the environment; a variable set to undefined is left out. */
  env?: Record<string, string | undefined>;
  /** Written to its standard input, then closed (no standard input when absent). */
  stdin?: string;
  /**
   * Start from this process's environment without what configures the server (LOYALTY_*, PORT,
   * APP_*, DATABASE_URL, …), so the machine's own settings never leak into a test. Default: the
   * whole environment.
   */
  cleanEnv?: boolean;
  /** The Node.js binary (this process's by default). */
  node?: string;
  /** The working folder (the repository's root by default; a release's checkout for the bench). */
  cwd?: string;
  /**
   * Run the `.ts` script through tsx even when the run has built the servers (`SERVER_BUILD`,
   * server/testing/server-build.ts): a test of a command line as `npm run` runs it.
   */
  sources?: boolean;
}

export interface SpawnedProcess {
  child: ChildProcess;
  /** Its output so far, live. */
  out: { stdout: string; stderr: string };
  /** Output so far (stdout + stderr, as it came), for failure messages. */
  output(): string;
  /** Its exit code once it exits and its output is read (null when a signal ended it). */
  exited: Promise<number | null>;
}

const CONFIGURING =
  /^(LOYALTY_|PORT$|HOST$|APP_|DATABASE_URL$|PUBLIC_ORIGIN$|SANDBOX_|TRUSTED_PROXIES$|BACKUP_)/;

/** Spawns one of the project's scripts, piping and collecting its output. */
export function spawnProcess(options: SpawnOptions = {}): SpawnedProcess {
  const script = options.script ?? 'server/main.ts';
  const base = options.cleanEnv
    ? Object.fromEntries(Object.entries(process.env).filter(([k]) => !CONFIGURING.test(k)))
    : process.env;
  const cwd = options.cwd ?? root;
  const built = options.sources === true ? null : builtScript(script, cwd);
  const loader = built === null && script.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child = spawn(
    options.node ?? process.execPath,
    [...loader, built ?? script, ...(options.args ?? [])],
    {
      cwd,
      env: { ...base, ...options.env },
      stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    },
  );
  reapOnExit(child);
  if (options.stdin !== undefined) child.stdin!.end(options.stdin);
  const out = { stdout: '', stderr: '' };
  let all = '';
  child.stdout!.on('data', (d: Buffer) => {
    out.stdout += d.toString();
    all += d.toString();
  });
  child.stderr!.on('data', (d: Buffer) => {
    out.stderr += d.toString();
    all += d.toString();
  });
  // 'close', not 'exit': its output is all read by then.
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  return { child, out, output: () => all, exited };
}

/**
 * The run's build of `script` (`server/<name>.ts` → `<SERVER_BUILD>/<name>.js`) when the run
 * built the servers and the script runs from this repository, else null: the sources.
 */
function builtScript(script: string, cwd: string): string | null {
  const dir = process.env.SERVER_BUILD;
  const name = /^server\/([\w-]+)\.ts$/.exec(script)?.[1];
  if (!dir || name === undefined || path.resolve(cwd) !== root) return null;
  const built = path.join(dir, `${name}.js`);
  return existsSync(built) ? built : null;
}

/** A command line's run: its exit code (null when a signal ended it) and what it printed. */
export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs one of the project's scripts (a command line) to its end. */
export async function runProcess(options: SpawnOptions = {}): Promise<Ran> {
  const run = spawnProcess(options);
  return { code: await run.exited, ...run.out };
}

export interface StartOptions extends SpawnOptions {
  /**
   * How its URL is known. Absent: from its start line (a JSON log line whose `msg` says
   * "listening" with a `url`, the app server's and the sandbox's), the process choosing a free
   * port itself. A path: the process is given a free port (`PORT`) and is ready once a GET of
   * that path answers 2xx (a release whose start line may differ).
   */
  readyPath?: string;
  /** After SIGTERM, how long `stop()` waits before SIGKILL (ms; default: as long as it takes). */
  stopGraceMs?: number;
}

export interface RunningProcess extends SpawnedProcess {
  /** http://127.0.0.1:PORT */
  url: string;
  /** SIGTERM (then SIGKILL after the grace, if one was set), then waits for the exit: its code. */
  stop(): Promise<number | null>;
  /** SIGKILL (`kill -9`), then waits for the exit. */
  kill9(): Promise<void>;
}

const START_MS = 30_000;

/** Spawns a server script and waits until it listens. */
export async function startProcess(options: StartOptions = {}): Promise<RunningProcess> {
  const port = options.readyPath === undefined ? null : await freePort();
  const env = port === null ? options.env : { ...options.env, PORT: String(port) };
  const spawned = spawnProcess({ ...options, env });
  const { child, exited } = spawned;
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  const stop = async (): Promise<number | null> => {
    if (!gone()) child.kill('SIGTERM');
    const grace = options.stopGraceMs;
    const timer = grace === undefined ? null : setTimeout(() => child.kill('SIGKILL'), grace);
    const code = await exited;
    if (timer !== null) clearTimeout(timer);
    return code;
  };
  const kill9 = async () => {
    if (!gone()) child.kill('SIGKILL');
    await exited;
  };
  try {
    const url =
      port === null
        ? await urlFromStartLine(spawned)
        : await readyOnPort(spawned, port, options.readyPath!);
    return { ...spawned, url, stop, kill9 };
  } catch (err) {
    await kill9();
    const script = options.script ?? 'server/main.ts';
    throw new Error(`${script}: ${(err as Error).message}\n${spawned.output()}`, { cause: err });
  }
}

async function urlFromStartLine(spawned: SpawnedProcess): Promise<string> {
  const until = Date.now() + START_MS;
  let read = 0;
  let ended = false;
  void spawned.exited.then(() => (ended = true));
  for (;;) {
    const text = spawned.out.stdout;
    const complete = text.lastIndexOf('\n') + 1;
    for (const line of text.slice(read, complete).split('\n')) {
      const url = listeningUrl(line);
      if (url !== null) return url;
    }
    read = complete;
    if (ended) throw new Error(`exited (${String(spawned.child.exitCode)}) before listening`);
    if (Date.now() > until) throw new Error(`did not start in ${START_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The origin a start line announces (`{"msg":"… listening …","url":"http://…"}`), or null. */
function listeningUrl(line: string): string | null {
  let parsed: { msg?: unknown; url?: unknown };
  try {
    parsed = JSON.parse(line) as typeof parsed;
  } catch {
    return null;
  }
  if (typeof parsed.url !== 'string' || !/listening/.test(String(parsed.msg))) return null;
  return new URL(parsed.url).origin;
}

async function readyOnPort(spawned: SpawnedProcess, port: number, readyPath: string) {
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + START_MS;
  for (;;) {
    if (spawned.child.exitCode !== null) throw new Error('exited before answering');
    try {
      const res = await fetch(`${url}${readyPath}`, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) return url;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`did not answer on ${url} in ${START_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A port free on 127.0.0.1 now (the OS picks it; the caller binds it next). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Children still running; killed if the test process exits without stopping them. */
const live = new Set<ChildProcess>();
let reaping = false;

/**
 * Ties `child` to this process: a test that times out never reaches its stop(), and a worker
 * can end without its hooks, so a server started by a test goes with the process that started
 * it (one was found still running an hour after a CI run whose spec had timed out).
 */
export function reapOnExit(child: ChildProcess): void {
  live.add(child);
  child.once('exit', () => live.delete(child));
  if (reaping) return;
  reaping = true;
  process.once('exit', () => {
    for (const c of live) c.kill('SIGKILL');
  });
}

/** `npm run sandbox` on a free port over the given SQLite file. */
export function startSandbox(dbPath: string): Promise<RunningProcess> {
  return startProcess({
    script: 'server/sandbox-cli.ts',
    env: { LOG_LEVEL: 'info', SANDBOX_PORT: '0', SANDBOX_DB: dbPath },
  });
}

/** The app server's APP_SECRET in these tests (credentials can be signed with it). */
export const APP_SECRET_FOR_TESTS = 'fault-tests-secret-0123456789abcdef';

/** The app server in live mode against `baseUrl` (the relay), establishment 1's demo tokens. */
export function startAppServer(
  baseUrl: string,
  env: Record<string, string> = {},
): Promise<RunningProcess> {
  return startProcess({
    env: {
      LOG_LEVEL: 'info',
      PORT: '0',
      HOST: '127.0.0.1',
      LOYALTY_BASE_URL: baseUrl,
      LOYALTY_APP_TOKEN: 'demo-app-token',
      LOYALTY_ACCESS_TOKEN: 'demo-access-token-1',
      LOYALTY_ESTABLISHMENT_ID: '1',
      LOYALTY_ESTABLISHMENT_NAME: 'Loja Demo',
      APP_SECRET: APP_SECRET_FOR_TESTS,
      ...env,
    },
  });
}

/** Reads a customer straight from the sandbox (not through the relay): its purchase count. */
export async function sandboxPurchases(sandboxUrl: string, celular: string): Promise<number> {
  const res = await fetch(`${sandboxUrl}/api/v4/estabelecimentos/1/clientes/buscar`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      'app-token': 'demo-app-token',
      'access-token': 'demo-access-token-1',
    },
    body: JSON.stringify({ celular }),
  });
  if (res.status === 404) return 0;
  if (res.status !== 200) throw new Error(`buscar answered ${res.status}`);
  const body = (await res.json()) as { data: { compras: number } };
  return body.data.compras;
}

/** A valid Brazilian mobile number no other test used, E.164. */
export function freshPhone(): string {
  const rest = String(Math.floor(Math.random() * 1e8)).padStart(8, '0');
  return `+55119${(1 + Math.floor(Math.random() * 9)).toString()}${rest.slice(1)}`;
}
