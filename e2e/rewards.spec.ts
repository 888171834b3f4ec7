import { mkdirSync } from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, expectAccessible, openCounter, search, test } from './support/fixtures';

// The managers' reward table (/premios) against the seeded establishment 1. Totals are
// compared with what the service answers at that moment, never hard-coded: other test files
// post points in parallel, and a posting can win a reward.

const SHOTS = '/tmp/shots-rewards';
mkdirSync(SHOTS, { recursive: true });

const MARIA = { phone: '11987654321', id: 1 };

interface ApiReward {
  id_premio_cliente: number;
  id_cliente: number;
  data_conquista: string;
  premio_status: string;
  nome: string;
}
interface ApiPage {
  current_page: number;
  last_page: number;
  total: number;
  data: ApiReward[];
}

async function apiPage(request: APIRequestContext, query = ''): Promise<ApiPage> {
  const res = await request.get(`/api/v4/estabelecimentos/1/recompensas${query}`);
  expect(res.status()).toBe(200);
  return (await res.json()).data as ApiPage;
}

const fmt = (n: number) => n.toLocaleString('pt-BR');
const table = (page: Page) => page.getByRole('table', { name: /Prêmios conquistados/ });
const bodyRows = (page: Page) => table(page).locator('tbody tr');
const summary = (page: Page) => page.getByRole('status').filter({ hasText: /Mostrando|Nenhum/ });
const filtersForm = (page: Page) => page.getByRole('search', { name: 'Filtros dos prêmios' });
const column = (page: Page, index: number) => bodyRows(page).locator(`td:nth-child(${index + 1})`);

/**
 * The summary line says the service's own total for the same query. A posting elsewhere may
 * land between the page's request and ours: then the page is reloaded and both read again.
 */
async function expectTotalLikeApi(page: Page, request: APIRequestContext, query: string) {
  await expect(async () => {
    await expect(table(page)).toBeVisible();
    const api = await apiPage(request, query);
    const last = Math.min(15, api.total);
    const text = (await summary(page).textContent()) ?? '';
    if (text !== `Mostrando 1–${fmt(last)} de ${fmt(api.total)}`) {
      await page.reload();
      throw new Error(`summary "${text}" vs API total ${api.total}`);
    }
  }).toPass({ timeout: 15_000 });
}

/** Every /recompensas request the page makes. */
function recordRewardRequests(page: Page): URL[] {
  const seen: URL[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/recompensas')) seen.push(new URL(r.url()));
  });
  return seen;
}

