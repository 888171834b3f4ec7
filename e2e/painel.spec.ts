// The manager's dashboard through the real app server: a cashier posts (one sale refused by
// the service), hands a reward over, a posting of three days ago and a sale kept during an
// outage two days ago sit in the journal, and the manager's /painel shows, for 7 days, the
// figures this test counts from the app's own database and from the sandbox's (the service's
// credits and hand-overs), and the rewards count the service itself gives; axe clean;
// nothing scrolls sideways at 390 and 1024 px.
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { addIntegration, createJournalStore, openStore } from '../server/store';
import { expect, expectAccessible, test } from './support/fixtures';
import { postSale } from './support/counter';
import { settledPostingAt } from './support/own-data';
import { overflowing } from './support/layout';
import { brDay, saoPauloDay, serialSpec, shiftTerminal } from './support/own-server';
import { shot } from './support/shots';

const { server, shots: SHOTS } = serialSpec('painel');

/** A sale kept while the service was down at `at`, delivered `waitMs` later. */
async function keptSaleAt(terminalId: string, at: Date, waitMs: number) {
  const store = await openStore({ sqlitePath: server.env.APP_DB! });
  try {
    const t = at.getTime();
    await store.db
      .insertInto('posting_journal')
      .values({
        key: randomUUID(),
        establishment_id: 1,
        terminal_id: terminalId,
        request_id: null,
        fingerprint: 'e2e',
        customer_key: '+5531991234567',
        customer_name: 'Cliente Antigo',
        amount: 2000,
        state: 'lançado',
        reason: null,
        answer_status: 200,
        answer_body: null,
        snapshot: '{"exists":true}',
        reading: null,
        points: 20,
        lost_kind: null,
        created_at: t,
        sent_at: t + waitMs,
        ended_at: t + waitMs,
        updated_at: t + waitMs,
        settled_at: t + waitMs,
        owner: null,
        lease_until: 0,
        next_check_at: null,
        body: '{"valor_gasto":2000}',
        secret: null,
      })
      .execute();
  } finally {
    await store.close();
  }
}

/** Sales the store's PDV sent for this counter today, in the states given. */
async function pdvSales(counterId: string, states: string[]) {
  const store = await openStore({ sqlitePath: server.env.APP_DB! });
  try {
    const pdv = await addIntegration(store, { name: 'PDV 1', counterId: Number(counterId) });
    const t = Date.now() - 60_000;
    await store.db
      .insertInto('pdv_sales')
      .values(
        states.map((state, i) => ({
          id: randomUUID(),
          terminal_id: pdv.terminal.id,
          counter_id: Number(counterId),
          sale_id: `e2e-${i}`,
          fingerprint: 'e2e',
          amount: 1000,
          items: null,
          state,
          posting_key: null,
          created_at: t + i,
          expires_at: t + 600_000,
          updated_at: t + i,
        })),
      )
      .execute();
  } finally {
    await store.close();
  }
}

/** What the service (the sandbox's database) recorded since `since`: credits and hand-overs. */
function serviceRecords(since: number) {
  const db = new Database(server.env.SANDBOX_DB!, { readonly: true });
  try {
    const credits = db
      .prepare(
        'select count(*) n, coalesce(sum(pontos), 0) points from pontos where estabelecimento_id = 1 and criado_em_ms >= ?',
      )
      .get(since) as { n: number; points: number };
    const handedOver = db
      .prepare(
        'select count(*) n from premios_cliente where estabelecimento_id = 1 and data_resgate_ms >= ?',
      )
      .get(since) as { n: number };
    return { credits: credits.n, points: credits.points, handedOver: handedOver.n };
  } finally {
    db.close();
  }
}

/** The journal's postings of the last 7 São Paulo days, counted here: per day and state. */
async function counted(since: Date) {
  const store = await openStore({ sqlitePath: server.env.APP_DB! });
  try {
    const entries = await createJournalStore(store).list({
      establishmentId: 1,
      terminalId: null,
      from: since.getTime(),
      to: Date.now() + 60_000,
      limit: 10_000,
    });
    const days = new Map<string, { n: number; points: number }>();
    const states = new Map<string, number>();
    for (const e of entries) {
      if (e.kind === 'premio') continue; // hand-overs are counted apart
      const day = saoPauloDay(new Date(e.createdAt));
      const d = days.get(day) ?? { n: 0, points: 0 };
      d.n += 1;
      d.points += e.points ?? 0;
      days.set(day, d);
      states.set(e.state, (states.get(e.state) ?? 0) + 1);
    }
    const postings = entries.filter((e) => e.kind !== 'premio');
    return { total: postings.length, days, states };
  } finally {
    await store.close();
  }
}

