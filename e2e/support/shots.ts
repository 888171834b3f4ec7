import type { Locator, Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';

/**
 * Screenshots are for a person to look at (a developer checking a screen at its sizes); no test
 * reads them back. A CI run keeps only its printed output, so under CI none is taken unless
 * E2E_SHOTS=1 asks for them.
 */
const TAKE_SHOTS = !process.env.CI || process.env.E2E_SHOTS === '1';

/** The folder a spec's screenshots go to: `/tmp/shots-<name>`, made if missing. */
export function shotsDir(name: string): string {
  const dir = `/tmp/shots-${name}`;
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** A PNG of `target` (the viewport, the whole page with `fullPage`, or one element) at `path`. */
export async function shot(
  target: Page | Locator,
  path: string,
  options: { fullPage?: boolean } = {},
): Promise<void> {
  if (TAKE_SHOTS) await target.screenshot({ path, ...options });
}
