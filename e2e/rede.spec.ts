// The chain's view through the real app server with the sandbox's demo chain (SANDBOX_STORES=3:
// "Loja Demo" 1, "Loja Centro" 3, "Loja Norte" 4): a cashier of each store posts through the
// app server (1, 2 and 3 sales), then a `rede` terminal's /painel shows the three stores'
// rows and their totals, and its store filter (kept in the address) shows one store's own
// dashboard; a `gerente` of store 1 sees only store 1 (another store asked for: 403). Axe
// clean; nothing scrolls sideways at 390 and 1280 px; screenshots of both.
import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { enroll, terminalCli } from '../server/testing/spawn';
import { expect, expectAccessible, test } from './support/fixtures';
import { overflowing } from './support/layout';
import { enrolledTerminal, serialSpec } from './support/own-server';

const { server, shots: SHOTS } = serialSpec('rede', { env: { SANDBOX_STORES: '3' } });

/** Sales (cents) posted at each store, and the stores' names. */
const SALES: Record<number, number[]> = { 1: [2_590], 3: [1_000, 4_350], 4: [700, 2_000, 3_300] };
const NAMES: Record<number, string> = { 1: 'Loja Demo', 3: 'Loja Centro', 4: 'Loja Norte' };

/** A cashier of store `loja`, enrolled with a code from the CLI: its cookie. */
async function cashierOf(loja: number): Promise<string> {
  // The default store (1) is the one a terminal without `--loja` belongs to.
  const store = loja === 1 ? [] : ['--loja', String(loja)];
  const out = await terminalCli(
    ['add', '--role', 'caixa', '--name', `Caixa ${loja}`, ...store],
    server.env,
  );
  const code = /Código de registro: (\S+)/.exec(out)?.[1];
  if (code === undefined) throw new Error(`unexpected CLI output: ${out}`);
  return enroll(server.url, code);
}

/** A figure of the dashboard (`<dt>` label, `<dd>` value). */
const figure = (page: Page, label: string) =>
  page
    .locator('dl > div')
    .filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) });

test('a cashier of each store posts through the app server', async () => {
  for (const [loja, sales] of Object.entries(SALES)) {
    const cookie = await cashierOf(Number(loja));
    for (const [i, valor] of sales.entries()) {
      const res = await fetch(`${server.url}/api/v4/estabelecimentos/${loja}/fidelidade/pontuar`, {
        method: 'POST',
        headers: {
          cookie,
          origin: server.url,
          'content-type': 'application/json',
          'idempotency-key': randomUUID(),
        },
        body: JSON.stringify({
          valor_gasto: valor,
          senha_atendente: '1234',
          cliente: { celular: `+551195555${loja.padStart(2, '0')}0${i + 1}` },
        }),
      });
      expect(res.status, `store ${loja}`).toBe(200);
    }
  }
});

test("a rede terminal sees the three stores' totals and filters to one", async ({ browser }) => {
  const { page } = await enrolledTerminal(server, browser, 'rede', 'Rede', 1280);
  await page.getByRole('link', { name: 'Painel', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Rede: 3 lojas' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Números de cada loja no período' });
  for (const [loja, sales] of Object.entries(SALES)) {
    const cents = sales.reduce((s, v) => s + v, 0);
    const reais = (cents / 100).toFixed(2).replace('.', ',');
    const row = table.getByRole('row', { name: new RegExp(NAMES[Number(loja)]!) });
    await expect(row).toContainText(`${NAMES[Number(loja)]}${sales.length}`);
    await expect(row).toContainText(`R$ ${reais}`);
  }
  await expect(figure(page, 'Lançamentos')).toContainText('6');
  await expect(figure(page, 'Valor lançado')).toContainText('R$ 139,40');
  await expectAccessible(page, 'painel da rede');
  expect(await overflowing(page)).toEqual([]);
  await page.screenshot({ path: `${SHOTS}/rede-painel-1280.png`, fullPage: true });

  // One store, chosen with the keyboard: its own dashboard, kept in the address.
  const filter = page.getByLabel('Loja', { exact: true });
  await filter.focus();
  await filter.selectOption({ label: 'Loja Centro' });
  await expect(page).toHaveURL(/[?&]loja=3\b/);
  await expect(page.getByRole('table', { name: 'Lançamentos por terminal' })).toContainText(
    'Caixa 3',
  );
  await expect(figure(page, 'Lançamentos')).toContainText('2');
  await expect(figure(page, 'Valor lançado')).toContainText('R$ 53,50');
  await page.reload();
  await expect(filter).toHaveValue('3');
  // The page is still the rede's own store's (the store chosen is the screen's, not the page's).
  await expect(page.locator('strong', { hasText: /^Loja Demo$/ })).toBeVisible();
  await expect(figure(page, 'Lançamentos')).toContainText('2');
  // A period chosen keeps the store.
  await page.getByRole('button', { name: 'Hoje' }).click();
  await expect(page).toHaveURL(/periodo=hoje&loja=3$/);
  await expect(figure(page, 'Lançamentos')).toContainText('2');

  // Every store again, at 390 px: one card a store, nothing sideways.
  await filter.selectOption({ label: 'Todas as lojas' });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('heading', { name: 'Rede: 3 lojas' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Loja Norte' })).toBeVisible();
  expect(await overflowing(page)).toEqual([]);
  await page.screenshot({ path: `${SHOTS}/rede-painel-390.png`, fullPage: true });
});

test('a gerente of store 1 sees only store 1', async ({ browser }) => {
  const { page } = await enrolledTerminal(server, browser, 'gerente', 'Gerente 1', 1280);
  await page.goto(`${server.url}/painel?loja=3`);
  await expect(figure(page, 'Lançamentos')).toContainText('1');
  await expect(figure(page, 'Valor lançado')).toContainText('R$ 25,90');
  await expect(page.getByLabel('Loja', { exact: true })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: /Rede:/ })).toHaveCount(0);
  // Asked for directly, another store's dashboard and the chain's are refused.
  const asked = await page.evaluate(async () => {
    const day = new Date().toISOString().slice(0, 10);
    const get = (url: string, headers: Record<string, string> = {}) =>
      fetch(url, { headers }).then((r) => r.status);
    return [
      await get(`/api/painel?de=${day}&ate=${day}`, { 'x-loja': '3' }),
      await get(`/api/painel?de=${day}&ate=${day}&loja=4`),
      await get(`/api/rede/painel?de=${day}&ate=${day}`),
      await get('/api/rede/lojas'),
    ];
  });
  expect(asked).toEqual([403, 403, 403, 403]);
});
