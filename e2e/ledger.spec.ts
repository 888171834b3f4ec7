import { expect, test } from '@playwright/test';
import { expectAccessible, expectRows } from './support/fixtures';
import { newCustomer } from './support/customers';
import { openCounter, openLedger, postSale } from './support/counter';
import { shot } from './support/shots';

test('"Lançamentos do turno" lists the postings of the day, newest first, with their state', async ({
  page,
}) => {
  const first = await newCustomer(page, { nome: 'Livro Caixa Um' });
  const second = await newCustomer(page, { nome: 'Livro Caixa Dois' });
  await openCounter(page);
  for (const [phone, cents] of [
    [first, '1234'],
    // R$ 150,00 is 150 points: past the Loja Demo's 100-point reward, which is debited.
    [second, '15000'],
  ] as const) {
    await postSale(page, phone.digits, cents);
  }
  const dialog = await openLedger(page);
  const rows = dialog.getByRole('row').filter({ hasText: 'Livro Caixa' });
  await expectRows(rows, [
    ['Livro Caixa Dois', 'R$ 150,00', 'Lançado'],
    ['Livro Caixa Um', 'R$ 12,34'],
  ]);
  // The points each purchase earned, not its balance after a reward took 100 of them.
  const headers = await dialog.getByRole('columnheader').allTextContents();
  const points = headers.indexOf('Pontos');
  expect(points).toBeGreaterThan(0);
  // Cells in column order, the row's header cell (its time) first.
  const cell = (row: number) => rows.nth(row).locator('th, td').nth(points);
  await expect(cell(0)).toHaveText('150');
  await expect(cell(1)).toHaveText('12');
  // The phone is masked: its last digits only.
  await expect(rows.nth(0)).not.toContainText(second.digits.slice(2, 7));
  await expectAccessible(page, 'ledger');
  await shot(page, 'test-results/ledger.png');
  await dialog.getByRole('button', { name: 'Fechar' }).click();
  await expect(dialog).toBeHidden();
});
