// The app server as `npm start` runs it (node dist-server/main.js, compiled by `npm run
// build:server`) on a free 127.0.0.1 port with a fresh sandbox database, for the browser
// figures: the tests' own process starter, ready once /api/config answers (a previous
// release's start line may differ). Stopped with SIGTERM, or SIGKILL when it does not stop.

import path from 'node:path';
import { build } from 'vite';
import { startProcess } from '../server/testing/processes';

export interface RunningServer {
  url: string;
  stop(): Promise<unknown>;
}

export async function buildServer(root: string): Promise<void> {
  await build({ root, configFile: path.join(root, 'vite.server.config.ts'), logLevel: 'warn' });
}

export function startServer(
  root: string,
  dbPath: string,
  env: Record<string, string> = {},
): Promise<RunningServer> {
  return startProcess({
    script: path.join('dist-server', 'main.js'),
    cwd: root,
    env: { HOST: '127.0.0.1', SANDBOX_DB: dbPath, LOG_LEVEL: 'warn', ...env },
    readyPath: '/api/config',
    stopGraceMs: 5_000,
  });
}
