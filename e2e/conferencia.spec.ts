// The dashboard's Conferência through the real app server and its embedded sandbox: a cashier
// posts two sales; the manager confers today and every posting matches; the test then deletes
// one of those credits in the sandbox's own database, and the next conferência says the day
// needs attention, with our entry beside "Nenhum crédito" and a CSV of it; axe clean; nothing
// scrolls sideways at 390 and 1024 px.
import { readFileSync } from 'node:fs';
import { downloadFrom } from './support/csv';
import { expect, expectAccessible, test } from './support/fixtures';
import { postSale } from './support/counter';
import { overflowing } from './support/layout';
import { loseRecentCredit } from './support/own-data';
import { brDay, saoPauloDay, serialSpec, shiftTerminal } from './support/own-server';
import { shot } from './support/shots';

const { server, shots: SHOTS } = serialSpec('conferencia');

test('the manager confers a day: all matched, then a credit gone from the service', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { page: caixa } = await shiftTerminal(server, browser, 'caixa', 'Caixa 1', 1024);
  await postSale(caixa, '11987654321', '1234'); // Maria da Silva, 12 points
  await postSale(caixa, '21998765432', '5600'); // João Pereira, 56 points

  const { page } = await shiftTerminal(server, browser, 'gerente', 'Gerência', 1024);
  await page.goto(`${server.url}/painel`);
  const section = page.getByRole('region', { name: 'Conferência com o serviço' });
  await expect(section).toBeVisible();
  const today = saoPauloDay(new Date());
  const dia = section.getByLabel(/^Dia/);
  await dia.fill(brDay(today));
  await expect(section.getByText('Este dia ainda não foi conferido.')).toBeVisible();
  await section.getByRole('button', { name: 'Conferir agora' }).click();
  const figures = section.getByRole('definition');
  await expect(section.getByText('Confirmados', { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(section.getByText('Lançamentos do dia').locator('xpath=..')).toContainText('2');
  await expect(section.getByText('Confirmados', { exact: true }).locator('xpath=..')).toContainText(
    '2',
  );
  await expect(section.getByText('Precisa de atenção')).toHaveCount(0);
  expect(await figures.count()).toBe(7);

  // The service loses Maria's credit of today (straight in the sandbox's database).
  loseRecentCredit(server, '+5511987654321', 12);
  await section.getByRole('button', { name: 'Conferir agora' }).click();
  await expect(section.getByText('Precisa de atenção')).toBeVisible({ timeout: 20_000 });
  const findings = section.getByRole('table', { name: /Achados da conferência/ });
  const row = findings.getByRole('row', { name: /Ausente no serviço/ });
  await expect(row).toContainText('+5511987654321');
  await expect(row).toContainText('R$ 12,34 · 12 pontos');
  await expect(row).toContainText('Nenhum crédito');
  // The dashboard marks the day too.
  await expect(page.getByText('Conferência: precisa de atenção')).toBeVisible();

  const file = await downloadFrom(section.getByRole('button', { name: 'Exportar CSV' }));
  expect(file.suggestedFilename()).toBe(`conferencia-${today}.csv`);
  const csv = readFileSync((await file.path())!, 'utf8');
  expect(csv).toContain('Ausente no serviço');
  expect(csv).toContain('12,34');

  await expectAccessible(page, 'painel, conferência');
  expect(await overflowing(page)).toEqual([]); // every element within its box
  await shot(section, `${SHOTS}/conferencia-1024.png`);
  await page.setViewportSize({ width: 390, height: 844 });
  // The tables turn into cards once they have measured the narrower box (a re-render).
  await expect.poll(() => overflowing(page)).toEqual([]); // every element within its box
  await shot(section, `${SHOTS}/conferencia-390.png`);

  // A cashier cannot confer.
  const refused = await caixa.request.post(`${server.url}/api/painel/conferencia?dia=${today}`, {
    headers: { origin: server.url, 'content-type': 'application/json' },
    data: {},
  });
  expect(refused.status()).toBe(403);
});