test('a week of postings appears in the manager’s dashboard as the journal counts it', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const caixa = await shiftTerminal(server, browser, 'caixa', 'Caixa 1', 1024);
  const started = Date.now();
  await postSale(caixa.page, '11987654321', '1234'); // Maria da Silva
  await postSale(caixa.page, '21998765432', '5600'); // João Pereira
  // Through the app's API with the cashier's terminal: a posting the service refuses (a
  // wrong attendant password) and Maria's pending keychain handed over.
  const api = (path: string, body: object) =>
    caixa.page.request.post(`${server.url}/api/v4/estabelecimentos/1/fidelidade/${path}`, {
      headers: { 'idempotency-key': randomUUID(), origin: server.url },
      data: body,
    });
  const wrongPassword = await api('pontuar', {
    valor_gasto: 1500,
    senha_atendente: '0000',
    cliente: { celular: '+5521998765432' },
  });
  expect(wrongPassword.status()).toBe(422);
  const handedOver = await api('resgatar-premio', {
    id_premio: 3,
    id_cliente: 1,
    senha_atendente: '1234',
  });
  expect(handedOver.status()).toBe(200);
  const threeDaysAgo = new Date(Date.now() - 3 * 24 * 3_600_000);
  await settledPostingAt(server, {
    terminalId: caixa.id,
    at: threeDaysAgo,
    cents: 4500,
    points: 45,
    customerName: 'Cliente Antigo',
  });
  await keptSaleAt(caixa.id, new Date(Date.now() - 2 * 24 * 3_600_000), 10 * 60_000);
  await pdvSales(caixa.id, ['lançada', 'lançada', 'não identificada', 'cancelada']);

  const { page } = await shiftTerminal(server, browser, 'gerente', 'Gerência', 1024);
  await page
    .getByRole('navigation', { name: 'Principal' })
    .getByRole('link', { name: 'Painel' })
    .click();
  await expect(page.getByRole('heading', { name: 'Painel', level: 1 })).toBeVisible();

  // The 7 days, counted from the journal by this test.
  const today = saoPauloDay(new Date());
  const first = saoPauloDay(new Date(Date.now() - 6 * 24 * 3_600_000));
  const since = new Date(`${first}T00:00:00-03:00`);
  const c = await counted(since);
  expect(c.total).toBe(5);
  const byDay = page.getByRole('table', { name: /Lançamentos e pontos por dia/ });
  await expect(byDay.getByRole('row')).toHaveCount(8);
  for (const [day, f] of c.days) {
    await expect(byDay.getByRole('row', { name: new RegExp(brDay(day)) })).toContainText(
      `${brDay(day)}${f.n}${f.points}`,
    );
  }
  expect(c.days.get(saoPauloDay(threeDaysAgo))).toEqual({ n: 1, points: 45 });
  expect(c.days.get(today)?.n).toBe(3);
  // Today's figures are the service's own: the credits and the hand-over the sandbox recorded.
  const service = serviceRecords(started);
  expect(service).toMatchObject({ credits: 2, handedOver: 1 });
  expect(c.days.get(today)?.points).toBe(service.points);
  const figure = (label: string) => page.getByText(label, { exact: true }).locator('xpath=..');
  await expect(figure('Prêmios entregues')).toContainText(String(service.handedOver));
  await expect(figure('Vendas guardadas')).toContainText('1');
  await expect(figure('Espera média das guardadas')).toContainText('10 min');

  const byTerminal = page.getByRole('table', { name: 'Lançamentos por terminal' });
  await expect(byTerminal.getByRole('row', { name: /Caixa 1/ })).toContainText('Caixa 15');
  await expect(byTerminal).toContainText('R$ 133,34');
  const byState = page.getByRole('table', { name: 'Lançamentos por situação' });
  await expect(byState.getByRole('row', { name: /Lançado/ })).toContainText(
    `Lançado${c.states.get('lançado')}`,
  );
  expect(c.states.get('recusado')).toBe(1);
  await expect(byState.getByRole('row', { name: /Recusado/ })).toContainText('1');

  // Rewards: the service's own count of those waiting to be picked up.
  const list = await page.request.get(
    `${server.url}/api/v4/estabelecimentos/1/recompensas?status=pendente_resgate&itens_por_pagina=15`,
  );
  const waiting = ((await list.json()) as { data: { total: number } }).data.total;
  const link = page.getByRole('link', { name: 'aguardando retirada' });
  await expect(link.locator('xpath=..')).toContainText(String(waiting));
  await expect(link).toHaveAttribute('href', '/premios?status=pendente_resgate');

  // The PDV's sales: 2 of the 3 identified (the cancelled one apart), on the cashier's counter.
  await expect(page.getByText('Vendas do PDV: 2 de 3 identificadas (67%)')).toBeVisible();
  const pdvByTerminal = page.getByRole('table', { name: 'Vendas do PDV por terminal' });
  await expect(pdvByTerminal.getByRole('row', { name: /Caixa 1/ })).toContainText(
    'Caixa 13267%101',
  );

  await expectAccessible(page, 'painel, 7 dias');
  expect(await overflowing(page)).toEqual([]); // every element within its box
  await shot(page, `${SHOTS}/painel-1024.png`, { fullPage: true });

  // Today only.
  await page.getByRole('button', { name: 'Hoje' }).click();
  await expect(byDay.getByRole('row')).toHaveCount(2);
  await expect(byDay).toContainText(`${brDay(today)}3`);

  // At 390 px nothing scrolls sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: '7 dias' }).click();
  await expect(byDay.getByRole('row')).toHaveCount(8);
  expect(await overflowing(page)).toEqual([]); // every element within its box
  await shot(page, `${SHOTS}/painel-390.png`, { fullPage: true });

  // Opened directly (the server paints the page and preloads the dashboard's chunk).
  await page.goto(`${server.url}/painel`);
  await expect(byDay.getByRole('row')).toHaveCount(8);

  // The link opens the rewards table filtered.
  await link.click();
  await expect(page).toHaveURL(/\/premios\?status=pendente_resgate$/);

  // A cashier has no dashboard: no link, and the API refuses it.
  await expect(caixa.page.getByRole('link', { name: 'Painel' })).toHaveCount(0);
  const refused = await caixa.page.request.get(`${server.url}/api/painel?de=${today}&ate=${today}`);
  expect(refused.status()).toBe(403);
});
