import type { Page, Request } from '@playwright/test';
import { BASE_2, expect, expectAccessible, test } from './support/fixtures';
import { fetchCustomer, newCustomer, uniqueCpf, uniquePhone } from './support/customers';
import { amount, openCounter, postButton, posted, recordPostings, search } from './support/counter';

// The demo data's first customer of establishment 1 (see server/sandbox seed).
const MARIA = {
  phone: '11987654321',
  e164: '+5511987654321',
  cpf: '52998224725',
  name: 'Maria da Silva',
};

const customerPanel = (page: Page, name: string | RegExp) => page.getByRole('region', { name });

test.describe('find', () => {
  test('once the counter has loaded its parts, the first search shows the panels at once, never "Carregando…"', async ({
    page,
  }) => {
    await openCounter(page);
    await page.waitForFunction(() =>
      performance.getEntriesByType('resource').some((e) => e.name.includes('/counter-heavy-')),
    );
    // Every card the first search mounts, as it is added (a suspended part shows "Carregando…").
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { seen: string[] }).seen = seen;
      new MutationObserver((records) => {
        for (const r of records)
          for (const n of r.addedNodes) if (n instanceof HTMLElement) seen.push(n.innerText);
      }).observe(document.body, { childList: true, subtree: true });
    });
    await search(page, MARIA.phone);
    await expect(customerPanel(page, MARIA.name).getByTestId('saldo')).toBeVisible();
    await expect(amount(page)).toBeFocused();
    const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
    console.log(
      `first search added ${seen.length} nodes; suspended parts: ${seen.filter((t) => t.includes('Carregando')).length}`,
    );
    expect(seen.filter((t) => t.includes('Carregando'))).toEqual([]);
  });

  test('a slow search says it is searching, then shows the customer in its place', async ({
    page,
  }) => {
    await openCounter(page);
    await page.route('**/clientes/buscar', async (route) => {
      await new Promise((r) => setTimeout(r, 1_500));
      await route.continue();
    });
    await search(page, MARIA.phone);
    const searching = page.getByRole('status').filter({ hasText: 'Buscando cliente…' });
    await expect(searching).toBeVisible();
    await expect(page.getByRole('button', { name: /buscar/i })).toHaveAttribute(
      'aria-busy',
      'true',
    );
    await expect(customerPanel(page, MARIA.name).getByTestId('saldo')).toBeVisible();
    await expect(searching).toHaveCount(0);
    await expect(page.getByRole('button', { name: /buscar/i })).not.toHaveAttribute('aria-busy');
    await expect(amount(page)).toBeFocused();
  });

  test('finds a customer by phone typed with punctuation, formatted as typed', async ({ page }) => {
    await openCounter(page);
    const field = page.getByLabel(/buscar cliente/i);
    await field.pressSequentially('11987654321');
    await expect(field).toHaveValue('(11) 98765-4321');
    await expect(page.getByText('Entendido: Celular (11) 98765-4321')).toBeVisible();
    await field.press('Enter');
    const panel = customerPanel(page, MARIA.name);
    await expect(panel).toBeVisible();
    await expect(panel.getByTestId('saldo')).toBeVisible();
    await expect(amount(page)).toBeFocused();
    await expectAccessible(page, 'customer found');
  });

  test('finds a customer by CPF', async ({ page }) => {
    await openCounter(page);
    await search(page, '529.982.247-25');
    await expect(page.getByText('Entendido: CPF 529.982.247-25')).toBeVisible();
    await expect(customerPanel(page, MARIA.name)).toBeVisible();
  });

  test('finds a customer by id written as #id', async ({ page }) => {
    const maria = await fetchCustomer(page.request, { celular: MARIA.e164 });
    await openCounter(page);
    await search(page, `#${maria!.id_cliente}`);
    await expect(customerPanel(page, MARIA.name)).toContainText(`Cliente #${maria!.id_cliente}`);
  });

  test('input that is no phone, CPF or id says why and sends nothing', async ({ page }) => {
    await openCounter(page);
    let lookups = 0;
    page.on('request', (r) => {
      if (r.url().includes('/clientes/buscar')) lookups++;
    });
    await search(page, '111.111.111-11');
    await expect(page.getByRole('alert')).toContainText('CPF inválido');
    await search(page, 'abc');
    await expect(page.getByRole('alert')).toContainText('Use apenas números');
    await search(page, '12');
    await expect(page.getByRole('alert')).toContainText('#');
    await expectAccessible(page, 'invalid search');
    expect(lookups).toBe(0);
  });
});

