import { defineConfig } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { CHROMIUM_ARGS } from './e2e/support/chromium-args';
import { buildServers } from './server/testing/server-build';

// End-to-end tests run against the real app server (`server/main.ts` built, as `npm start` runs
// it) with the embedded sandbox behind it: one server for establishment 1 and one for
// establishment 2 (carencia), each on a free 127.0.0.1 port with a fresh database.
// Playwright stops both when the run ends.

function freePort(): string {
  const code =
    "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})";
  return execFileSync(process.execPath, ['-e', code]).toString().trim();
}

// The config is loaded again in every worker; the environment carries the ports over.
process.env.E2E_PORT_1 ??= freePort();
process.env.E2E_PORT_2 ??= freePort();
const dataDir = path.resolve('test-results-db');
if (!process.env.E2E_DATA_READY) {
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  process.env.E2E_DATA_READY = '1';
}
// The app server, the sandbox and the CLIs built once for the run from the sources
// (server/testing/server-build.ts): the web servers below and every process a spec starts run
// the build, not tsx. Removed by the global teardown.
const serverBuild = process.env.SERVER_BUILD ?? buildServers();

/**
 * The third worker's specs: the two fault specs that spend most of their time waiting on real
 * time, then a screen spec (kiosk, itself waiting on a 30 s idle countdown) that fills the
 * rest of its time, so that the three workers end together. When a spec is added or grows, or
 * the browser changes, rebalance by the workers' durations in a CI run (reports/e2e.json: each
 * result's `parallelIndex` and `duration`; docs/benchmarks.md has the last split).
 */
const THIRD_WORKER = /[/\\](contingency|exactly-once|kiosk)\.spec\.ts$/;

/**
 * Debian's Chromium. Its headless shell (package `chromium-headless-shell`, the same release
 * built for headless use alone, as Playwright's own headless Chromium is) when installed: it
 * skips the full browser's compositing and display path, and counter.spec at 1 worker took 39
 * s of CPU and 84 s with the full browser against 22 and 57 s with the shell. Without it, the
 * full browser (`--headless`), the same tests.
 */
const chromium = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((p) =>
  existsSync(p),
);

const server = (port: string, establishment: string) => ({
  command: `"${process.execPath}" "${path.join(serverBuild, 'main.js')}"`,
  url: `http://127.0.0.1:${port}/api/config`,
  reuseExistingServer: false,
  timeout: 60_000,
  stdout: 'ignore' as const,
  stderr: 'pipe' as const,
  env: {
    PORT: port,
    HOST: '127.0.0.1',
    LOYALTY_ESTABLISHMENT_ID: establishment,
    SANDBOX_DB: path.join(dataDir, `sandbox-${establishment}.db`),
    APP_DB: path.join(dataDir, `app-${establishment}.db`),
    LOG_LEVEL: 'warn',
  },
});

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  // Two workers for the screens (the machine has 2 cores; CI runs what developers run) and a
  // third for the fault specs, which mostly wait on real time (the service down for 120 s,
  // commits at 30, 59 and 61 s): their waits overlap the rest instead of idling a core. It also
  // takes a screen spec, to end with the other two (see THIRD_WORKER). No fourth worker:
  // the suite is CPU-bound, so splitting the fault specs over two workers makes it slower.
  workers: 3,
  retries: 0,
  // A safety net, not a speed target: on a loaded 2-core machine a test with axe and full-page
  // screenshots took 32 s; the waits that matter are the expect timeouts below.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  forbidOnly: !!process.env.CI,
  globalTeardown: './e2e/support/global-teardown.ts',
  reporter: [['list'], ['json', { outputFile: 'reports/e2e.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${process.env.E2E_PORT_1}`,
    viewport: { width: 1366, height: 768 },
    locale: 'pt-BR',
    timezoneId: 'America/Sao_Paulo',
    // A failed test keeps its trace (actions, DOM snapshots, network, console); the screencast
    // is left out: encoding its frames costs a quarter or more of every test's time on a
    // 2-core machine, while the DOM snapshots cost less than the machine's run-to-run spread.
    // Under CI nothing is recorded (E2E_TRACE=1 records anyway): a CI run keeps only its
    // printed output, so no one can open the traces.
    trace:
      process.env.CI && process.env.E2E_TRACE !== '1'
        ? 'off'
        : { mode: 'retain-on-failure', screenshots: false, snapshots: true, sources: true },
    launchOptions: {
      ...(chromium ? { executablePath: chromium } : {}),
      args: CHROMIUM_ARGS,
    },
  },
  projects: [
    { name: 'chromium', testIgnore: THIRD_WORKER, workers: 2 },
    { name: 'third', testMatch: THIRD_WORKER, workers: 1 },
  ],
  webServer: [server(process.env.E2E_PORT_1, '1'), server(process.env.E2E_PORT_2, '2')],
});
