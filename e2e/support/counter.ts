import { expect, type Locator, type Page, type Request } from '@playwright/test';

// The counter (/) as a cashier works it: its fields, and the steps every counter spec takes
// (open the shift, search, post, read the shift's ledger).

/** The counter's amount field, post button and the heading of a posting's answer. */
export const amount = (page: Page) => page.getByLabel('Valor da compra');
export const postButton = (page: Page) => page.getByRole('button', { name: /^Lançar/ });
export const posted = (page: Page) => page.getByRole('heading', { name: /Pontos lançados/ });

/** Every pontuar request the page sends, in order. */
export function recordPostings(page: Page): Request[] {
  const sent: Request[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/fidelidade/pontuar')) sent.push(r);
  });
  return sent;
}

/** Opens the shift the counter asks for, with the demo attendant password. */
export async function openShift(page: Page, password = '1234') {
  const shift = page.getByRole('dialog', { name: /abrir turno/i });
  await shift.getByLabel('Senha do atendente').fill(password);
  await shift.getByRole('button', { name: /abrir turno/i }).click();
  await expect(shift).toBeHidden();
}

/** Posts `cents` for the customer at `phone`; the answer stays on the counter. */
export async function postSaleShown(page: Page, phone: string, cents: string) {
  await search(page, phone);
  await amount(page).pressSequentially(cents);
  await postButton(page).click();
  await expect(posted(page)).toBeVisible();
}

/** Posts `cents` for the customer at `phone` and goes back to an empty counter. */
export async function postSale(page: Page, phone: string, cents: string) {
  await postSaleShown(page, phone, cents);
  await page.keyboard.press('Escape');
}

/** Opens the counter and the shift with the attendant password. */
export async function openCounter(page: Page, password = '1234') {
  await page.goto('/');
  await openShift(page, password);
  await expect(page.getByLabel(/buscar cliente/i)).toBeFocused();
}

/** Opens the counter's "Lançamentos do turno": the dialog. */
export async function openLedger(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Lançamentos do turno' }).click();
  const dialog = page.getByRole('dialog', { name: 'Lançamentos do turno' });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** Types in the search field and presses Enter. */
export async function search(page: Page, text: string) {
  const field = page.getByLabel(/buscar cliente/i);
  await field.fill('');
  await field.pressSequentially(text);
  await field.press('Enter');
}