test("a known customer costs the phone's digits to open the panel, then the amount and one Enter", async ({
  page,
}) => {
  await openCounter(page);
  const before = await fetchCustomer(page.request, { celular: MARIA.e164 });
  const postings = recordPostings(page);
  const keys: string[] = [];
  const press = async (key: string) => {
    keys.push(key);
    await page.keyboard.press(key);
  };
  for (const digit of MARIA.phone) await press(digit);
  // No Enter: the phone's last digit opened the panel and gave the amount the focus.
  await expect(customerPanel(page, MARIA.name).getByTestId('saldo')).toBeVisible();
  await expect(amount(page)).toBeFocused();
  const toOpen = keys.length;
  for (const digit of '2590') await press(digit);
  await expect(amount(page)).toHaveValue('R$ 25,90');
  await press('Enter');
  await expect(posted(page)).toBeVisible();
  console.log(
    `keys: ${toOpen} to open the panel (the phone has ${MARIA.phone.length} digits), ` +
      `${keys.length} in all; postings sent: ${postings.length}`,
  );
  expect(toOpen).toBe(MARIA.phone.length);
  expect(keys).toEqual([...MARIA.phone, ...'2590', 'Enter']);
  expect(postings).toHaveLength(1);
  expect(postings[0]!.postDataJSON()).toMatchObject({
    valor_gasto: 2590,
    cliente: { celular: MARIA.e164 },
  });
  const after = await fetchCustomer(page.request, { celular: MARIA.e164 });
  expect(after!.compras).toBe(before!.compras + 1);
  await expectAccessible(page, 'posted');
  // One key starts the next customer: everything cleared, focus back in the search field.
  await page.keyboard.press('Escape');
  await expect(page.getByLabel(/buscar cliente/i)).toBeFocused();
  await expect(page.getByLabel(/buscar cliente/i)).toHaveValue('');
  await expect(customerPanel(page, MARIA.name)).toBeHidden();
});

test('keys typed after the search left by itself stay in the search field and post nothing', async ({
  page,
}) => {
  await openCounter(page);
  const postings = recordPostings(page);
  // The answer takes a moment: the cashier types on before it is in.
  await page.route('**/clientes/buscar', async (route) => {
    await new Promise((r) => setTimeout(r, 400));
    await route.continue();
  });
  const field = page.getByLabel(/buscar cliente/i);
  await page.keyboard.type(`${MARIA.phone}2590`);
  await page.keyboard.press('Enter');
  await expect(customerPanel(page, MARIA.name)).toBeVisible();
  // Every digit is in the field, which kept the focus; Enter there said what is wrong.
  await expect(field).toHaveValue(`${MARIA.phone}2590`);
  await expect(field).toBeFocused();
  await expect(page.getByRole('alert')).toContainText('dígitos a mais');
  await expect(amount(page)).toHaveValue('R$ 0,00');
  expect(postings).toHaveLength(0);
  // Back to the phone alone: searched again, and this time the amount takes the focus.
  for (let i = 0; i < 4; i++) await page.keyboard.press('Backspace');
  await expect(field).toHaveValue('(11) 98765-4321');
  await expect(amount(page)).toBeFocused();
  expect(postings).toHaveLength(0);
});

