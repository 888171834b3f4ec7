import {
  test as base,
  expect,
  type APIRequestContext,
  type Locator,
  type Page,
} from '@playwright/test';
import type { AxeResults } from 'axe-core';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export const PORT_1 = process.env.E2E_PORT_1 ?? '';
export const PORT_2 = process.env.E2E_PORT_2 ?? '';
export const BASE_1 = `http://127.0.0.1:${PORT_1}`;
export const BASE_2 = `http://127.0.0.1:${PORT_2}`;

/**
 * A request context is a terminal once GET /api/config has enrolled it (sandbox on loopback;
 * its cookie jar keeps the credential, as a browser's does).
 */
export async function asTerminal(request: APIRequestContext, baseURL = ''): Promise<void> {
  expect((await request.get(`${baseURL}/api/config`)).ok()).toBe(true);
}

/** The main navigation's links on a gerente's terminal, in order. */
export const MANAGER_LINKS = [
  'Caixa',
  'Prêmios',
  'Painel',
  'Auditoria',
  'Vigilância',
  'Terminais',
  'Quiosque',
];

/** `rows` are exactly as many as `expected`, each showing every text of its entry. */
export async function expectRows(rows: Locator, expected: string[][]) {
  await expect(rows).toHaveCount(expected.length);
  for (const [i, texts] of expected.entries()) {
    for (const text of texts) await expect(rows.nth(i)).toContainText(text);
  }
}

const axeSource = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

/**
 * axe-core in the page: no serious or critical violation. Every rule runs, on the page as it
 * is. axe is injected once per page and asked for violations only; @axe-core/playwright did the
 * same checks but opened a second page for every call and gathered every passing node too:
 * 1.9 s a call against 0.27 s here, on a counter with a customer open.
 */
export async function expectAccessible(page: Page, state: string) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(() =>
    (window as unknown as { axe: { run: (c: Document, o: object) => Promise<AxeResults> } }).axe
      .run(document, { resultTypes: ['violations'] })
      .then((r) => r.violations),
  );
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help} @ ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    );
  expect(serious, `axe on "${state}"`).toEqual([]);
}

/**
 * The API request fixture is a terminal too: in sandbox mode on loopback, GET /api/config
 * enrolls it automatically (its cookie jar keeps the credential), as a browser is.
 */
export const test = base.extend({
  request: async ({ request }, use) => {
    await asTerminal(request);
    await use(request);
  },
});
export { expect };
