/**
 * Real processes for fault tests: the sandbox alone (`server/sandbox-cli.ts`) and the app
 * server (`server/main.ts`), each on a free 127.0.0.1 port, started with `tsx` and stopped by
 * the test (SIGTERM, or SIGKILL to simulate a crash).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface RunningProcess {
  url: string;
  child: ChildProcess;
  /** Output so far (stdout + stderr), for failure messages. */
  output(): string;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
  /** SIGKILL (`kill -9`), then waits for the exit. */
  kill9(): Promise<void>;
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

function start(
  script: string,
  env: Record<string, string>,
  urlOf: (line: Record<string, unknown>) => string | null,
): Promise<RunningProcess> {
  // One process (node with tsx's loader), not the tsx CLI and its child: SIGKILL must hit the
  // server itself, as `kill -9` would.
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  reapOnExit(child);
  let out = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stopWith = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} did not start in 30 s:\n${out}`));
    }, 30_000);
    let buffered = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      buffered += chunk.toString();
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        let parsed: Record<string, unknown>;
        try {
          parsed = JSON.parse(line) as Record<string, unknown>;
        } catch {
          continue;
        }
        const url = urlOf(parsed);
        if (url !== null) {
          clearTimeout(timer);
          resolve({
            url,
            child,
            output: () => out,
            stop: () => stopWith('SIGTERM'),
            kill9: () => stopWith('SIGKILL'),
          });
        }
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited (${code}) before listening:\n${out}`));
    });
  });
}

/** `npm run sandbox` on a free port over the given SQLite file. */
export function startSandbox(dbPath: string): Promise<RunningProcess> {
  return start('server/sandbox-cli.ts', { SANDBOX_PORT: '0', SANDBOX_DB: dbPath }, (line) => {
    if (line.msg !== 'sandbox listening' || typeof line.url !== 'string') return null;
    return new URL(line.url).origin;
  });
}

/** The app server's APP_SECRET in these tests (credentials can be signed with it). */
export const APP_SECRET_FOR_TESTS = 'fault-tests-secret-0123456789abcdef';

/** The app server in live mode against `baseUrl` (the relay), establishment 1's demo tokens. */
export function startAppServer(
  baseUrl: string,
  env: Record<string, string> = {},
): Promise<RunningProcess> {
  return start(
    'server/main.ts',
    {
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
    (line) =>
      typeof line.url === 'string' && /^listening on /.test(String(line.msg)) ? line.url : null,
  );
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
