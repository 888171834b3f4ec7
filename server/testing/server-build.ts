/**
 * The app server, the sandbox and the CLIs built once per test run (`vite.server.config.ts`
 * in `--mode servers`, the way `npm start` builds `dist-server/`), so that the processes a run
 * starts (hundreds) load plain JavaScript instead of transpiling the sources through tsx each
 * time: about 1 s of CPU less per app server, 0.7 s per CLI. Vitest's global setup and
 * Playwright's config build them and name the folder in `SERVER_BUILD`; `spawnProcess` then
 * runs `<SERVER_BUILD>/<name>.js` for `server/<name>.ts`. Without it (a file run through
 * another tool, a release's checkout), or with `sources: true`, the sources run through tsx.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { root } from './processes';

/**
 * Builds every entry point into a new folder of the repository's root, one level down as
 * `server/` is (the modules that find the root from their own URL find it from there too), and
 * names it in `process.env.SERVER_BUILD` for the processes this one starts; the folder.
 */
export function buildServers(): string {
  // A run that was killed before its teardown left its folder: the ones of processes gone.
  for (const old of readdirSync(root)) {
    const pid = /^dist-servers-(\d+)$/.exec(old)?.[1];
    if (pid !== undefined && !alive(Number(pid))) removeServers(path.join(root, old));
  }
  const dir = path.join(root, `dist-servers-${process.pid}`);
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  execFileSync(
    process.execPath,
    [vite, 'build', '-c', 'vite.server.config.ts', '--mode', 'servers', '--outDir', dir],
    { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  process.env.SERVER_BUILD = dir;
  return dir;
}

export function removeServers(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
