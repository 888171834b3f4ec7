import { expect, type Locator, type Page } from '@playwright/test';

// The page the app server paints, before the app's code has adopted it: holding that code back,
// and what a tap does meanwhile.

/**
 * Holds the page's requests for `glob` (the app's code) until `release()`; `asked` counts
 * them. Set before the page loads.
 */
export async function holdAssets(
  page: Page,
  glob: string,
): Promise<{ release: () => void; asked: () => number }> {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let asked = 0;
  await page.route(glob, async (route) => {
    asked += 1;
    await held;
    await route.continue();
  });
  return { release, asked: () => asked };
}

/**
 * What a tap or click on `target` does before the app has adopted the painted page: nothing.
 * The page is `inert` (so Playwright's trial click finds no target to hit).
 */
export async function expectInertUntilAdopted(page: Page, target: Locator): Promise<void> {
  await expect(page.locator('#root')).toHaveAttribute('inert', '');
  await expect(target.click({ trial: true, timeout: 2_000 })).rejects.toThrow();
}
