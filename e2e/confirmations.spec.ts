// The counter's dialogs in a real browser, keyboard only, each effect counted from the
// service's own records: the hand-over opens with "Entregar" focused, Enter hands the reward
// over (one record more `resgatado`), Esc closes it with nothing changed; a second terminal's
// Enter on a reward just handed over is told once that it was; the shift's dialog opens on the
// password. jsdom cannot see where the focus lands after showModal(): this is the proof.
// (Discarding a kept sale: contingency-ui.spec.ts; leaving kiosk mode: kiosk.spec.ts.)
import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { BASE_1, expect, test } from './support/fixtures';
import { fetchCustomer, newCustomer } from './support/customers';
import { openCounter, search } from './support/counter';
import { shot, shotsDir } from './support/shots';

const VALE = 'Vale-compras de R$ 10,00';
const SHOTS = shotsDir('confirmations');

/** A new customer who has just won one "Vale-compras" (100 points at 100 cents a point). */
async function customerWithVale(page: Page, nome: string) {
  const phone = await newCustomer(page, { nome });
  const res = await page.request.post('/api/v4/estabelecimentos/1/fidelidade/pontuar', {
    data: { valor_gasto: 10_000, senha_atendente: '1234', cliente: { celular: phone.e164 } },
    headers: { origin: BASE_1, 'idempotency-key': randomUUID() },
  });
  expect(res.status()).toBe(200);
  const customer = await fetchCustomer(page.request, { celular: phone.e164 });
  return { phone, id: customer!.id_cliente, nome };
}

/** The customer's rewards in a status, as the service lists them. */
async function rewards(request: APIRequestContext, id: number, status: string): Promise<number> {
  const res = await request.get(
    `/api/v4/estabelecimentos/1/recompensas?id_cliente=${id}&status=${status}&itens_por_pagina=100`,
  );
  expect(res.status()).toBe(200);
  return ((await res.json()) as { data: { total: number } }).data.total;
}

const counts = async (request: APIRequestContext, id: number) => ({
  pendente: await rewards(request, id, 'pendente_resgate'),
  resgatado: await rewards(request, id, 'resgatado'),
});

test('the hand-over opens on "Entregar": Esc cancels with nothing changed, Enter hands it over once', async ({
  page,
}) => {
  const who = await customerWithVale(page, 'Rita Teclado');
  expect(await counts(page.request, who.id)).toEqual({ pendente: 1, resgatado: 0 });
  await openCounter(page);
  await search(page, who.phone.digits);
  const panel = page.getByRole('region', { name: who.nome });
  const entregar = panel.getByRole('button', { name: `Entregar ${VALE}` });
  await expect(entregar).toHaveCount(1);
  // Named by its question, then by its outcome's heading.
  const dialog = page.getByRole('alertdialog');
  const question = `Entregar ${VALE} a ${who.nome}?`;
  const confirm = dialog.getByRole('button', { name: /^Entregar/ });

  // Opened from the keyboard, as a cashier does: the focus on the row's button, then Enter.
  await entregar.focus();
  await page.keyboard.press('Enter');
  await expect(dialog).toHaveAccessibleName(question);
  await expect(confirm).toBeFocused();
  await shot(page, `${SHOTS}/hand-over.png`);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(entregar).toBeFocused();
  expect(await counts(page.request, who.id)).toEqual({ pendente: 1, resgatado: 0 });

  // Opened by a click: the same focus, and Enter confirms.
  await entregar.click();
  await expect(dialog).toHaveAccessibleName(question);
  await expect(confirm).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog.getByRole('heading', { name: /Prêmio entregue/ })).toBeVisible();
  const after = await counts(page.request, who.id);
  console.log(
    `[confirmations] hand-over: Esc left ${JSON.stringify({ pendente: 1, resgatado: 0 })}, Enter made ${JSON.stringify(after)}`,
  );
  expect(after).toEqual({ pendente: 0, resgatado: 1 });
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(panel.getByRole('button', { name: `Entregar ${VALE}` })).toHaveCount(0);
});

test('a second terminal’s Enter on a reward just handed over is told once that it was', async ({
  browser,
  page,
}) => {
  const who = await customerWithVale(page, 'Otávio Dois Caixas');
  const other = await browser.newContext({
    baseURL: BASE_1,
    locale: 'pt-BR',
    timezoneId: 'America/Sao_Paulo',
  });
  const second = await other.newPage();
  const dialogs: Locator[] = [];
  for (const p of [page, second]) {
    await openCounter(p);
    await search(p, who.phone.digits);
    await p
      .getByRole('region', { name: who.nome })
      .getByRole('button', { name: `Entregar ${VALE}` })
      .click();
    const dialog = p.getByRole('alertdialog');
    await expect(dialog).toHaveAccessibleName(`Entregar ${VALE} a ${who.nome}?`);
    await expect(dialog.getByRole('button', { name: /^Entregar/ })).toBeFocused();
    dialogs.push(dialog);
  }
  await page.keyboard.press('Enter');
  await expect(dialogs[0]!.getByRole('heading', { name: /Prêmio entregue/ })).toBeVisible();
  await second.keyboard.press('Enter');
  const refused = dialogs[1]!;
  await expect(
    refused.getByRole('heading', { name: 'Este prêmio já foi entregue.' }),
  ).toBeVisible();
  const text = (await refused.textContent()) ?? '';
  expect(text.match(/já foi entregue/g)).toHaveLength(1);
  await expect(refused.getByRole('alert')).toContainText('Nada foi entregue agora.');
  await shot(second, `${SHOTS}/already.png`);
  // The service handed it over once.
  expect(await counts(page.request, who.id)).toEqual({ pendente: 0, resgatado: 1 });
  await other.close();
});

test('the shift dialog opens on the password: Enter opens the shift, Esc does not skip it', async ({
  page,
}) => {
  await page.goto('/');
  const shift = page.getByRole('dialog', { name: /abrir turno/i });
  const password = shift.getByLabel('Senha do atendente');
  await expect(password).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(shift).toBeVisible();
  await page.keyboard.type('1234');
  await page.keyboard.press('Enter');
  await expect(shift).toBeHidden();
  await expect(page.getByLabel(/buscar cliente/i)).toBeFocused();
});
