// Terminals and roles through the real app server with auto-enrollment off (as in live mode
// or on a store's network): enrolling a browser with a code from `npm run terminal`, the
// navigation of each role, revocation, and the attendant-password lockout on the counter.
import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { newCode, terminalCli } from '../server/testing/spawn';
import { expect, expectAccessible, MANAGER_LINKS, test } from './support/fixtures';
import { expectInertUntilAdopted, holdAssets } from './support/painted';
import { amount, postButton, search } from './support/counter';
import { enrollAs as enroll, enrollHeading, serialSpec } from './support/own-server';
import { shot } from './support/shots';

const { server, shots: SHOTS } = serialSpec('terminals');

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Principal' });

const enrollAs = (page: Page, role: string, name: string) => enroll(server, page, role, name);

test('a browser is enrolled with a manager’s code; a wrong or used code is refused at its field', async ({
  page,
}) => {
  await page.goto(server.url);
  await expect(enrollHeading(page)).toBeVisible();
  await expect(page.getByLabel('Código de registro')).toBeFocused();
  await expectAccessible(page, 'enrollment screen');
  // Nothing of the service is reachable before.
  const before = await page.request.post(
    `${server.url}/api/v4/estabelecimentos/1/clientes/buscar`,
    { data: { celular: '+5511987654321' }, headers: { origin: server.url } },
  );
  expect(before.status()).toBe(401);

  await page.getByRole('button', { name: 'Registrar terminal' }).click();
  await expect(page.getByText('Digite o código de registro.')).toBeVisible();
  await page.getByLabel('Código de registro').fill('ZZZZ-ZZZZ');
  await page.getByRole('button', { name: 'Registrar terminal' }).click();
  await expect(page.getByText(/Código inválido, já usado ou expirado/)).toBeVisible();
  await expect(page.getByLabel('Código de registro')).toHaveValue('ZZZZ-ZZZZ');
  await shot(page, `${SHOTS}/enroll-wrong-code.png`);

  const { code } = await newCode(server.env, 'caixa', 'Caixa 1');
  await page.getByLabel('Código de registro').fill(code);
  await page.getByRole('button', { name: 'Registrar terminal' }).click();
  await expect(page.getByRole('dialog', { name: /abrir turno/i })).toBeVisible();
  await expect(page.getByTestId('terminal')).toContainText('Caixa 1');
  // The credential is an HttpOnly cookie the page cannot read.
  expect(await page.evaluate(() => document.cookie)).toBe('');
  const cookies = await page.context().cookies();
  expect(cookies).toHaveLength(1);
  expect(cookies[0]).toMatchObject({ httpOnly: true, sameSite: 'Strict' });

  // The same code again, in another browser: refused.
  const other = await page.context().browser()!.newPage();
  await other.goto(server.url);
  await other.getByLabel('Código de registro').fill(code);
  await other.getByRole('button', { name: 'Registrar terminal' }).click();
  await expect(other.getByText(/Código inválido, já usado ou expirado/)).toBeVisible();
  await other.close();
});

test('the enrollment screen opened at /premios takes no tap before its code is here, then enrolls', async ({
  page,
}) => {
  // Whatever the address, a browser that is not a terminal sees the enrollment screen, whose
  // code is in the counter's second chunk: the page stays inert until React has adopted it.
  const code = await holdAssets(page, '**/assets/counter-heavy-*.js');
  await page.goto(`${server.url}/premios`, { waitUntil: 'commit' });
  await expect(enrollHeading(page)).toBeVisible();
  await expect.poll(code.asked).toBeGreaterThan(0);
  const submit = page.getByRole('button', { name: 'Registrar terminal' });
  await expectInertUntilAdopted(page, submit);
  code.release();
  const enrollment = await newCode(server.env, 'gerente', 'Gerência prêmios');
  await page.getByLabel('Código de registro').fill(enrollment.code);
  await submit.click();
  await expect(page.getByTestId('terminal')).toContainText('Gerência prêmios');
  await expect(page.locator('h1', { hasText: 'Prêmios' })).toBeVisible();
  console.log(
    `enrollment at /premios: counter chunk asked ${code.asked()} time(s); enrolled after it`,
  );
});

test('a caixa terminal sees no rewards table: not in the navigation, not at its address', async ({
  page,
}) => {
  await enrollAs(page, 'caixa', 'Caixa 2');
  await expect(mainNav(page).getByRole('link')).toHaveText(['Caixa']);
  await page.goto(`${server.url}/premios`);
  await expect(
    page.getByRole('heading', { name: 'Este terminal não tem acesso a esta tela' }),
  ).toBeVisible();
  await expect(page.getByRole('table')).toHaveCount(0);
  await shot(page, `${SHOTS}/caixa-premios.png`);
  // The server refuses the table itself too (one customer's rewards stay allowed).
  const table = await page.request.get(`${server.url}/api/v4/estabelecimentos/1/recompensas`);
  expect(table.status()).toBe(403);
  const own = await page.request.get(
    `${server.url}/api/v4/estabelecimentos/1/recompensas?id_cliente=1`,
  );
  expect(own.status()).toBe(200);
});

