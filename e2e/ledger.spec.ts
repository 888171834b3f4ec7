import { expect, test } from '@playwright/test';
import {
  amount,
  expectAccessible,
  newCustomer,
  openCounter,
  postButton,
  posted,
  search,
} from './support/fixtures';

test('"Lançamentos do turno" lists the postings of the day, newest first, with their state', async ({
  page,
}) => {
  const first = await newCustomer(page, { nome: 'Livro Caixa Um' });
  const second = await newCustomer(page, { nome: 'Livro Caixa Dois' });
  await openCounter(page);
  for (const [phone, cents] of [
    [first, '1234'],
    [second, '5600'],
  ] as const) {
    await search(page, phone.digits);
    await amount(page).pressSequentially(cents);
    await postButton(page).click();
    await expect(posted(page)).toBeVisible();
    await page.keyboard.press('Escape');
  }
  await page.getByRole('button', { name: 'Lançamentos do turno' }).click();
  const dialog = page.getByRole('dialog', { name: 'Lançamentos do turno' });
  await expect(dialog).toBeVisible();
  const rows = dialog.getByRole('row').filter({ hasText: 'Livro Caixa' });
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText('Livro Caixa Dois');
  await expect(rows.nth(0)).toContainText('R$ 56,00');
  await expect(rows.nth(0)).toContainText('Lançado');
  await expect(rows.nth(1)).toContainText('Livro Caixa Um');
  await expect(rows.nth(1)).toContainText('R$ 12,34');
  // The phone is masked: its last digits only.
  await expect(rows.nth(0)).not.toContainText(second.digits.slice(2, 7));
  await expectAccessible(page, 'ledger');
  await page.screenshot({ path: 'test-results/ledger.png' });
  await dialog.getByRole('button', { name: 'Fechar' }).click();
  await expect(dialog).toBeHidden();
});