test('not found → register → post', async ({ page }) => {
  const phone = uniquePhone();
  await openCounter(page);
  await search(page, phone.digits);
  await expect(page.getByRole('heading', { name: 'Cliente não encontrado' })).toBeVisible();
  await expectAccessible(page, 'not found');
  await page.getByRole('button', { name: /Cadastrar cliente/ }).click();
  const form = page.getByRole('form', { name: /cadastr/i });
  await expect(form.getByLabel(/Celular/)).toHaveValue(/\(11\) 9\d{4}-\d{4}/);
  await form.getByLabel('Nome').fill('João Teste de Cadastro');
  await form.getByLabel('CEP').fill('01310100');
  await form.getByLabel('UF').selectOption('SP');
  await expectAccessible(page, 'register form');
  await form.getByRole('button', { name: /Cadastrar/ }).click();
  const panel = customerPanel(page, 'João Teste de Cadastro');
  await expect(panel).toBeVisible();
  await amount(page).pressSequentially('1000');
  await postButton(page).click();
  await expect(posted(page)).toBeVisible();
  await expect(page.getByTestId('new-balance')).toHaveText('10 pontos');
  const after = await fetchCustomer(page.request, { celular: phone.e164 });
  expect(after).toMatchObject({ nome: 'João Teste de Cadastro', compras: 1 });
});

test('not found → post directly registers the customer with the points', async ({ page }) => {
  const phone = uniquePhone();
  await openCounter(page);
  await search(page, phone.digits);
  await expect(page.getByRole('heading', { name: 'Cliente não encontrado' })).toBeVisible();
  await expect(amount(page)).toBeFocused();
  await amount(page).pressSequentially('500');
  await expectAccessible(page, 'new customer sale');
  await postButton(page).click();
  await expect(posted(page)).toBeVisible();
  const after = await fetchCustomer(page.request, { celular: phone.e164 });
  expect(after).toMatchObject({ nome: 'CLIENTE DESCONHECIDO', compras: 1 });
  expect(after!.carteira.saldo).toBe(5);
});

test('register: 409 says the customer exists and opens it', async ({ page }) => {
  await openCounter(page);
  await search(page, uniqueCpf());
  await page.getByRole('button', { name: /Cadastrar cliente/ }).click();
  const form = page.getByRole('form', { name: /cadastr/i });
  await form.getByLabel(/Celular/).fill(MARIA.phone);
  await form.getByRole('button', { name: /Cadastrar/ }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Cliente já cadastrado' })).toBeVisible();
  await expectAccessible(page, 'register 409');
  await page.getByRole('button', { name: 'Abrir cadastro existente' }).click();
  await expect(customerPanel(page, MARIA.name)).toBeVisible();
});

test('register: a 422 lands on its field and keeps what was typed', async ({ page }) => {
  const phone = uniquePhone();
  await openCounter(page);
  // Simulate a rule the screen does not know: the service refuses this CEP.
  await page.route('**/clientes/cadastrar', async (route) => {
    const body = route.request().postDataJSON();
    await route.continue({ postData: JSON.stringify({ ...body, cep: '123' }) });
  });
  await search(page, phone.digits);
  await page.getByRole('button', { name: /Cadastrar cliente/ }).click();
  const form = page.getByRole('form', { name: /cadastr/i });
  await form.getByLabel('Nome').fill('Ana Validação');
  await form.getByLabel('CEP').fill('01310100');
  await form.getByRole('button', { name: /Cadastrar/ }).click();
  await expect(form.getByLabel('CEP')).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByText(/CEP/i).last()).toBeVisible();
  await expect(form.getByLabel('Nome')).toHaveValue('Ana Validação');
  await expect(form.getByLabel(/Celular/)).not.toHaveValue('');
  expect(await fetchCustomer(page.request, { celular: phone.e164 })).toBeNull();
});

test('a basket that does not add up blocks posting until fixed, then posts', async ({ page }) => {
  await openCounter(page);
  await search(page, MARIA.phone);
  await expect(customerPanel(page, MARIA.name)).toBeVisible();
  await amount(page).pressSequentially('3000');
  await page.keyboard.press('F4');
  const item1 = page.getByRole('listitem', { name: 'Item 1' });
  await expect(item1.getByLabel('Descrição')).toBeFocused();
  await page.keyboard.type('Café');
  await item1.getByLabel('Qtd.').fill('2');
  await item1.getByLabel('Preço unit.').pressSequentially('800');
  await expect(item1.getByLabel('Total do item 1')).toHaveText('R$ 16,00');
  await expect(postButton(page)).toBeDisabled();
  await expect(
    page.getByText('Faltam R$ 14,00 nos itens para fechar o valor da compra.'),
  ).toBeVisible();
  await expectAccessible(page, 'basket blocked');
  await page.getByRole('button', { name: /Adicionar item/ }).click();
  const item2 = page.getByRole('listitem', { name: 'Item 2' });
  await item2.getByLabel('Descrição').fill('Pão de queijo');
  await item2.getByLabel('Preço unit.').pressSequentially('1500');
  await expect(page.getByText('Os itens passam R$ 1,00 do valor da compra.')).toBeVisible();
  await expect(postButton(page)).toBeDisabled();
  // F8 copies the basket total into the amount.
  await page.keyboard.press('F8');
  await expect(amount(page)).toHaveValue('R$ 31,00');
  await expect(postButton(page)).toBeEnabled();
  const sent = page.waitForRequest('**/fidelidade/pontuar');
  await postButton(page).click();
  const body = (await sent).postDataJSON();
  expect(body.valor_gasto).toBe(3100);
  expect(body.itens).toEqual([
    { descricao: 'Café', qtde: 2, valor: 1600 },
    { descricao: 'Pão de queijo', qtde: 1, valor: 1500 },
  ]);
  await expect(posted(page)).toBeVisible();
});

