/** Helpers for tests that run the real app server process (`server/main.ts`) and the CLI. */
import { execFile, execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { readEngines, satisfies } from '../ops/runtime';
import { reapOnExit } from './processes';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const tsx = path.join(root, 'node_modules', '.bin', 'tsx');

/** The environment without anything that configures the server, plus `env`. */
function cleanEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const configuring =
    /^(LOYALTY_|PORT$|HOST$|APP_|DATABASE_URL$|PUBLIC_ORIGIN$|SANDBOX_|TRUSTED_PROXIES$|BACKUP_)/;
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !configuring.test(k)),
  );
  return { ...clean, ...env };
}

/**
 * Node with tsx's loader rather than the tsx CLI: the CLI relays SIGTERM with a 30 ms
 * handshake that a loaded machine misses (it then kills the server, exit 143).
 */
/** `server/main.ts` with `env` on `node` (this process's Node.js by default). */
export function start(env: Record<string, string>, node = process.execPath): ChildProcess {
  const child = spawn(node, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: cleanEnv(env),
    stdio: 'pipe',
  });
  reapOnExit(child);
  return child;
}

export function collect(child: ChildProcess) {
  const out = { stdout: '', stderr: '' };
  child.stdout?.on('data', (d: Buffer) => (out.stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out.stderr += d.toString()));
  return out;
}

export function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
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

/** Starts the server and waits for its start line. `stop()` ends it with SIGTERM. */
export async function startServer(env: Record<string, string>) {
  const child = start({ PORT: '0', LOG_LEVEL: 'info', ...env });
  const out = collect(child);
  const done = exited(child);
  try {
    const [, url] = await waitFor(() => out.stdout, /listening on (http:\/\/127\.0\.0\.1:\d+)/);
    return {
      url: url!,
      child,
      out,
      async stop(): Promise<number | null> {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 8_000);
        const code = await done;
        clearTimeout(timer);
        return code;
      },
    };
  } catch (err) {
    child.kill('SIGKILL');
    throw new Error(`${String(err)}\nstderr: ${out.stderr}`, { cause: err });
  }
}

/** `npm run terminal -- …args` with `env`; its stdout. */
export async function terminalCli(args: string[], env: Record<string, string>): Promise<string> {
  const { stdout } = await promisify(execFile)(tsx, ['server/terminal-cli.ts', ...args], {
    cwd: root,
    env: cleanEnv(env),
  });
  return stdout;
}

/** `npm run doctor` with `env` (and nothing else that configures the server) on `node`: its output. */
export function doctorCli(
  env: Record<string, string>,
  node = process.execPath,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(node, ['--import', 'tsx', 'server/doctor-cli.ts'], {
      cwd: root,
      env: cleanEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    reapOnExit(child);
    const out = collect(child);
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, ...out }));
  });
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
