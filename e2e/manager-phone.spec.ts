// The manager's screens on a phone and on a small laptop, as the report that found them
// scrolling sideways: two counters, each with its store's PDV sending sales through the real
// integration API (identified or not, one cancelled), a cashier's posting, a conferência that
// finds a credit deleted behind its back, and the audit trail of all that. At 390 and 1024 px
// no element of /painel or /auditoria is wider than its box (each measured: scrollWidth
// against clientWidth); on the phone the wide tables are cards that still show every figure.
import type { Page } from '@playwright/test';
import { addIntegration, openStore } from '../server/store';
import { expect, expectAccessible, test } from './support/fixtures';
import { openShift, postSale } from './support/counter';
import { overflowing, tableBoxes } from './support/layout';
import { loseRecentCredit } from './support/own-data';
import {
  brDay,
  enrolledTerminal,
  saoPauloDay,
  serialSpec,
  shiftTerminal,
} from './support/own-server';
import { shot } from './support/shots';

// Vigilância's webhook points at a closed port: its deliveries fail, are retried and listed.
const { server, shots: SHOTS } = serialSpec('telefone', {
  shots: 'manager-phone',
  env: {
    ALERT_WEBHOOK_URL: 'http://127.0.0.1:9/alertas',
    ALERT_WEBHOOK_SECRET: 'segredo-do-webhook-da-loja-0123456789',
  },
});

/** A PDV paired with the counter `counterId`: its bearer token. */
async function pdvFor(counterId: string, name: string): Promise<string> {
  const store = await openStore({ sqlitePath: server.env.APP_DB! });
  try {
    return (await addIntegration(store, { name, counterId: Number(counterId) })).token;
  } finally {
    await store.close();
  }
}

