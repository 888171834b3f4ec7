import type { Locator, Page } from '@playwright/test';
import { expect, expectAccessible, test } from './support/fixtures';
import { fetchCustomer, newCustomer, uniqueCpf, uniquePhone } from './support/customers';
import { amount, openCounter, posted, recordPostings, search } from './support/counter';

// The counter with the keyboard alone: no mouse, no tap. Only typing, Tab, Shift+Tab,
// Enter, Backspace and the F-keys the screen shows.

const searchField = (page: Page) => page.getByLabel(/buscar cliente/i);

/** The focused element shows a focus ring (not `outline: none`). */
async function expectFocusVisible(page: Page, what: string) {
  const ring = await page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return null;
    const s = getComputedStyle(el);
    return { style: s.outlineStyle, width: parseFloat(s.outlineWidth) };
  });
  expect(ring, `something has the focus: ${what}`).not.toBeNull();
  expect(ring!.style, `focus ring style on ${what}`).not.toBe('none');
  expect(ring!.width, `focus ring width on ${what}`).toBeGreaterThan(0);
}

async function expectFocused(page: Page, target: Locator, what: string) {
  await expect(target, what).toBeFocused();
  await expectFocusVisible(page, what);
}

/** Presses Tab until `target` has the focus (at most `max` presses). */
async function tabTo(page: Page, target: Locator, max = 12) {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

test('the whole sale with the keyboard alone: shift, search, basket, F8, Enter, Esc', async ({
  page,
}) => {
  const phone = await newCustomer(page, { nome: 'Só Teclado' });
  const postings = recordPostings(page);
  await page.goto('/');

  // Shift: the dialog's password field has the focus.
  const dialog = page.getByRole('dialog', { name: /abrir turno/i });
  await expectFocused(page, dialog.getByLabel('Senha do atendente'), 'password field');
  await page.keyboard.type('1234');
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expectFocused(page, searchField(page), 'search field after the shift opens');

  // Search: the phone's digits alone (it searches at the last one); the amount takes the focus.
  await page.keyboard.type(phone.digits);
  await expect(page.getByRole('region', { name: 'Só Teclado' })).toBeVisible();
  await expectFocused(page, amount(page), 'amount after the search');
  await page.keyboard.type('1500');
  await expect(amount(page)).toHaveValue('R$ 15,00');

  // F4 adds a line with the focus in its description; Tab walks the line.
  await page.keyboard.press('F4');
  const line = page.getByRole('listitem', { name: 'Item 1' });
  await expectFocused(page, line.getByLabel('Descrição'), 'description after F4');
  await page.keyboard.type('Café especial');
  await page.keyboard.press('Tab');
  await expectFocused(page, line.getByLabel('Complemento'), 'complement');
  await page.keyboard.type('moído');
  await page.keyboard.press('Tab');
  await expectFocused(page, line.getByLabel('Qtd.'), 'quantity');
  await page.keyboard.press('Backspace');
  await page.keyboard.type('2');
  await page.keyboard.press('Tab');
  await expectFocused(page, line.getByLabel('Preço unit.'), 'unit price');
  await page.keyboard.type('800');
  await expect(line.getByLabel('Total do item 1')).toHaveText('R$ 16,00');
  await page.keyboard.press('Tab');
  await expectFocused(page, line.getByRole('button', { name: 'Remover item 1' }), 'remove button');
  await page.keyboard.press('Shift+Tab');
  await expectFocused(page, line.getByLabel('Preço unit.'), 'unit price again (Shift+Tab)');

  // The basket (R$ 16,00) does not match the amount (R$ 15,00): Enter sends nothing.
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: /^Lançar/ })).toBeDisabled();
  expect(postings).toHaveLength(0);

  // F8 copies the basket total; Enter posts.
  await page.keyboard.press('F8');
  await expect(amount(page)).toHaveValue('R$ 16,00');
  await page.keyboard.press('Enter');
  await expect(posted(page)).toBeVisible();
  await expectFocused(page, posted(page), 'the result heading after posting');
  expect(postings).toHaveLength(1);
  expect(postings[0]!.postDataJSON()).toMatchObject({
    valor_gasto: 1600,
    itens: [{ descricao: 'Café especial', complemento: 'moído', qtde: 2, valor: 1600 }],
  });

  // Esc: next customer, everything cleared, the focus back in the search field.
  await page.keyboard.press('Escape');
  await expectFocused(page, searchField(page), 'search field after Esc');
  await expect(searchField(page)).toHaveValue('');
  await expect(page.getByRole('region', { name: 'Só Teclado' })).toBeHidden();
  await expect(posted(page)).toBeHidden();
  expect((await fetchCustomer(page.request, { celular: phone.e164 }))!.compras).toBe(1);
});

