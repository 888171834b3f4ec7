// Makes sure the end-to-end tests have a Chromium to drive, before they start.
// - Debian's headless shell (/usr/bin/chromium-headless-shell) or, without it, Debian's
//   Chromium (/usr/bin/chromium) is used when present: nothing to do (playwright.config.ts).
// - As root on Debian/Ubuntu without either: installs both with apt-get (CI machines).
// - Otherwise (a developer laptop): Playwright's own Chromium, downloaded once if missing.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const SYSTEM_CHROMIUM = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'];
const run = (cmd) =>
  execSync(cmd, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });

if (SYSTEM_CHROMIUM.some((p) => existsSync(p))) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (isRoot && existsSync('/usr/bin/apt-get')) {
  console.log("Installing Debian's Chromium for the end-to-end tests…");
  run('apt-get update -qq && apt-get install -y -qq chromium chromium-headless-shell');
  if (SYSTEM_CHROMIUM.some((p) => existsSync(p))) process.exit(0);
}

const { chromium } = await import('@playwright/test');
if (!existsSync(chromium.executablePath())) {
  console.log("No system Chromium: installing Playwright's Chromium for the end-to-end tests…");
  run('npx playwright install chromium');
}