/** The PDV's call: its answer's status and sale. */
async function pdv(token: string, method: string, path: string, body?: object) {
  const res = await fetch(`${server.url}/api/integracao/vendas${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const json = (await res.json()) as { data: { venda: { estado: string } } };
  return { status: res.status, estado: json.data.venda.estado };
}

/** Sends a sale; one of a registered customer (`posted`) is awaited until it is posted. */
async function sale(
  token: string,
  body: { id_venda: string; valor_gasto: number; cpf?: string; celular?: string },
  posted = false,
) {
  expect((await pdv(token, 'POST', '', body)).status).toBe(201);
  if (!posted) return;
  await expect
    .poll(async () => (await pdv(token, 'GET', `/${body.id_venda}?aguardar=5`)).estado, {
      timeout: 20_000,
    })
    .toBe('lançada');
}

/** Nothing wider than its box; the table boxes' widths for the log. */
async function expectNothingSideways(page: Page, where: string) {
  const boxes = await tableBoxes(page);
  console.log(
    `[manager-phone] ${where}: ${boxes.map((b) => `${b.element} ${b.content} in ${b.box}`).join('; ') || 'no table box (cards)'}`,
  );
  expect(await overflowing(page), where).toEqual([]);
}

/**
 * `screen` as shown at 390 px (nothing sideways, axe clean, a screenshot), then `width` wide,
 * where its cards are the table named `table` again (nothing sideways, a screenshot).
 */
async function phoneThenWider(page: Page, screen: string, width: number, table: string) {
  await expectNothingSideways(page, `${screen} 390`);
  await expectAccessible(page, `${screen} 390`);
  await shot(page, `${SHOTS}/${screen}-390.png`, { fullPage: true });
  await page.setViewportSize({ width, height: 900 });
  await expect(page.getByRole('table', { name: table })).toBeVisible();
  await expectNothingSideways(page, `${screen} ${width}`);
  await shot(page, `${SHOTS}/${screen}-${width}.png`, { fullPage: true });
}

test('/painel, /auditoria and /lancamentos at 390 and 1024 px: nothing sideways, every figure', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const caixa1 = await enrolledTerminal(server, browser, 'caixa', 'Caixa 1', 1024);
  const caixa2 = await enrolledTerminal(server, browser, 'caixa', 'Caixa 2', 1024);
  await openShift(caixa1.page);
  await postSale(caixa1.page, '21998765432', '5600'); // João Pereira, 56 points
  // Each counter's PDV: Maria by CPF and João by phone are posted at once; the others wait.
  const pdv1 = await pdvFor(caixa1.id, 'PDV 1');
  const pdv2 = await pdvFor(caixa2.id, 'PDV 2');
  await sale(pdv1, { id_venda: 'NFCE-101', valor_gasto: 4590, cpf: '52998224725' }, true);
  await sale(pdv1, { id_venda: 'NFCE-102', valor_gasto: 2000 });
  await sale(pdv1, { id_venda: 'NFCE-103', valor_gasto: 1250 });
  expect((await pdv(pdv1, 'POST', '/NFCE-103/cancelar')).estado).toBe('cancelada');
  await sale(pdv2, { id_venda: 'NFCE-201', valor_gasto: 3000, celular: '+5521998765432' }, true);
  await sale(pdv2, { id_venda: 'NFCE-202', valor_gasto: 1500, cpf: '11144477735' });
  // The service loses the cashier's credit to João (straight in the sandbox's database).
  loseRecentCredit(server, '+5521998765432', 56);

  const { page } = await shiftTerminal(server, browser, 'gerente', 'Gerência', 1024);
  await page.goto(`${server.url}/painel`);
  await expect(page.getByText('Vendas do PDV: 2 de 4 identificadas (50%)')).toBeVisible();
  const section = page.getByRole('region', { name: 'Conferência com o serviço' });
  await section.getByLabel(/^Dia/).fill(brDay(saoPauloDay(new Date())));
  await section.getByRole('button', { name: 'Conferir agora' }).click();
  await expect(section.getByText('Precisa de atenção')).toBeVisible({ timeout: 30_000 });

  // 1024 px: tables, each within its box.
  const pdvByTerminal = page.getByRole('table', { name: 'Vendas do PDV por terminal' });
  await expect(pdvByTerminal.getByRole('row', { name: /Caixa 1/ })).toContainText(
    'Caixa 12150%011',
  );
  await expect(pdvByTerminal.getByRole('row', { name: /Caixa 2/ })).toContainText(
    'Caixa 22150%010',
  );
  await expect(section.getByRole('table', { name: /Achados da conferência/ })).toBeVisible();
  await expectNothingSideways(page, 'painel 1024');
  await shot(page, `${SHOTS}/painel-1024.png`, { fullPage: true });

  // 390 px: the wide tables are cards; every figure still there, the rate included.
  await page.setViewportSize({ width: 390, height: 844 });
  const cards = page.getByRole('list', { name: 'Vendas do PDV por terminal' });
  await expect(cards).toBeVisible();
  await expect(pdvByTerminal).toHaveCount(0);
  const card1 = cards.getByRole('listitem').filter({ hasText: 'Caixa 1' });
  for (const figure of ['Vendas2', 'Identificadas1', 'Taxa50%', 'Em aberto1', 'Canceladas1']) {
    await expect(card1).toContainText(figure);
  }
  await expect(page.getByRole('list', { name: 'Vendas do PDV por dia' })).toBeVisible();
  const byTerminal = page.getByRole('list', { name: 'Lançamentos por terminal' });
  await expect(byTerminal.getByRole('listitem').filter({ hasText: 'Caixa 1' })).toContainText(
    'Valor lançadoR$',
  );
  await expect(section.getByRole('list', { name: 'Achados da conferência' })).toContainText(
    'Ausente no serviço',
  );
  await expectNothingSideways(page, 'painel 390');
  await expectAccessible(page, 'painel 390');
  await shot(page, `${SHOTS}/painel-390.png`, { fullPage: true });
  for (const name of ['Vendas do PDV', 'Por terminal', 'Conferência com o serviço']) {
    const region = page.getByRole('region', { name, exact: true });
    await shot(region, `${SHOTS}/painel-390-${name.split(' ')[0]!.toLowerCase()}.png`);
  }

  // The audit trail: the terminals created and enrolled, the conferência's day.
  await page.goto(`${server.url}/auditoria`);
  const entries = page.getByRole('list', { name: 'Registros de auditoria' });
  await expect(entries.getByRole('listitem').first()).toBeVisible();
  await phoneThenWider(page, 'auditoria', 1024, 'Registros de auditoria');

  // The day's postings of every terminal: on the phone a card each, the time its title.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${server.url}/lancamentos`);
  const postings = page.getByRole('list', { name: 'Lançamentos' });
  const cashiers = postings.getByRole('listitem').filter({ hasText: 'ValorR$ 56,00' });
  await expect(cashiers).toContainText('TerminalCaixa 1');
  await expect(cashiers).toContainText('João Pereira');
  await phoneThenWider(page, 'lancamentos', 1024, 'Lançamentos');
});

test('/vigilancia at 390 px: the alerts and the webhook deliveries are cards, nothing sideways', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  // A sale the PDV posted, then cancelled there: "estorno após pontuação", sent to the webhook.
  const caixa = await enrolledTerminal(server, browser, 'caixa', 'Caixa 3', 1024);
  const token = await pdvFor(caixa.id, 'PDV 3');
  await sale(token, { id_venda: 'NFCE-301', valor_gasto: 2590, cpf: '52998224725' }, true);
  expect((await pdv(token, 'POST', '/NFCE-301/cancelar')).status).toBe(409);

  const { page } = await enrolledTerminal(server, browser, 'gerente', 'Gerência 2', 390);
  await page.goto(`${server.url}/vigilancia`);
  const alerts = page.getByRole('list', { name: 'Alertas' });
  await expect(alerts.getByRole('listitem').first()).toBeVisible({ timeout: 20_000 });
  await page.getByRole('button', { name: 'Webhook' }).click();
  const deliveries = page.getByRole('list', { name: 'Entregas do webhook' });
  await expect(deliveries.getByRole('listitem').first()).toContainText('Alerta criado');
  await phoneThenWider(page, 'vigilancia', 1280, 'Entregas do webhook');
});