test('a gerente terminal has the counter and the rewards table', async ({ page }) => {
  await enrollAs(page, 'gerente', 'Gerência');
  await expect(mainNav(page).getByRole('link')).toHaveText(MANAGER_LINKS);
  await expect(mainNav(page).getByRole('link', { name: 'Prêmios' })).toHaveAttribute(
    'href',
    '/premios',
  );
  await page.goto(`${server.url}/premios`);
  await expect(page.getByRole('table', { name: /Prêmios conquistados/ })).toBeVisible();
  await shot(page, `${SHOTS}/gerente-premios.png`);
});

test('a kiosk terminal has only the kiosk', async ({ page }) => {
  const { code } = await newCode(server.env, 'quiosque', 'Quiosque da entrada');
  await page.goto(server.url);
  await page.getByLabel('Código de registro').fill(code);
  await page.getByRole('button', { name: 'Registrar terminal' }).click();
  // Full screen: the kiosk's welcome, no header, no navigation, no link anywhere.
  await expect(page.getByRole('heading', { name: 'Programa de fidelidade' })).toBeVisible();
  await expect(mainNav(page)).toHaveCount(0);
  await expect(page.getByRole('link')).toHaveCount(0);
  await page.goto(`${server.url}/premios`);
  await expect(
    page.getByRole('heading', { name: 'Este terminal não tem acesso a esta tela' }),
  ).toBeVisible();
});

test('a revoked terminal is back at the enrollment screen on its next request', async ({
  page,
}) => {
  const id = await enrollAs(page, 'caixa', 'Caixa Revogado');
  const dialog = page.getByRole('dialog', { name: /abrir turno/i });
  await dialog.getByLabel('Senha do atendente').fill('1234');
  await dialog.getByRole('button', { name: /abrir turno/i }).click();
  expect(await terminalCli(['revoke', String(id)], server.env)).toMatch(/revogado/);
  // Its next request is the search below, or the contingency state the counter polls every
  // 5 s when that comes first (the CLI takes seconds on a loaded machine): either one brings
  // the enrollment screen, which may replace the counter while the phone is being typed.
  let searched = 'before the search was sent (a background request found it revoked)';
  // Not awaited: if the field goes mid-typing, the pending keystrokes end with the page.
  void search(page, '11987654321').then(
    () => (searched = 'after the search'),
    () => undefined,
  );
  await expect(enrollHeading(page)).toBeVisible();
  await expect(page.getByLabel(/buscar cliente/i)).toHaveCount(0);
  console.log(`revoked terminal: enrollment screen shown ${searched}`);
  await expect(page.getByText('O registro deste terminal foi revogado.')).toBeVisible();
  await shot(page, `${SHOTS}/revoked.png`);
  expect(await terminalCli(['list'], server.env)).toMatch(
    new RegExp(`^${id}\\tcaixa\\tCaixa Revogado\\trevogado`, 'm'),
  );
});

test('after 5 wrong attendant passwords the counter says the terminal is locked and for how long', async ({
  page,
}) => {
  await enrollAs(page, 'caixa', 'Caixa Bloqueio');
  const dialog = page.getByRole('dialog', { name: /abrir turno/i });
  await dialog.getByLabel('Senha do atendente').fill('1234');
  await dialog.getByRole('button', { name: /abrir turno/i }).click();
  // Four wrong guesses from this terminal (its cookie, its origin), as a guesser would send:
  // sales the service would take but for the password (a body the app server can tell is
  // wrong is refused before the password is looked at, and is no guess).
  for (let i = 0; i < 4; i++) {
    const res = await page.request.post(
      `${server.url}/api/v4/estabelecimentos/1/fidelidade/pontuar`,
      {
        data: {
          valor_gasto: 100,
          senha_atendente: `chute-${i}`,
          cliente: { celular: '+5511987654321' },
        },
        headers: { origin: server.url, 'idempotency-key': randomUUID() },
      },
    );
    expect(res.status()).toBe(422);
  }
  // The fifth, from the counter with a wrong password: the lock and its time left.
  await page.getByRole('button', { name: /Encerrar turno/ }).click();
  const again = page.getByRole('dialog', { name: /abrir turno/i });
  await again.getByLabel('Senha do atendente').fill('0000');
  await again.getByRole('button', { name: /abrir turno/i }).click();
  await search(page, '11987654321');
  await amount(page).pressSequentially('1000');
  await postButton(page).click();
  const lockText =
    /Senha do atendente bloqueada neste terminal após várias tentativas incorretas\. Tente novamente em (\d+ min( \d+ s)?|\d+ s)\./;
  await expect(page.getByText(lockText)).toBeVisible();
  await shot(page, `${SHOTS}/locked.png`);
});
