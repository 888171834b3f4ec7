// The audit trail through the real app server: terminals added with `npm run terminal` and
// enrolled, a manager exporting the shift ledger; the manager's /auditoria lists each once
// with its terminal and request id, filters by action (and says when nothing matches),
// exports its own CSV (formula-safe, recorded in turn); axe clean; nothing scrolls sideways
// at 390 and 1024 px; a cashier has no link and the API refuses it.
import { downloadFrom, readCsv } from './support/csv';
import { expect, expectAccessible, test } from './support/fixtures';
import { openLedger, postSaleShown } from './support/counter';
import { overflowing } from './support/layout';
import { saoPauloDay, serialSpec, shiftTerminal } from './support/own-server';
import { shot } from './support/shots';

const { server, shots: SHOTS } = serialSpec('auditoria');

test('a manager reads who did what at Auditoria, filters it and exports it', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const caixa = await shiftTerminal(server, browser, 'caixa', 'Caixa 1', 1024);
  await postSaleShown(caixa.page, '11987654321', '1234');

  // The manager exports the shift ledger (recorded before the file is written).
  const gerente = await shiftTerminal(server, browser, 'gerente', 'Gerência', 1024);
  const page = gerente.page;
  const ledger = await openLedger(page);
  await expect(ledger.getByRole('row').filter({ hasText: 'Maria' })).toHaveCount(1);
  await downloadFrom(ledger.getByRole('button', { name: 'Exportar CSV' }));
  await page.keyboard.press('Escape');

  // Opened from the navigation, while the trail loads.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/auditoria?**', async (route) => {
    await held;
    await route.continue();
  });
  await page
    .getByRole('navigation', { name: 'Principal' })
    .getByRole('link', { name: 'Auditoria' })
    .click();
  await expect(page.getByRole('heading', { name: 'Auditoria', level: 1 })).toBeVisible();
  await expect(page.getByText('Carregando a auditoria…')).toBeVisible();
  release();

  // Two terminals added on the command line, two enrolled, one export: each once.
  const table = page.getByRole('table', { name: 'Registros de auditoria' });
  await expect(page.getByText('5 registros')).toBeVisible();
  await page.unroute('**/api/auditoria?**');
  const rows = table.locator('tbody tr');
  await expect(rows).toHaveCount(5);
  await expect(rows.filter({ hasText: 'Terminal criado' })).toHaveCount(2);
  const enrolled = rows.filter({ hasText: 'Terminal registrado' });
  await expect(enrolled).toHaveCount(2);
  await expect(enrolled.filter({ hasText: 'Caixa 1 (caixa)' })).toContainText('Caixa 1');
  const exported = rows.filter({ hasText: 'Exportação' });
  await expect(exported).toHaveCount(1);
  await expect(exported).toContainText('Gerência');
  await expect(exported).toContainText(
    `Lançamentos do turno: 1 linha · filtros: dia=${saoPauloDay(new Date())}`,
  );
  // Each with the request id its answer carried (a UUID the request log wrote).
  for (const row of await rows.all()) {
    await expect(row.locator('td').last()).toHaveText(/^(cli-)?[0-9a-f-]{36}$/);
  }

  await expectAccessible(page, 'auditoria, todos os registros');
  expect(await overflowing(page)).toEqual([]); // every element within its box
  await shot(page, `${SHOTS}/auditoria-1024.png`, { fullPage: true });

  // Filtered by action, then exported: the file holds what the table shows.
  const filters = page.getByRole('form', { name: 'Filtros da auditoria' });
  await filters.getByLabel('Ação').selectOption({ label: 'Exportação' });
  await filters.getByRole('button', { name: 'Filtrar' }).click();
  await expect(page.getByText('1 registro', { exact: true })).toBeVisible();
  await expect(rows).toHaveCount(1);
  const download = await downloadFrom(page.getByRole('button', { name: 'Exportar CSV' }));
  expect(download.suggestedFilename()).toBe(`auditoria-${saoPauloDay(new Date())}.csv`);
  await expect(page.getByRole('status').filter({ hasText: 'Arquivo' })).toContainText(
    `Arquivo ${download.suggestedFilename()} gerado com 1 registro.`,
  );
  const { rows: parsed } = await readCsv(download);
  expect(parsed).toHaveLength(2);
  expect(parsed[0]!.slice(0, 5)).toEqual([
    'Data e hora',
    'Terminal',
    'Código do terminal',
    'Papel',
    'Ação',
  ]);
  expect(parsed[1]!.slice(1, 5)).toEqual(['Gerência', String(gerente.id), 'gerente', 'Exportação']);

  // Opened directly (painted by the server, its chunk preloaded): the export is recorded too.
  await page.goto(`${server.url}/auditoria`);
  await expect(page.getByText('6 registros')).toBeVisible();
  await expect(rows.first()).toContainText('Auditoria: 1 linha · filtros: acao=exportacao');

  // Nothing matches: it says so.
  await filters.getByLabel('Ação').selectOption({ label: 'Saída do modo quiosque' });
  await filters.getByRole('button', { name: 'Filtrar' }).click();
  await expect(page.getByText('Nenhum registro com estes filtros.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Exportar CSV' })).toBeDisabled();
  await expectAccessible(page, 'auditoria, nenhum registro');

  // At 390 px nothing scrolls sideways: one card a record, every field named.
  await filters.getByLabel('Ação').selectOption({ label: 'Todas' });
  await filters.getByRole('button', { name: 'Filtrar' }).click();
  await expect(rows).toHaveCount(6);
  await page.setViewportSize({ width: 390, height: 844 });
  const cards = page.getByRole('list', { name: 'Registros de auditoria' }).getByRole('listitem');
  await expect(cards).toHaveCount(6);
  await expect(cards.first()).toContainText('Requisição');
  expect(await overflowing(page)).toEqual([]); // every element within its box
  await shot(page, `${SHOTS}/auditoria-390.png`, { fullPage: true });

  // A cashier has no audit trail: no link, and the API refuses it.
  await expect(caixa.page.getByRole('link', { name: 'Auditoria' })).toHaveCount(0);
  const refused = await caixa.page.request.get(`${server.url}/api/auditoria`);
  expect(refused.status()).toBe(403);
});