test('the table opens with 15 rows, its headers and the service total', async ({
  page,
  request,
}) => {
  await page.goto('/premios');
  await expect(page.getByRole('heading', { level: 1, name: 'Prêmios' })).toBeVisible();
  await expect(table(page).getByRole('columnheader')).toHaveText([
    'Data da conquista',
    'Cliente',
    'Prêmio',
    'Categoria',
    'Situação',
    'Válido até',
    'Resgate/estorno',
  ]);
  await expect(bodyRows(page)).toHaveCount(15);
  await expectTotalLikeApi(page, request, '');
  const api = await apiPage(request);
  await expect(page.getByRole('navigation', { name: 'Paginação' })).toContainText(
    `Página 1 de ${fmt(api.last_page)}`,
  );
  await expect(page.getByRole('button', { name: 'Anterior' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Próxima' })).toBeEnabled();
  await expectAccessible(page, 'reward table loaded');
});

test('rows come newest first, as the service orders them', async ({ page, request }) => {
  await page.goto('/premios?itens_por_pagina=30');
  await expect(bodyRows(page)).toHaveCount(30);
  const api = await apiPage(request, '?itens_por_pagina=30');
  const names = await column(page, 2).allTextContents();
  // Compare the part both surely share (a new reward could push the list down by one).
  const offset = api.data.findIndex((r) => r.nome === names[0]);
  expect(offset).toBeGreaterThanOrEqual(0);
  expect(names.slice(0, 10)).toEqual(api.data.slice(offset, offset + 10).map((r) => r.nome));
  const dates = (await column(page, 0).allTextContents()).map((d) =>
    d.replace(/^(\d\d)\/(\d\d)\/(\d{4}) (.*)$/, '$3-$2-$1 $4'),
  );
  expect([...dates].sort().reverse()).toEqual(dates);
});

test('the status filter shows only that status and the service total for it', async ({
  page,
  request,
}) => {
  await page.goto('/premios');
  await expect(bodyRows(page)).toHaveCount(15);
  await filtersForm(page).getByLabel('Situação').selectOption({ label: 'Resgatado' });
  await expect(page).toHaveURL(/\/premios\?status=resgatado$/);
  await expectTotalLikeApi(page, request, '?status=resgatado');
  const badges = await column(page, 4).allTextContents();
  expect(badges.length).toBeGreaterThan(0);
  for (const b of badges) expect(b).toContain('Resgatado');
});

test('searching by reward name filters after typing stops', async ({ page, request }) => {
  await page.goto('/premios');
  await expect(bodyRows(page)).toHaveCount(15);
  await filtersForm(page).getByLabel('Buscar prêmio').pressSequentially('caneca');
  await expect(page).toHaveURL(/\?q=caneca$/);
  await expectTotalLikeApi(page, request, '?q=caneca');
  for (const name of await column(page, 2).allTextContents())
    expect(name.toLowerCase()).toContain('caneca');
});

test('a date range shows the rewards won in it; an inverted one is caught before any request', async ({
  page,
  request,
}) => {
  const all = await apiPage(request, '?itens_por_pagina=100');
  const end = all.data[5]!.data_conquista.slice(0, 10);
  const start = all.data[60]!.data_conquista.slice(0, 10);
  await page.clock.install(); // time flows; runFor() below skips the debounce instead of sleeping
  await page.goto('/premios');
  await expect(bodyRows(page)).toHaveCount(15);
  const form = filtersForm(page);
  await form.getByLabel('De').fill(start);
  await form.getByLabel('Até').fill(end);
  await expect(page).toHaveURL(`/premios?data_inicio=${start}&data_fim=${end}`);
  await expectTotalLikeApi(page, request, `?data_inicio=${start}&data_fim=${end}`);
  const toWire = (d: string) => d.replace(/^(\d\d)\/(\d\d)\/(\d{4}).*$/, '$3-$2-$1');
  for (const d of await column(page, 0).allTextContents()) {
    expect(toWire(d) >= start && toWire(d) <= end, `${d} in ${start}…${end}`).toBe(true);
  }

  const requests = recordRewardRequests(page);
  await form.getByLabel('De').fill(end);
  await form.getByLabel('Até').fill(start);
  await form.getByLabel('Até').press('Enter');
  const until = form.getByLabel('Até');
  await expect(until).toHaveAttribute('aria-invalid', 'true');
  await expect(
    form.getByText('A data final deve ser igual ou posterior à data inicial.'),
  ).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Corrija o período' })).toBeVisible();
  await expect(table(page)).toBeHidden();
  await page.clock.runFor(700); // past the field's debounce
  const inverted = requests.filter(
    (u) => (u.searchParams.get('data_inicio') ?? '') > (u.searchParams.get('data_fim') ?? '~'),
  );
  expect(inverted).toEqual([]);
});

test('Próxima and Anterior move page by page and keep the filters; Back and Forward too', async ({
  page,
  request,
}) => {
  const api = await apiPage(request, '?status=resgatado');
  expect(api.last_page).toBeGreaterThan(1);
  await page.goto('/premios');
  await expect(bodyRows(page)).toHaveCount(15);
  await filtersForm(page).getByLabel('Situação').selectOption({ label: 'Resgatado' });
  await expect(page).toHaveURL('/premios?status=resgatado');
  await expect(table(page)).toHaveAccessibleName(new RegExp(`Página 1 de ${api.last_page}`));
  const firstPage = await column(page, 2).allTextContents();
  const firstIds = await bodyRows(page).allInnerTexts();

  await page.getByRole('button', { name: 'Próxima' }).click();
  await expect(page).toHaveURL('/premios?status=resgatado&page=2');
  await expect(table(page)).toHaveAccessibleName(/Página 2 de/);
  await expect(page.locator('caption')).toBeFocused();
  await expect(page.getByRole('button', { name: 'Anterior' })).toBeEnabled();
  expect(await bodyRows(page).allInnerTexts()).not.toEqual(firstIds);
  for (const b of await column(page, 4).allTextContents()) expect(b).toContain('Resgatado');
  await expect(summary(page)).toHaveText(/^Mostrando 16–\d+ de \d+$/);

  await page.getByRole('button', { name: 'Anterior' }).click();
  await expect(page).toHaveURL('/premios?status=resgatado');
  await expect(table(page)).toHaveAccessibleName(/Página 1 de/);
  expect(await column(page, 2).allTextContents()).toEqual(firstPage);

  await page.goBack();
  await expect(page).toHaveURL('/premios?status=resgatado&page=2');
  await expect(table(page)).toHaveAccessibleName(/Página 2 de/);
  await page.goBack();
  await expect(page).toHaveURL('/premios?status=resgatado');
  await page.goBack();
  await expect(page).toHaveURL('/premios');
  await expect(filtersForm(page).getByLabel('Situação')).toHaveValue('');
  await expect(table(page)).toHaveAccessibleName(/Página 1 de/);
  await page.goForward();
  await expect(page).toHaveURL('/premios?status=resgatado');
  await expect(filtersForm(page).getByLabel('Situação')).toHaveValue('resgatado');
});

test('while the next page loads, the current one stays on screen, marked busy', async ({
  page,
}) => {
  await page.goto('/premios');
  await expect(bodyRows(page)).toHaveCount(15);
  const firstPage = await bodyRows(page).allInnerTexts();
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/recompensas\?.*page=2/, async (route) => {
    await held;
    await route.continue();
  });
  await page.getByRole('button', { name: 'Próxima' }).click();
  await expect(page).toHaveURL('/premios?page=2');
  await expect(table(page)).toHaveAttribute('aria-busy', 'true');
  await expect(summary(page)).toHaveText(/carregando…$/);
  expect(await bodyRows(page).allInnerTexts()).toEqual(firstPage);
  await page.screenshot({ path: `${SHOTS}/busy-1366.png` });
  release();
  await expect(table(page)).toHaveAccessibleName(/Página 2 de/);
  await expect(table(page)).not.toHaveAttribute('aria-busy');
  await expect(summary(page)).toHaveText(/^Mostrando 16–30 de \d+$/);
});

test('the last page: Próxima is disabled', async ({ page, request }) => {
  const api = await apiPage(request, '?categoria=premio_game');
  await page.goto(
    `/premios?categoria=premio_game${api.last_page > 1 ? `&page=${api.last_page}` : ''}`,
  );
  await expect(table(page)).toHaveAccessibleName(
    new RegExp(`Página ${api.last_page} de ${api.last_page}`),
  );
  await expect(page.getByRole('button', { name: 'Próxima' })).toBeDisabled();
});

test('"Ver prêmios deste cliente" on the counter opens the table filtered by that customer', async ({
  page,
  request,
}) => {
  await openCounter(page);
  await search(page, MARIA.phone);
  await page.getByRole('link', { name: 'Ver prêmios deste cliente' }).click();
  await expect(page).toHaveURL(`/premios?id_cliente=${MARIA.id}`);
  await expect(
    page.getByRole('heading', { level: 1, name: `Prêmios do cliente #${MARIA.id}` }),
  ).toBeVisible();
  await expect(filtersForm(page).getByLabel('Código do cliente')).toHaveValue(String(MARIA.id));
  await expectTotalLikeApi(page, request, `?id_cliente=${MARIA.id}`);
  for (const c of await column(page, 1).allTextContents()) expect(c).toBe(`#${MARIA.id}`);
  await page.screenshot({ path: `${SHOTS}/customer-1366.png`, fullPage: true });

  await page.getByRole('button', { name: 'Remover filtro do cliente' }).click();
  await expect(page).toHaveURL('/premios');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Prêmios');
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
});

test('a value in the URL the form cannot offer is not sent, and the form says so', async ({
  page,
}) => {
  const requests = recordRewardRequests(page);
  await page.goto('/premios?status=banana&categoria=premio_game&itens_por_pagina=7');
  await expect(table(page)).toBeVisible();
  const notice = filtersForm(page).getByRole('alert');
  await expect(notice).toContainText('Situação: “banana” não é uma situação conhecida');
  await expect(notice).toContainText('Itens por página: “7”');
  await expectAccessible(page, 'URL values ignored');
  expect(requests.length).toBeGreaterThan(0);
  for (const u of requests) {
    expect(u.searchParams.get('status')).toBeNull();
    expect(u.searchParams.get('categoria')).toBe('premio_game');
    expect(u.searchParams.get('itens_por_pagina')).toBe('15');
  }
  await notice.getByRole('button', { name: 'Tirar do endereço' }).click();
  await expect(page).toHaveURL('/premios?categoria=premio_game');
  await expect(notice).toBeHidden();
});

test('no match: the empty state, accessible; "Limpar filtros" brings the list back', async ({
  page,
}) => {
  await page.goto('/premios?q=nenhum-premio-tem-este-nome');
  await expect(page.getByText('Nenhum prêmio encontrado com estes filtros.')).toBeVisible();
  await expect(table(page)).toBeHidden();
  await expectAccessible(page, 'reward table empty');
  await page.screenshot({ path: `${SHOTS}/empty-1366.png`, fullPage: true });
  await filtersForm(page).getByRole('button', { name: 'Limpar filtros' }).click();
  await expect(page).toHaveURL('/premios');
  await expect(bodyRows(page)).toHaveCount(15);
  await expect(filtersForm(page).getByLabel('Buscar prêmio')).toHaveValue('');
});

test('the keyboard alone: search with Enter, then next page from the keyboard', async ({
  page,
}) => {
  await page.goto('/premios');
  await expect(bodyRows(page)).toHaveCount(15);
  await filtersForm(page).getByLabel('Buscar prêmio').focus();
  await page.keyboard.type('vale');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL('/premios?q=vale');
  const next = page.getByRole('button', { name: 'Próxima' });
  await next.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL('/premios?q=vale&page=2');
  await expect(page.locator('caption')).toBeFocused();
});

for (const width of [1366, 1024]) {
  test(`at ${width}×768 the page never scrolls sideways`, async ({ page }) => {
    await page.setViewportSize({ width, height: 768 });
    await page.goto('/premios?itens_por_pagina=30');
    await expect(bodyRows(page)).toHaveCount(30);
    const { scrollWidth, clientWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
    }));
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
    await page.screenshot({ path: `${SHOTS}/table-${width}.png` });
    await page.screenshot({ path: `${SHOTS}/table-${width}-full.png`, fullPage: true });
    await page.goto(
      '/premios?id_cliente=1&status=banana&data_inicio=2026-03-10&data_fim=2026-03-01',
    );
    await expect(
      page.getByText('A data final deve ser igual ou posterior à data inicial.'),
    ).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/errors-${width}.png`, fullPage: true });
  });
}