test('a wrong attendant password asks for it again and keeps the basket', async ({ page }) => {
  await openCounter(page, '9999');
  const before = await fetchCustomer(page.request, { celular: MARIA.e164 });
  await search(page, MARIA.phone);
  await expect(customerPanel(page, MARIA.name)).toBeVisible();
  await amount(page).pressSequentially('1200');
  await page.getByRole('button', { name: /Adicionar item/ }).click();
  const item1 = page.getByRole('listitem', { name: 'Item 1' });
  await item1.getByLabel('Descrição').fill('Refrigerante lata');
  await item1.getByLabel('Preço unit.').pressSequentially('1200');
  await postButton(page).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('recusou a senha');
  await expectAccessible(page, 'password rejected');
  await dialog.getByLabel('Senha do atendente').fill('1234');
  await dialog.getByRole('button', { name: 'Continuar' }).click();
  await expect(item1.getByLabel('Descrição')).toHaveValue('Refrigerante lata');
  await expect(amount(page)).toHaveValue('R$ 12,00');
  await postButton(page).click();
  await expect(posted(page)).toBeVisible();
  const after = await fetchCustomer(page.request, { celular: MARIA.e164 });
  expect(after!.compras).toBe(before!.compras + 1);
});

test.describe('posting exactly once', () => {
  /** Every request the clicks or keys sent has been answered, and only one was sent. */
  async function expectPostedOnce(page: Page, sent: Request[], celular: string) {
    await Promise.all(sent.map((r) => r.response()));
    expect(sent).toHaveLength(1);
    expect((await fetchCustomer(page.request, { celular }))!.compras).toBe(1);
  }

  test('a double click posts once', async ({ page }) => {
    const phone = await newCustomer(page, { nome: 'Duplo Clique' });
    await openCounter(page);
    await search(page, phone.digits);
    await amount(page).pressSequentially('1000');
    const sent = recordPostings(page);
    await postButton(page).dblclick();
    await expect(posted(page)).toBeVisible();
    await expectPostedOnce(page, sent, phone.e164);
  });

  test('a held Enter posts once', async ({ page }) => {
    const phone = await newCustomer(page, { nome: 'Enter Preso' });
    await openCounter(page);
    await search(page, phone.digits);
    await expect(amount(page)).toBeFocused();
    await page.keyboard.type('1000');
    const sent = recordPostings(page);
    for (let i = 0; i < 8; i++) await page.keyboard.down('Enter'); // auto-repeat
    await page.keyboard.up('Enter');
    await expect(posted(page)).toBeVisible();
    await expectPostedOnce(page, sent, phone.e164);
  });

  test('a lost answer is checked, reported "lançado" and never sent again', async ({ page }) => {
    const phone = await newCustomer(page, { nome: 'Resposta Perdida' });
    await openCounter(page);
    let posts = 0;
    await page.route('**/fidelidade/pontuar', async (route) => {
      posts++;
      await route.fetch(); // the request reaches the service…
      await route.abort('connectionreset'); // …and its answer is lost
    });
    await search(page, phone.digits);
    await amount(page).pressSequentially('4000');
    await postButton(page).click();
    await expect(posted(page)).toBeVisible();
    await expect(posted(page)).toContainText('conferido');
    await expect(page.getByTestId('new-balance')).toHaveText('40 pontos');
    expect(posts).toBe(1);
    expect((await fetchCustomer(page.request, { celular: phone.e164 }))!.compras).toBe(1);
  });

  test('a request that never reached the service is reported "não lançado" and may be posted again', async ({
    page,
  }) => {
    const phone = await newCustomer(page, { nome: 'Rede Caiu' });
    await openCounter(page);
    await page.route('**/fidelidade/pontuar', (route) => route.abort('connectionreset'), {
      times: 1,
    });
    await search(page, phone.digits);
    await amount(page).pressSequentially('1500');
    await postButton(page).click();
    await expect(page.getByText('Não lançado.')).toBeVisible();
    await expectAccessible(page, 'not posted');
    await expect(amount(page)).toHaveValue('R$ 15,00');
    await postButton(page).click();
    await expect(posted(page)).toBeVisible();
    expect((await fetchCustomer(page.request, { celular: phone.e164 }))!.compras).toBe(1);
  });
});