test('not found → F3 opens the registration, filled and sent with the keyboard', async ({
  page,
}) => {
  const phone = uniquePhone();
  await openCounter(page);
  await page.keyboard.type(phone.digits);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Cliente não encontrado' })).toBeVisible();

  await page.keyboard.press('F3');
  const form = page.getByRole('form', { name: /cadastr/i });
  await expect(form).toBeVisible();
  const celular = form.getByLabel(/Celular/);
  await expectFocused(page, celular, 'phone field of the registration');
  await expect(celular).toHaveValue(/^\(11\) 9\d{4}-\d{4}$/);

  await tabTo(page, form.getByLabel('Nome'));
  await expectFocusVisible(page, 'name field');
  await page.keyboard.type('Teclado Cadastro');
  await tabTo(page, form.getByLabel('E-mail'));
  await page.keyboard.type('teclado@example.com.br');
  await page.keyboard.press('Enter');

  const panel = page.getByRole('region', { name: 'Teclado Cadastro' });
  await expect(panel).toBeVisible();
  await expectFocused(page, amount(page), 'amount after registering');
  expect(await fetchCustomer(page.request, { celular: phone.e164 })).toMatchObject({
    nome: 'Teclado Cadastro',
    compras: 0,
  });

  await page.keyboard.type('990');
  await page.keyboard.press('Enter');
  await expect(posted(page)).toBeVisible();
  expect((await fetchCustomer(page.request, { celular: phone.e164 }))!.compras).toBe(1);
});

test('a CPF that starts with 0, typed digit by digit, is searched as a CPF', async ({ page }) => {
  let cpf = uniqueCpf();
  while (!cpf.startsWith('0')) cpf = uniqueCpf();
  const shown = `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;
  await openCounter(page);
  const lookups: unknown[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/clientes/buscar')) lookups.push(r.postDataJSON());
  });
  await page.keyboard.type(cpf);
  await expect(searchField(page)).toHaveValue(shown);
  await expect(page.getByText(`Entendido: CPF ${shown}`)).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Cliente não encontrado' })).toBeVisible();
  expect(lookups).toEqual([{ cpf }]);
});

test('F2 brings the focus back to the search field from the basket', async ({ page }) => {
  const phone = await newCustomer(page, { nome: 'Tecla F2' });
  await openCounter(page);
  await page.keyboard.type(phone.digits);
  await page.keyboard.press('Enter');
  await expectFocused(page, amount(page), 'amount');
  await page.keyboard.press('F4');
  await expect(
    page.getByRole('listitem', { name: 'Item 1' }).getByLabel('Descrição'),
  ).toBeFocused();
  await page.keyboard.press('F2');
  await expectFocused(page, searchField(page), 'search field after F2');
});

test.describe('accessibility of the states not covered elsewhere', () => {
  test('a lost answer whose check also fails: "não foi possível conferir", nothing resent', async ({
    page,
  }) => {
    const phone = await newCustomer(page, { nome: 'Conferência Falhou' });
    await openCounter(page);
    await search(page, phone.digits);
    await expect(page.getByRole('region', { name: 'Conferência Falhou' })).toBeVisible();

    const postings = recordPostings(page);
    let rereads = 0;
    await page.route('**/fidelidade/pontuar', (route) => route.abort('connectionreset'));
    // Asking our server what became of the sale fails too.
    await page.route('**/api/lancamentos/**', (route) => {
      rereads++;
      return route.abort('connectionreset');
    });
    await page.keyboard.type('2200');
    await page.keyboard.press('Enter');

    const alert = page
      .getByRole('alert')
      .filter({ hasText: 'Resultado desconhecido: não foi possível conferir.' });
    await expect(alert).toBeVisible({ timeout: 15_000 });
    await expect(alert).toContainText('Os pontos podem ter sido lançados.');
    const again = page.getByRole('button', { name: 'Conferir de novo' });
    await expectFocused(page, again, '"Conferir de novo"');
    await expect(page.getByRole('button', { name: /^Lançar/ })).toBeDisabled();
    expect(postings).toHaveLength(1);
    expect(rereads).toBeGreaterThanOrEqual(1);
    await expectAccessible(page, 'verify failed');

    // The network is back: checking again says "não lançado" (the posting never arrived).
    await page.unroute('**/api/lancamentos/**');
    await page.keyboard.press('Enter');
    await expect(page.getByText('Não lançado.')).toBeVisible();
    // Checking again may send the request again, but only as the same sale (its one id).
    expect(new Set(postings.map((r) => r.headers()['idempotency-key'])).size).toBe(1);
    expect((await fetchCustomer(page.request, { celular: phone.e164 }))!.compras).toBe(0);
  });
});
