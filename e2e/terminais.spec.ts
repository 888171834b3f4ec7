// The "Terminais" screen through the real app server and sandbox, auto-enrollment off: a
// gerente creates a counter's code (a new browser enrolls with it and posts), a kiosk's code
// (a new browser becomes the kiosk) and pairs the two, revokes the counter after a
// confirmation (Esc cancels, Enter confirms; the revoked browser is back at the enrollment
// screen), and the audit trail lists the changes. The chain's rede picks the store; a cashier
// cannot open the screen. Screenshots at 390 and 1280 px; axe clean; nothing scrolls sideways.
import type { Browser, Locator, Page } from '@playwright/test';
import { expect, expectAccessible, test } from './support/fixtures';
import { openShift, postSaleShown } from './support/counter';
import { overflowing } from './support/layout';
import { enrollHeading, enrolledTerminal, serialSpec, shiftTerminal } from './support/own-server';
import { shot } from './support/shots';

const { server, shots: SHOTS } = serialSpec('terminais');

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Principal' });

/** A new browser (a viewport `width` wide) that enrolls with `code` typed on its screen. */
async function enrollWith(browser: Browser, code: string, width = 1280): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  await page.goto(server.url);
  await expect(enrollHeading(page)).toBeVisible();
  await page.getByLabel('Código de registro').fill(code);
  await page.getByRole('button', { name: 'Registrar terminal' }).click();
  return page;
}

/** Picks the option of `select` whose text contains `text`. */
async function pick(select: Locator, text: string): Promise<void> {
  const value = await select.locator('option', { hasText: text }).first().getAttribute('value');
  await select.selectOption(value!);
}

/** Creates a terminal on the screen; returns the code it shows. */
async function createTerminal(page: Page, name: string, role: string): Promise<string> {
  const form = page.getByRole('form', { name: 'Novo terminal' });
  await form.getByLabel('Nome do terminal').fill(name);
  await pick(form.getByLabel('Papel'), role);
  await form.getByRole('button', { name: 'Criar código' }).click();
  const code = page.getByTestId('enrollment-code');
  await expect(page.getByText(`Terminal ${name} criado`)).toBeVisible();
  return (await code.textContent())!.trim();
}

const row = (page: Page, name: string) =>
  page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: new RegExp(name) }) });

