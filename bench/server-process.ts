// The app server as `npm start` runs it (node dist-server/main.js, compiled by `npm run
// build:server`) on a free 127.0.0.1 port with a fresh sandbox database, for the browser
// figures. Stopped with SIGTERM, or SIGKILL when it does not stop.

import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { build } from 'vite';

export interface RunningServer {
  url: string;
  stop(): Promise<void>;
}

export async function buildServer(root: string): Promise<void> {
  await build({ root, configFile: path.join(root, 'vite.server.config.ts'), logLevel: 'warn' });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      s.close(() => resolve(port));
    });
  });
}

export async function startServer(
  root: string,
  dbPath: string,
  env: Record<string, string> = {},
): Promise<RunningServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(root, 'dist-server', 'main.js')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SANDBOX_DB: dbPath,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`app server exited: ${stderr.slice(0, 500)}`);
    try {
      const res = await fetch(`${url}/api/config`, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`app server did not start on ${url}: ${stderr.slice(0, 500)}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, stop };
}
