/** Helpers for tests that run the real app server process (`server/main.ts`) and the CLI. */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { readEngines, satisfies } from '../ops/runtime';
import { root, spawnProcess, startProcess } from './processes';
import type { RunningProcess, SpawnedProcess } from './processes';

export { root };

/** `server/main.ts` with `env` alone (nothing else that configures it) on `node`, not awaited. */
export function start(env: Record<string, string>, node?: string): SpawnedProcess {
  return spawnProcess({ env, node, cleanEnv: true });
}

export async function waitFor(
  read: () => string,
  pattern: RegExp,
  ms = 20_000,
): Promise<RegExpMatchArray> {
  const until = Date.now() + ms;
  for (;;) {
    const m = read().match(pattern);
    if (m) return m;
    if (Date.now() > until) throw new Error(`timed out waiting for ${pattern}: ${read()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * `server/main.ts` with `env` alone on a free port, once it listens (the embedded sandbox
 * unless `env` says otherwise). `stop()` ends it with SIGTERM (SIGKILL after 8 s).
 */
export function startServer(env: Record<string, string>): Promise<RunningProcess> {
  return startProcess({
    env: { PORT: '0', LOG_LEVEL: 'info', ...env },
    cleanEnv: true,
    stopGraceMs: 8_000,
  });
}

/** `npm run terminal -- …args` with `env`; its stdout (throws on a non-zero exit). */
export async function terminalCli(args: string[], env: Record<string, string>): Promise<string> {
  const run = spawnProcess({ script: 'server/terminal-cli.ts', args, env, cleanEnv: true });
  const code = await run.exited;
  if (code !== 0) throw new Error(`terminal ${args.join(' ')}: exit ${code}\n${run.output()}`);
  return run.out.stdout;
}

/** `npm run doctor` with `env` (and nothing else that configures the server) on `node`: its output. */
export async function doctorCli(
  env: Record<string, string>,
  node?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = spawnProcess({ script: 'server/doctor-cli.ts', env, node, cleanEnv: true });
  const code = await run.exited;
  return { code, ...run.out };
}

/** Adds a terminal with the CLI and returns its code. */
export async function newCode(
  env: Record<string, string>,
  role: string,
  name: string,
): Promise<{ id: number; code: string }> {
  const out = await terminalCli(['add', '--role', role, '--name', name], env);
  const id = /^Terminal (\d+) /m.exec(out)?.[1];
  const code = /Código de registro: (\S+)/.exec(out)?.[1];
  if (id === undefined || code === undefined) throw new Error(`unexpected CLI output: ${out}`);
  return { id: Number(id), code };
}

/**
 * Redeems `code` like the browser does; the cookie to send afterwards ("name=value").
 * Enrollments from one address are rate limited (10 a minute): a 429's Retry-After is waited
 * out, up to four times.
 */
export async function enroll(url: string, code: string): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(`${url}/api/terminal/registrar`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url },
      body: JSON.stringify({ codigo: code }),
    });
    if (res.status === 429 && attempt < 5) {
      const seconds = Number(res.headers.get('retry-after') ?? '1');
      await new Promise((r) => setTimeout(r, Math.max(1, seconds) * 1_000));
      continue;
    }
    if (res.status !== 200) throw new Error(`enroll: ${res.status} ${await res.text()}`);
    return res.headers.get('set-cookie')!.split(';')[0]!;
  }
}

/**
 * A raw HTTP request (any method, TRACE and PROPFIND included; any Host), which fetch
 * refuses to send.
 */
export function rawRequest(
  url: string,
  options: { method: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<{
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { hostname, port, method: options.method, path: options.path, headers: options.headers },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/**
 * The machine's own `/usr/bin/node` when it is a version package.json does not support (Node.js
 * 20 on CI's machine), to run the CLIs on for real; null elsewhere.
 */
export function unsupportedSystemNode(): { path: string; version: string } | null {
  const system = '/usr/bin/node';
  if (!existsSync(system)) return null;
  const version = execFileSync(system, ['--version'], { encoding: 'utf8' }).trim();
  return satisfies(version, readEngines(root)) ? null : { path: system, version };
}