test('a customer name with markup renders as text', async ({ page }) => {
  const name = '<img src=x onerror="window.__xss=1"><b>Zé</b>';
  const phone = await newCustomer(page, { nome: name });
  await openCounter(page);
  await search(page, phone.digits);
  await expect(page.getByRole('heading', { name })).toBeVisible();
  expect(
    await page.evaluate(() => (window as unknown as { __xss?: number }).__xss),
  ).toBeUndefined();
  expect(await page.locator('main img').count()).toBe(0);
});

test('carência is explained for establishment 2', async ({ page }) => {
  const phone = uniquePhone();
  await page.goto(`${BASE_2}/`);
  await expect(page.getByTestId('connection')).toContainText('Café Carência');
  const dialog = page.getByRole('dialog', { name: /abrir turno/i });
  await dialog.getByLabel('Senha do atendente').fill('4321');
  await dialog.getByRole('button', { name: /abrir turno/i }).click();
  await search(page, phone.digits);
  await amount(page).pressSequentially('5000');
  await postButton(page).click();
  await expect(posted(page)).toBeVisible();
  await expect(page.getByText('10 pontos em carência')).toBeVisible();
  await expect(page.getByTestId('new-balance')).toHaveText('0 pontos');
  await expectAccessible(page, 'posted with carência');
  const c = await fetchCustomer(page.request, { celular: phone.e164 }, 2, BASE_2);
  expect(c!.carteira).toMatchObject({ saldo: 0, saldo_carencia: 10 });
});

test("the service's error on a basket line lands on that line and keeps the basket", async ({
  page,
}) => {
  await openCounter(page);
  // Simulate a rule the screen does not know: the service refuses line 2's amount.
  await page.route('**/fidelidade/pontuar', async (route) => {
    const body = route.request().postDataJSON();
    body.itens[1].valor = -100;
    await route.continue({ postData: JSON.stringify(body) });
  });
  await search(page, MARIA.phone);
  await expect(customerPanel(page, MARIA.name)).toBeVisible();
  await amount(page).pressSequentially('2000');
  for (const [i, [desc, price]] of [
    ['Pão', '500'],
    ['Bolo', '1500'],
  ].entries()) {
    await page.getByRole('button', { name: /Adicionar item/ }).click();
    const line = page.getByRole('listitem', { name: `Item ${i + 1}` });
    await line.getByLabel('Descrição').fill(desc!);
    await line.getByLabel('Preço unit.').pressSequentially(price!);
  }
  await postButton(page).click();
  const line2 = page.getByRole('listitem', { name: 'Item 2' });
  await expect(line2.getByLabel('Preço unit.')).toHaveAttribute('aria-invalid', 'true');
  await expect(line2.getByLabel('Preço unit.')).toBeFocused();
  await expect(
    page.getByRole('listitem', { name: 'Item 1' }).getByLabel('Preço unit.'),
  ).not.toHaveAttribute('aria-invalid', 'true');
  await expect(line2.getByLabel('Descrição')).toHaveValue('Bolo');
  await expect(amount(page)).toHaveValue('R$ 20,00');
  await expect(posted(page)).toBeHidden();
});
