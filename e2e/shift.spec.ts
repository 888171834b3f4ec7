import type { Page } from '@playwright/test';
import { expect, expectAccessible, PORT_1, test } from './support/fixtures';
import { fetchCustomer, newCustomer } from './support/customers';
import { amount, openCounter, postButton, posted, recordPostings, search } from './support/counter';

// The shift: the attendant password lives in memory only, is sent with every posting, and is
// forgotten by "Encerrar turno" and after 15 minutes without use.

const PASSWORD = '1234';

const shiftDialog = (page: Page) => page.getByRole('dialog');

/** Everything the page could have kept the password in, besides its memory. */
async function persistedState(page: Page) {
  const storage = await page.evaluate(async () => {
    const dump = (s: Storage) =>
      Array.from({ length: s.length }, (_, i) => {
        const key = s.key(i) ?? '';
        return `${key}=${s.getItem(key) ?? ''}`;
      });
    const databases = (await indexedDB.databases?.()) ?? [];
    return {
      local: dump(localStorage),
      session: dump(sessionStorage),
      documentCookie: document.cookie,
      indexedDb: databases.map((d) => d.name ?? ''),
      history: JSON.stringify(history.state ?? null),
    };
  });
  const cookies = await page.context().cookies();
  return { ...storage, url: page.url(), cookies: cookies.map((c) => `${c.name}=${c.value}`) };
}

test('the attendant password never leaves memory: no storage, cookie or URL holds it', async ({
  page,
}) => {
  const phone = await newCustomer(page, { nome: 'Turno Memória' });
  const postings = recordPostings(page);
  await openCounter(page, PASSWORD);
  await search(page, phone.digits);
  await amount(page).pressSequentially('1990');
  await postButton(page).click();
  await expect(posted(page)).toBeVisible();

  // It was used: the posting carried it…
  expect(postings).toHaveLength(1);
  expect(postings[0]!.postDataJSON().senha_atendente).toBe(PASSWORD);
  // …and nothing outside memory holds it.
  const { url, ...kept } = await persistedState(page);
  expect(JSON.stringify(kept)).not.toContain(PASSWORD);
  // The only cookie is the terminal's HttpOnly credential (the page cannot read it).
  expect(kept.cookies.map((c) => c.split('=')[0])).toEqual([`pdv_terminal_${PORT_1}`]);
  expect(kept.documentCookie).toBe('');
  // The origin carries a random port; what the app controls is the path, query and hash.
  const { pathname, search: query, hash } = new URL(url);
  expect({ pathname, query, hash }).toEqual({ pathname: '/', query: '', hash: '' });
});

test('"Encerrar turno" forgets the password: the dialog asks again and the next posting needs it', async ({
  page,
}) => {
  const phone = await newCustomer(page, { nome: 'Turno Encerrado' });
  const postings = recordPostings(page);
  // Opened with a password the service refuses: if it were kept, the posting would fail.
  await openCounter(page, '9999');
  await search(page, phone.digits);
  await amount(page).pressSequentially('700');

  await page.getByRole('button', { name: 'Encerrar turno' }).click();
  const dialog = shiftDialog(page);
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('heading', { name: 'Abrir turno' })).toBeVisible();
  await expect(dialog.getByLabel('Senha do atendente')).toHaveValue('');
  await expect(page.getByText('○ Turno fechado')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Encerrar turno' })).toBeDisabled();
  // The dialog cannot be dismissed without a password.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: /Abrir turno/ }).click();
  await expect(dialog.getByText('Digite a senha do atendente.')).toBeVisible();
  expect(postings).toHaveLength(0);

  await dialog.getByLabel('Senha do atendente').fill(PASSWORD);
  await dialog.getByRole('button', { name: /Abrir turno/ }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('● Turno aberto')).toBeVisible();
  await expect(amount(page)).toHaveValue('R$ 7,00');
  await postButton(page).click();
  await expect(posted(page)).toBeVisible();
  expect(postings.map((r) => r.postDataJSON().senha_atendente)).toEqual([PASSWORD]);
  expect((await fetchCustomer(page.request, { celular: phone.e164 }))!.compras).toBe(1);
});

test.describe('15 minutes without use', () => {
  test('closes the shift by itself, keeps the sale, and after the password posts it once', async ({
    page,
  }) => {
    const phone = await newCustomer(page, { nome: 'Turno Ocioso' });
    const postings = recordPostings(page);
    await page.clock.install();
    await openCounter(page, PASSWORD);
    await search(page, phone.digits);
    await expect(page.getByRole('region', { name: 'Turno Ocioso' })).toBeVisible();
    await amount(page).pressSequentially('1250');
    await page.getByRole('button', { name: /Adicionar item/ }).click();
    const line = page.getByRole('listitem', { name: 'Item 1' });
    await line.getByLabel('Descrição').fill('Café coado');
    await line.getByLabel('Preço unit.').pressSequentially('1250');

    await page.clock.fastForward('15:30');
    const dialog = shiftDialog(page);
    await expect(dialog).toBeVisible();
    await expect(
      dialog.getByRole('heading', { name: 'Digite a senha do atendente' }),
    ).toBeVisible();
    await expect(dialog.getByRole('alert')).toHaveText(
      'O turno foi encerrado após 15 minutos sem uso. A venda em andamento foi mantida.',
    );
    await expectAccessible(page, 'shift closed after 15 minutes without use');
    expect(postings).toHaveLength(0);

    await dialog.getByLabel('Senha do atendente').fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Continuar' }).click();
    await expect(dialog).toBeHidden();
    await expect(amount(page)).toHaveValue('R$ 12,50');
    await expect(line.getByLabel('Descrição')).toHaveValue('Café coado');
    await expect(line.getByLabel('Total do item 1')).toHaveText('R$ 12,50');

    await postButton(page).click();
    await expect(posted(page)).toBeVisible();
    expect(postings).toHaveLength(1);
    expect(postings[0]!.postDataJSON()).toMatchObject({
      valor_gasto: 1250,
      senha_atendente: PASSWORD,
      itens: [{ descricao: 'Café coado', qtde: 1, valor: 1250 }],
    });
    expect((await fetchCustomer(page.request, { celular: phone.e164 }))!.compras).toBe(1);
  });

  test('a key press resets the count: 14 minutes, a key, 14 more minutes and the shift is open', async ({
    page,
  }) => {
    await page.clock.install();
    await openCounter(page, PASSWORD);
    await page.clock.runFor('14:00');
    await expect(page.getByText('● Turno aberto')).toBeVisible();
    await page.keyboard.press('1');
    await page.clock.runFor('14:00');
    await expect(page.getByText('● Turno aberto')).toBeVisible();
    await expect(shiftDialog(page)).toBeHidden();
    // Past 15 minutes since that key press: closed.
    await page.clock.runFor('01:30');
    await expect(shiftDialog(page)).toBeVisible();
    await expect(page.getByText('○ Turno fechado')).toBeVisible();
  });
});

test('the shift dialog at the start of a shift is accessible', async ({ page }) => {
  await page.goto('/');
  const dialog = page.getByRole('dialog', { name: 'Abrir turno' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Senha do atendente')).toBeFocused();
  await expectAccessible(page, 'shift dialog open');
});