test('a gerente enrolls a counter and a kiosk, pairs them, revokes the counter; all audited', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const { page } = await shiftTerminal(server, browser, 'gerente', 'Gerência', 1280);
  await mainNav(page).getByRole('link', { name: 'Terminais' }).click();
  await expect(page.getByRole('heading', { name: 'Terminais', level: 1 })).toBeVisible();
  await expect(row(page, 'Gerência')).toContainText('este terminal');
  // A gerente creates no rede terminal.
  const roles = page.getByRole('form', { name: 'Novo terminal' }).getByLabel('Papel');
  await expect(roles.locator('option')).toHaveText([
    'Escolha…',
    'Caixa — lança pontos e entrega prêmios',
    'Gerente — caixa, painel, auditoria e terminais da loja',
    'Quiosque — tela do cliente',
  ]);
  // A name left empty is said at its field.
  await page.getByRole('button', { name: 'Criar código' }).click();
  await expect(page.getByText('Digite o nome do terminal.')).toBeVisible();

  // 1. A new counter: its code enrolls a new browser, which posts.
  const code = await createTerminal(page, 'Caixa Nova', 'Caixa —');
  expect(code).toMatch(/^[2-9A-Z]{4}-[2-9A-Z]{4}$/);
  await expect(row(page, 'Caixa Nova')).toContainText('aguardando código');
  await shot(page, `${SHOTS}/terminais-1280-code.png`, { fullPage: true });
  const caixa = await enrollWith(browser, code);
  await expect(caixa.getByTestId('terminal')).toContainText('Caixa Nova');
  await openShift(caixa);
  await postSaleShown(caixa, '11987654321', '1500');

  // 2. A kiosk: its code makes a new browser the kiosk; paired with the new counter.
  const kioskCode = await createTerminal(page, 'Tela do cliente', 'Quiosque —');
  const kiosk = await enrollWith(browser, kioskCode);
  await expect(kiosk.getByRole('heading', { name: 'Programa de fidelidade' })).toBeVisible();
  await page.reload();
  await expect(row(page, 'Caixa Nova')).toContainText('ativo');
  const pair = page.getByRole('form', { name: 'Quiosque do caixa' });
  await pick(pair.getByLabel('Caixa'), 'Caixa Nova');
  await pick(pair.getByLabel('Quiosque'), 'Tela do cliente');
  await pair.getByRole('button', { name: 'Salvar' }).click();
  await expect(
    page.getByText('Caixa Nova: cada venda do PDV vai direto ao quiosque Tela do cliente.'),
  ).toBeVisible();
  await expect(row(page, 'Caixa Nova')).toContainText('PDV direto ao quiosque Tela do cliente');
  await expectAccessible(page, 'terminais screen');
  expect(await overflowing(page)).toEqual([]);
  await shot(page, `${SHOTS}/terminais-1280.png`, { fullPage: true });

  // 3. Revoke the counter: Esc cancels, then Enter confirms (the focus is on "Revogar").
  const revoke = row(page, 'Caixa Nova').getByRole('button', { name: 'Revogar Caixa Nova' });
  await revoke.click();
  const dialog = page.getByRole('alertdialog', { name: 'Revogar o terminal Caixa Nova?' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Revogar' })).toBeFocused();
  await shot(page, `${SHOTS}/terminais-1280-revoke.png`);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(row(page, 'Caixa Nova')).toContainText('ativo');
  await revoke.click();
  await expect(dialog.getByRole('button', { name: 'Revogar' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText(/Terminal Caixa Nova revogado/)).toBeVisible();
  await expect(row(page, 'Caixa Nova')).toContainText('revogado');
  // The gerente's own row has nothing to revoke.
  await expect(row(page, 'Gerência').getByRole('button')).toHaveCount(0);
  // The revoked browser: its next request (the counter asks the server's state every 5 s)
  // brings the enrollment screen, saying why.
  await expect(enrollHeading(caixa)).toBeVisible({ timeout: 20_000 });
  await expect(caixa.getByText('O registro deste terminal foi revogado.')).toBeVisible();
  const refused = await caixa.request.post(
    `${server.url}/api/v4/estabelecimentos/1/clientes/buscar`,
    { data: { celular: '+5511987654321' }, headers: { origin: server.url } },
  );
  expect(refused.status()).toBe(401);

  // 4. The audit trail lists the changes, each by the gerente.
  await page.goto(`${server.url}/auditoria`);
  const entries = page.getByRole('region', { name: 'Registros de auditoria' });
  for (const [action, details] of [
    ['Terminal criado', 'Caixa Nova (caixa)'],
    ['Terminal criado', 'Tela do cliente (quiosque)'],
    ['Quiosque do caixa definido', 'Caixa Nova (nº'],
    ['Terminal revogado', 'Caixa Nova (caixa)'],
  ] as const) {
    await expect(
      entries.getByRole('row').filter({ hasText: action }).filter({ hasText: details }),
    ).toHaveCount(1);
  }
  await expect(
    entries.getByRole('row').filter({ hasText: 'Terminal revogado' }).first(),
  ).toContainText('Gerência');
  await shot(page, `${SHOTS}/auditoria-1280.png`, { fullPage: true });
});

test('on a phone the terminals are cards, nothing scrolls sideways', async ({ browser }) => {
  const gerente = await enrolledTerminal(server, browser, 'gerente', 'Gerência Celular', 390);
  const page = gerente.page;
  await page.goto(`${server.url}/terminais`);
  await expect(page.getByRole('heading', { name: 'Terminais', level: 1 })).toBeVisible();
  // Cards: the rows are a list, each card titled by its terminal.
  await expect(page.getByRole('list', { name: 'Terminais da loja' })).toBeVisible();
  expect(await overflowing(page)).toEqual([]);
  await shot(page, `${SHOTS}/terminais-390.png`, { fullPage: true });
  await page
    .getByRole('listitem')
    .filter({ hasText: 'Tela do cliente' })
    .getByRole('button', { name: 'Revogar Tela do cliente' })
    .click();
  await expect(page.getByRole('alertdialog')).toBeVisible();
  await shot(page, `${SHOTS}/terminais-390-revoke.png`);
  await page.getByRole('button', { name: 'Cancelar' }).click();
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
});

test('the chain’s rede picks the store; a cashier cannot open the screen', async ({ browser }) => {
  const rede = await enrolledTerminal(server, browser, 'rede', 'Rede', 1280);
  await rede.page.goto(`${server.url}/terminais`);
  const store = rede.page.getByLabel('Loja', { exact: true });
  await expect(store).toBeVisible();
  await pick(store, 'Loja Centro');
  await expect(rede.page.getByText('Nenhum terminal nesta loja ainda.')).toBeVisible();
  const code = await createTerminal(rede.page, 'Caixa Centro', 'Caixa —');
  await expect(rede.page.getByText('Terminal Caixa Centro criado na Loja Centro')).toBeVisible();
  await shot(rede.page, `${SHOTS}/terminais-rede-1280.png`, { fullPage: true });
  const centro = await enrollWith(browser, code);
  await expect(centro.getByTestId('connection')).toContainText('Loja Centro');

  const caixa = await enrolledTerminal(server, browser, 'caixa', 'Caixa Sem Acesso', 1280);
  await expect(mainNav(caixa.page).getByRole('link', { name: 'Terminais' })).toHaveCount(0);
  await caixa.page.goto(`${server.url}/terminais`);
  await expect(
    caixa.page.getByRole('heading', { name: 'Este terminal não tem acesso a esta tela' }),
  ).toBeVisible();
  const refused = await caixa.page.request.get(`${server.url}/api/terminais`);
  expect(refused.status()).toBe(403);
});
