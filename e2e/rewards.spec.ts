import type { APIRequestContext, Page, Request } from '@playwright/test';
import { downloadFrom, readCsv } from './support/csv';
import { expect, expectAccessible, test } from './support/fixtures';
import { fetchCustomer, uniquePhone } from './support/customers';
import { openCounter, search } from './support/counter';
import { shot, shotsDir } from './support/shots';

// The managers' reward table (/premios) against the seeded establishment 1. Totals are
// compared with what the service answers at that moment, never hard-coded: other test files
// post points in parallel, and a posting can win a reward.

const SHOTS = shotsDir('rewards');
// The suite's longest spec, its tests sharing nothing but the seeded service: they spread over
// the screen workers instead of holding one of them for the whole file.
test.describe.configure({ mode: 'parallel' });

const MARIA = { phone: '11987654321', id: 1 };

const STATUSES = ['pendente_resgate', 'resgatado', 'expirado', 'estornado'];
const STATUS_LABELS: Record<string, string> = {
  pendente_resgate: 'Pendente de resgate',
  resgatado: 'Resgatado',
  expirado: 'Expirado',
  estornado: 'Estornado',
};
const CATEGORY_LABELS: Record<string, string> = {
  premio_fidelidade: 'Fidelidade',
  brinde_roleta: 'Roleta (brinde)',
  premio_surpresa: 'Surpresa',
  premio_campanha: 'Campanha',
  premio_game: 'Game',
};

interface ApiReward {
  id_premio_cliente: number;
  id_cliente: number;
  data_conquista: string;
  valido_ate: string;
  data_resgate: string | null;
  estornado_em: string | null;
  premio_status: string;
  categoria_premio: string;
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
/** "2026-03-01" → "01/03/2026", as a person types it. */
const toBr = (wire: string) => wire.replace(/^(\d{4})-(\d{2})-(\d{2})$/, '$3/$2/$1');
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
  await form.getByLabel('De').fill(toBr(start));
  await form.getByLabel('Até').fill(toBr(end));
  await expect(page).toHaveURL(`/premios?data_inicio=${start}&data_fim=${end}`);
  await expectTotalLikeApi(page, request, `?data_inicio=${start}&data_fim=${end}`);
  const toWire = (d: string) => d.replace(/^(\d\d)\/(\d\d)\/(\d{4}).*$/, '$3-$2-$1');
  for (const d of await column(page, 0).allTextContents()) {
    expect(toWire(d) >= start && toWire(d) <= end, `${d} in ${start}…${end}`).toBe(true);
  }

  const requests = recordRewardRequests(page);
  await form.getByLabel('De').fill(toBr(end));
  await form.getByLabel('Até').fill(toBr(start));
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
  // Page 2 is prefetched as soon as page 1 shows: held from the start.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/recompensas\?.*page=2/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/premios');
  await expect(bodyRows(page)).toHaveCount(15);
  const firstPage = await bodyRows(page).allInnerTexts();
  await page.getByRole('button', { name: 'Próxima' }).click();
  await expect(page).toHaveURL('/premios?page=2');
  await expect(table(page)).toHaveAttribute('aria-busy', 'true');
  await expect(summary(page)).toHaveText(/carregando…$/);
  expect(await bodyRows(page).allInnerTexts()).toEqual(firstPage);
  await shot(page, `${SHOTS}/busy-1366.png`);
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
  await shot(page, `${SHOTS}/customer-1366.png`, { fullPage: true });

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
    expect(u.searchParams.get('categoria')).toBe('premio_game');
    if (u.searchParams.get('itens_por_pagina') === '1') {
      // a total per status: each of the four known statuses, never the URL's "banana"
      expect(STATUSES).toContain(u.searchParams.get('status'));
    } else {
      expect(u.searchParams.get('status')).toBeNull();
      expect(u.searchParams.get('itens_por_pagina')).toBe('15');
    }
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
  await shot(page, `${SHOTS}/empty-1366.png`, { fullPage: true });
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
    await shot(page, `${SHOTS}/table-${width}.png`);
    await shot(page, `${SHOTS}/table-${width}-full.png`, { fullPage: true });
    await page.goto(
      '/premios?id_cliente=1&status=banana&data_inicio=2026-03-10&data_fim=2026-03-01',
    );
    await expect(
      page.getByText('A data final deve ser igual ou posterior à data inicial.'),
    ).toBeVisible();
    await shot(page, `${SHOTS}/errors-${width}.png`, { fullPage: true });
  });
}

// ---------------------------------------------------------------- totals per status

const totalsRegion = (page: Page) => page.getByRole('region', { name: 'Totais por situação' });
const totalButton = (page: Page, status: string) =>
  totalsRegion(page).getByRole('button', { name: new RegExp(`^${STATUS_LABELS[status]}`) });

/** The number a total button shows ("Resgatado 58 58%" → 58); null while "…". */
async function shownTotal(page: Page, status: string): Promise<number | null> {
  const text = (await totalButton(page, status).innerText()).replace(STATUS_LABELS[status]!, '');
  const m = /(\d[\d.]*)/.exec(text);
  return m ? Number(m[1]!.replace(/\./g, '')) : null;
}

/**
 * Each total on screen equals the service's own count for the same filters and that status
 * (a one-record page read straight from the service). A reward won by a parallel test between
 * the two reads reloads the page and reads both again.
 */
async function expectTotalsLikeApi(page: Page, request: APIRequestContext, query: string) {
  const totals: Record<string, number> = {};
  await expect(async () => {
    await expect(totalsRegion(page).getByRole('list')).not.toHaveAttribute('aria-busy');
    for (const status of STATUSES) {
      const api = await apiPage(
        request,
        `?${query}${query ? '&' : ''}status=${status}&itens_por_pagina=1`,
      );
      const shown = await shownTotal(page, status);
      if (shown !== api.total) {
        await page.reload();
        throw new Error(`${status}: screen ${shown} vs service ${api.total} for "${query}"`);
      }
      totals[status] = api.total;
    }
  }).toPass({ timeout: 20_000 });
  console.log(`totals for "${query || 'no filter'}": ${JSON.stringify(totals)}`);
  return totals;
}

test('totals per status match the service for the filters other than status', async ({
  page,
  request,
}) => {
  await page.goto('/premios');
  const all = await expectTotalsLikeApi(page, request, '');
  // With no status filter the four totals add up to the list's own total.
  const listTotal = (await apiPage(request)).total;
  expect(Object.values(all).reduce((a, b) => a + b, 0)).toBe(listTotal);

  await filtersForm(page).getByLabel('Categoria').selectOption({ label: 'Fidelidade' });
  await expect(page).toHaveURL('/premios?categoria=premio_fidelidade');
  const loyalty = await expectTotalsLikeApi(page, request, 'categoria=premio_fidelidade');
  expect(loyalty.resgatado).toBeGreaterThan(0);
  await shot(page, `${SHOTS}/totals-1366.png`);

  // A status filter does not change the totals (they are for the other filters).
  await page.goto('/premios?id_cliente=1&status=resgatado&data_inicio=2000-01-01');
  await expectTotalsLikeApi(page, request, 'id_cliente=1&data_inicio=2000-01-01');
  await expect(totalButton(page, 'resgatado')).toHaveAttribute('aria-pressed', 'true');

  await page.goto('/premios?q=vale');
  await expectTotalsLikeApi(page, request, 'q=vale');
  await expectAccessible(page, 'totals per status');
});

test('a total is a button that filters the list by its status, and again removes it', async ({
  page,
  request,
}) => {
  await page.goto('/premios?categoria=premio_fidelidade');
  await expect(totalButton(page, 'expirado')).toHaveAttribute('aria-pressed', 'false');
  await totalButton(page, 'expirado').click();
  await expect(page).toHaveURL('/premios?status=expirado&categoria=premio_fidelidade');
  await expect(totalButton(page, 'expirado')).toHaveAttribute('aria-pressed', 'true');
  await expect(filtersForm(page).getByLabel('Situação')).toHaveValue('expirado');
  await expectTotalLikeApi(page, request, '?status=expirado&categoria=premio_fidelidade');
  for (const b of await column(page, 4).allTextContents()) expect(b).toContain('Expirado');
  // The list's total is the number on the button.
  const api = await apiPage(request, '?status=expirado&categoria=premio_fidelidade');
  expect(await shownTotal(page, 'expirado')).toBe(api.total);
  await expectAccessible(page, 'total pressed');
  await totalButton(page, 'expirado').click();
  await expect(page).toHaveURL('/premios?categoria=premio_fidelidade');
  await expect(totalButton(page, 'expirado')).toHaveAttribute('aria-pressed', 'false');
});

test('totals are requested with the list and cancelled with it when the filters change', async ({
  page,
}) => {
  await page.goto('/premios');
  await expect(bodyRows(page)).toHaveCount(15);
  // Everything for the Game category is held: list and totals stay in flight.
  const game: Request[] = [];
  const aborted: Request[] = [];
  page.on('request', (r) => {
    if (r.url().includes('categoria=premio_game')) game.push(r);
  });
  page.on('requestfailed', (r) => {
    if (r.url().includes('categoria=premio_game')) aborted.push(r);
  });
  await page.route(/categoria=premio_game/, () => {
    /* never answered */
  });
  await filtersForm(page).getByLabel('Categoria').selectOption({ label: 'Game' });
  await expect.poll(() => game.length).toBe(5);
  expect(game.filter((r) => r.url().includes('itens_por_pagina=1&')).length).toBe(4);
  await filtersForm(page).getByLabel('Categoria').selectOption({ label: 'Surpresa' });
  await expect.poll(() => aborted.length).toBe(5);
  expect(aborted.every((r) => r.failure()?.errorText === 'net::ERR_ABORTED')).toBe(true);
  console.log(
    `filters changed while loading: ${game.length} requests in flight (list + 4 totals), ${aborted.length} aborted`,
  );
  await expect(summary(page)).toHaveText(/^Mostrando 1–\d+ de \d+$/);
});

// ---------------------------------------------------------------- pager

test('the pager: last, first and a typed page; the next page is there before it is asked', async ({
  page,
  request,
}) => {
  const api = await apiPage(request);
  const last = api.last_page;
  expect(last).toBeGreaterThan(3);
  const page2: string[] = [];
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.pathname.endsWith('/recompensas') && u.searchParams.get('page') === '2')
      page2.push(r.url());
  });
  await page.goto('/premios');
  await expect(bodyRows(page)).toHaveCount(15);
  await expect.poll(() => page2.length).toBe(1); // prefetched
  await page.getByRole('button', { name: 'Próxima' }).click();
  await expect(page).toHaveURL('/premios?page=2');
  await expect(table(page)).toHaveAccessibleName(/Página 2 de/);
  await expect(table(page)).not.toHaveAttribute('aria-busy');
  expect(page2).toHaveLength(1); // shown from the prefetch, not asked again

  await page.getByRole('button', { name: 'Última' }).click();
  await expect(page).toHaveURL(`/premios?page=${last}`);
  await expect(table(page)).toHaveAccessibleName(new RegExp(`Página ${last} de ${last}`));
  await expect(page.locator('caption')).toBeFocused();
  await expect(page.getByRole('button', { name: 'Última' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Próxima' })).toBeDisabled();

  await page.getByRole('button', { name: 'Primeira' }).click();
  await expect(page).toHaveURL('/premios');
  await expect(table(page)).toHaveAccessibleName(/Página 1 de/);
  await expect(page.getByRole('button', { name: 'Primeira' })).toBeDisabled();

  const jump = page.getByLabel('Ir para a página');
  await jump.fill(String(last + 5));
  await jump.press('Enter');
  await expect(jump).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText(`Digite uma página de 1 a ${last}.`)).toBeVisible();
  await expect(page).toHaveURL('/premios');
  await expectAccessible(page, 'page jump error');
  await shot(page, `${SHOTS}/pager-error-1366.png`);
  await jump.fill('3');
  await page.getByRole('button', { name: 'Ir', exact: true }).click();
  await expect(page).toHaveURL('/premios?page=3');
  await expect(table(page)).toHaveAccessibleName(/Página 3 de/);
  await expect(summary(page)).toHaveText(/^Mostrando 31–45 de \d+$/);
});

// ---------------------------------------------------------------- 7-day note

/** `days` before the date part of `wire`, 10:00 in São Paulo, as an ISO moment. */
function daysBefore(wire: string, days: number): string {
  const d = new Date(`${wire.slice(0, 10)}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() - days);
  return `${d.toISOString().slice(0, 10)}T10:00:00-03:00`;
}

test('a pending reward about to expire says so, counted in days in São Paulo', async ({
  page,
  request,
}) => {
  const pending = await apiPage(request, '?status=pendente_resgate&itens_por_pagina=100');
  const reward = pending.data[0]!;
  const day = reward.valido_ate.slice(0, 10);
  const list = `/premios?status=pendente_resgate&filtrar_por=valido_ate&data_inicio=${day}&data_fim=${day}`;
  const validUntil = column(page, 5);
  for (const [days, note] of [
    [3, 'vence em 3 dias'],
    [1, 'vence amanhã'],
    [0, 'vence hoje'],
    [8, null],
  ] as const) {
    // The browser's clock and the service's "now" at the same moment, days before it expires.
    const now = daysBefore(reward.valido_ate, days);
    await page.clock.setFixedTime(new Date(now));
    await page.setExtraHTTPHeaders({ 'x-sandbox-now': now });
    await page.goto(list);
    await expect(bodyRows(page).first()).toBeVisible();
    const cells = await validUntil.allInnerTexts();
    expect(cells.length).toBeGreaterThan(0);
    for (const cell of cells) {
      expect(cell).toContain(`${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`);
      if (note) expect(cell).toContain(note);
      else expect(cell).not.toContain('vence');
    }
    if (days === 3) {
      await expectAccessible(page, 'expiry note');
      await shot(page, `${SHOTS}/expiry-1366.png`);
    }
  }
});

// ---------------------------------------------------------------- dates typed dd/mm/aaaa

test.describe('in an English-language browser', () => {
  test.use({ locale: 'en-US' });

  test('dates are typed dd/mm/aaaa and sent as YYYY-MM-DD; a date that does not exist is not sent', async ({
    page,
  }) => {
    expect(await page.evaluate(() => navigator.language)).toBe('en-US');
    const requests = recordRewardRequests(page);
    await page.goto('/premios');
    await expect(bodyRows(page)).toHaveCount(15);
    const form = filtersForm(page);
    const from = form.getByLabel('De');
    await expect(from).toHaveAttribute('type', 'text');
    await expect(from).toHaveAttribute('placeholder', 'dd/mm/aaaa');
    await from.pressSequentially('01032026');
    await expect(from).toHaveValue('01/03/2026');
    await expect(page).toHaveURL('/premios?data_inicio=2026-03-01');
    await expect(summary(page)).toHaveText(/^(Mostrando|Nenhum)/);

    const until = form.getByLabel('Até');
    await until.pressSequentially('31022026');
    await expect(until).toHaveValue('31/02/2026');
    await expect(until).toHaveAttribute('aria-invalid', 'true');
    await expect(form.getByText('Esta data não existe.')).toBeVisible();
    await until.press('Enter');
    await expectAccessible(page, 'date error (en-US)');
    await shot(page, `${SHOTS}/date-error-1366.png`);

    await until.fill('');
    await until.pressSequentially('3103');
    await form.getByLabel('Buscar prêmio').focus(); // leaving an incomplete date
    await expect(form.getByText('Data incompleta: use dd/mm/aaaa.')).toBeVisible();
    await until.press('End');
    await until.pressSequentially('2026');
    await expect(page).toHaveURL('/premios?data_inicio=2026-03-01&data_fim=2026-03-31');
    expect(
      requests.some(
        (u) => u.searchParams.has('data_fim') && u.searchParams.get('data_fim') !== '2026-03-31',
      ),
    ).toBe(false);
    await page.reload();
    await expect(form.getByLabel('Até')).toHaveValue('31/03/2026');
  });

  test('the birth date at registration is typed dd/mm/aaaa and registered as YYYY-MM-DD', async ({
    page,
  }) => {
    test.slow(); // two axe runs and five screenshots
    const phone = uniquePhone();
    const sent: Request[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/clientes/cadastrar')) sent.push(r);
    });
    await openCounter(page);
    await search(page, phone.digits);
    await page.getByRole('button', { name: /Cadastrar cliente/ }).click();
    const form = page.getByRole('form', { name: /cadastr/i });
    const date = form.getByLabel('Nascimento');
    await expect(date).toHaveAttribute('type', 'text');
    await expect(date).toHaveAttribute('placeholder', 'dd/mm/aaaa');
    await form.getByLabel('Nome').fill('Bia Nascimento');
    await date.pressSequentially('1705');
    await form.getByRole('button', { name: /^Cadastrar/ }).click();
    await expect(date).toHaveAttribute('aria-invalid', 'true');
    await expect(date).toBeFocused();
    await expect(
      form.getByText('Data inválida: informe dia, mês e ano de uma data que exista.'),
    ).toBeVisible();
    await expect(form.getByRole('alert')).toHaveText(/Confira o campo: Nascimento\./);
    await expect(date).toHaveValue('17/05');
    expect(sent).toHaveLength(0);
    await expectAccessible(page, 'birth date incomplete (en-US)');
    for (const width of [1366, 1024, 640, 390]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await sideways(page), `register form at ${width}`).toBe(false);
      await shot(page, `${SHOTS}/birth-date-error-${width}.png`, { fullPage: true });
    }
    await page.setViewportSize({ width: 1366, height: 768 });

    await date.press('End');
    await date.pressSequentially('1990');
    await expect(date).toHaveValue('17/05/1990');
    await expect(date).not.toHaveAttribute('aria-invalid');
    await expectAccessible(page, 'birth date typed (en-US)');
    await shot(page, `${SHOTS}/birth-date-typed-1366.png`);
    await form.getByRole('button', { name: /^Cadastrar/ }).click();
    await expect(page.getByRole('region', { name: 'Bia Nascimento' })).toBeVisible();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.postDataJSON()).toMatchObject({ data_nascimento: '1990-05-17' });
    // Read back through the app server as an enrolled terminal (the fixtures' helper).
    expect(await fetchCustomer(page.request, { celular: phone.e164 })).toMatchObject({
      nome: 'Bia Nascimento',
      data_nascimento: '1990-05-17',
    });
  });
});

// ---------------------------------------------------------------- CSV export

/** Yesterday in São Paulo: rewards won up to then do not change while tests post today. */
function yesterdayInSaoPaulo(): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(
    new Date(),
  );
  const d = new Date(`${today}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}

async function allApiRecords(request: APIRequestContext, query: string): Promise<ApiReward[]> {
  const out: ApiReward[] = [];
  for (let n = 1; ; n++) {
    const p = await apiPage(request, `?${query}&itens_por_pagina=100&page=${n}`);
    out.push(...p.data);
    if (n >= p.last_page) return out;
  }
}

/** "2026-11-22 14:05:09" → "22/11/2026 14:05"; written here apart from the app's helper. */
const brDateTime = (wire: string | null) =>
  wire ? wire.replace(/^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):\d{2}$/, '$3/$2/$1 $4:$5') : '';

const exportRequests = (page: Page) => {
  const sent: Request[] = [];
  const failed: Request[] = [];
  page.on('request', (r) => {
    if (r.url().includes('itens_por_pagina=100')) sent.push(r);
  });
  page.on('requestfailed', (r) => {
    if (r.url().includes('itens_por_pagina=100')) failed.push(r);
  });
  return { sent, failed };
};

test('"Exportar CSV" downloads every matching record, for Excel in Brazil', async ({
  page,
  request,
}) => {
  const query = `data_fim=${yesterdayInSaoPaulo()}`;
  const expected = await allApiRecords(request, query);
  expect(expected.length).toBeGreaterThan(100); // more than one page of the export
  const { sent } = exportRequests(page);
  await page.goto(`/premios?${query}&page=2`);
  await expect(bodyRows(page)).toHaveCount(15);
  const download = await downloadFrom(page.getByRole('button', { name: 'Exportar CSV' }));
  expect(download.suggestedFilename()).toMatch(/^premios-\d{4}-\d{2}-\d{2}\.csv$/);
  await expect(page.getByRole('status').filter({ hasText: 'Arquivo' })).toContainText(
    `Arquivo ${download.suggestedFilename()} gerado com ${fmt(expected.length)} prêmios.`,
  );
  const { text, rows } = await readCsv(download);
  expect(text).toContain('\r\n');
  expect(rows[0]).toEqual([
    'Código do prêmio conquistado',
    'Data da conquista',
    'Código do cliente',
    'Prêmio',
    'Categoria',
    'Situação',
    'Válido até',
    'Data do resgate',
    'Data do estorno',
  ]);
  expect(rows.slice(1)).toEqual(
    expected.map((r) => [
      String(r.id_premio_cliente),
      brDateTime(r.data_conquista),
      String(r.id_cliente),
      r.nome,
      CATEGORY_LABELS[r.categoria_premio],
      STATUS_LABELS[r.premio_status],
      brDateTime(r.valido_ate),
      brDateTime(r.data_resgate),
      brDateTime(r.estornado_em),
    ]),
  );
  for (const row of rows.slice(1)) expect(row[1]).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
  // Page by page at 100, with the list's filters and none of its paging.
  const pages = sent.map((r) => new URL(r.url()).searchParams);
  expect(pages.map((q) => q.get('page'))).toEqual(
    Array.from({ length: Math.ceil(expected.length / 100) }, (_, i) => String(i + 1)),
  );
  for (const q of pages) expect(q.get('data_fim')).toBe(yesterdayInSaoPaulo());
  console.log(`export: ${rows.length - 1} rows in the file, ${sent.length} requests of 100`);
  await expectAccessible(page, 'export done');
});

/** Awaits `work` with the paused page clock moving a frame (16 ms) at a time: axe and screenshots
 * need timers and animation frames. A frame, not a millisecond: each step is a round trip to the
 * browser, and thousands of them on a loaded machine made this test the slowest of the suite. */
async function ticking(page: Page, work: Promise<unknown>) {
  let done = false;
  const finished = work.finally(() => {
    done = true;
  });
  while (!done) {
    // The clock is the context's: axe opens and closes a blank page of its own in this context
    // to finish its run, and a step that meets that page closing fails although this page is fine.
    await page.clock.runFor(16).catch((e: unknown) => {
      if (page.isClosed() || !String(e).includes('has been closed')) throw e;
    });
  }
  await finished;
}

test('the export shows its progress, and "Cancelar exportação" stops the requests', async ({
  page,
}) => {
  test.slow(); // axe and screenshots at two widths with a frame-stepped clock
  const { sent, failed } = exportRequests(page);
  const downloads: string[] = [];
  page.on('download', (d) => downloads.push(d.suggestedFilename()));
  // The second page of the export never answers by itself.
  await page.route(/itens_por_pagina=100&page=2/, () => {
    /* held */
  });
  // The page's clock runs as usual, but is paused while the held export is looked at (axe,
  // screenshots, resizing), so the client's 15 s request timeout cannot end it on a slow machine.
  await page.clock.install();
  await page.goto('/premios');
  await expect(bodyRows(page)).toHaveCount(15);
  await page.getByRole('button', { name: 'Exportar CSV' }).click();
  const progress = page.getByRole('progressbar', { name: 'Progresso da exportação' });
  await expect(progress).toHaveAttribute('value', '100');
  await expect(page.getByText(/^Exportando: 100 de [\d.]+ prêmios…$/)).toBeVisible();
  const cancel = page.getByRole('button', { name: 'Cancelar exportação' });
  await expect(cancel).toBeFocused();
  await expect(page.getByRole('button', { name: 'Exportar CSV' })).toBeDisabled();
  await page.clock.pauseAt(Date.now() + 1000);
  await ticking(page, expectAccessible(page, 'export running'));
  await ticking(page, shot(page, `${SHOTS}/export-progress-1366.png`));
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(progress).toBeVisible();
  // The page adapts to the new width in its next frames (the clock is paused: step it), so
  // the check waits for them rather than reading the width once (it failed CI once that way).
  await ticking(page, expect.poll(() => sideways(page), { timeout: 10_000 }).toBe(false));
  await ticking(page, shot(page, `${SHOTS}/export-progress-390.png`));
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.clock.resume();

  await cancel.click();
  await expect(page.getByText('Exportação cancelada: nenhum arquivo foi gerado.')).toBeVisible();
  await expect.poll(() => failed.length).toBe(1);
  expect(failed[0]!.failure()?.errorText).toBe('net::ERR_ABORTED');
  expect(sent.map((r) => new URL(r.url()).searchParams.get('page'))).toEqual(['1', '2']);
  await expect(page.getByRole('button', { name: 'Exportar CSV' })).toBeFocused();
  // Nothing more is asked and no file comes afterwards.
  await expect(page.waitForEvent('download', { timeout: 1500 })).rejects.toThrow();
  expect(sent).toHaveLength(2);
  expect(downloads).toEqual([]);
  console.log(
    `export cancelled: ${sent.length} requests sent, ${failed.length} aborted in flight, ${downloads.length} files`,
  );
});

test('more than 10,000 matching records: the export says to narrow the filters', async ({
  page,
}) => {
  const { sent } = exportRequests(page);
  // The demo has a few hundred records: the first export page is answered with a larger total.
  await page.route(/itens_por_pagina=100/, async (route) => {
    const response = await route.fetch();
    const body = await response.json();
    body.data.total = 12_345;
    body.data.last_page = 124;
    await route.fulfill({ response, json: body });
  });
  await page.goto('/premios');
  await expect(bodyRows(page)).toHaveCount(15);
  await page.getByRole('button', { name: 'Exportar CSV' }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'Muitos prêmios para exportar.' });
  await expect(alert).toContainText(
    'São 12.345 prêmios com estes filtros; a exportação vai até 10.000. Restrinja os filtros',
  );
  expect(sent).toHaveLength(1);
  await expectAccessible(page, 'export too large');
  await shot(page, `${SHOTS}/export-too-many-1366.png`);
});

// ---------------------------------------------------------------- small screens

async function sideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.scrollingElement!.scrollWidth > window.innerWidth);
}

// Every other state of the screen, each checked for sideways scroll at both widths.
const SMALL_SCREEN_STATES: [string, string][] = [
  ['filtered by customer', '/premios?id_cliente=1&status=resgatado'],
  ['errors', '/premios?id_cliente=1&status=banana&data_inicio=2026-03-10&data_fim=2026-03-01'],
  ['empty', '/premios?q=nenhum-premio-tem-este-nome'],
  ['past the end', '/premios?page=999'],
  ['last page', '/premios?page=2&itens_por_pagina=100'],
];

for (const width of [390, 640]) {
  test(`at ${width} px the rows are cards and nothing scrolls sideways`, async ({ page }) => {
    await page.setViewportSize({ width, height: 844 });
    await page.goto('/premios?itens_por_pagina=30');
    const list = page.getByRole('region', { name: /Prêmios conquistados/ });
    await expect(list.getByRole('listitem')).toHaveCount(30);
    await expect(page.getByRole('table')).toHaveCount(0);
    const card = list.getByRole('listitem').first();
    await expect(card.getByRole('heading', { level: 3 })).toBeVisible();
    await expect(card.getByRole('term')).toContainText([
      'Conquista',
      'Cliente',
      'Categoria',
      'Válido até',
    ]);
    expect(await sideways(page)).toBe(false);
    await expectAccessible(page, `cards at ${width}`);
    await shot(page, `${SHOTS}/cards-${width}.png`);
    await shot(page, `${SHOTS}/cards-${width}-full.png`, { fullPage: true });
  });

  for (const [name, url] of SMALL_SCREEN_STATES) {
    test(`at ${width} px, ${name}: nothing scrolls sideways`, async ({ page }) => {
      test.slow(); // up to 100 cards: axe and a full-page screenshot
      await page.setViewportSize({ width, height: 844 });
      await page.goto(url);
      await expect(page.getByRole('status').first()).not.toHaveText(/Carregando/);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      expect(await sideways(page), name).toBe(false);
      await expectAccessible(page, `${name} at ${width}`);
      await shot(page, `${SHOTS}/${name.replace(/ /g, '-')}-${width}.png`, { fullPage: true });
    });
  }
}

test('at 390 px the counter and the kiosk do not scroll sideways either', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  for (const url of ['/', '/quiosque']) {
    await page.goto(url);
    // The counter has its navigation; the kiosk is full screen with none.
    await expect(
      url === '/'
        ? page.getByRole('navigation').first()
        : page.getByRole('heading', { name: 'Programa de fidelidade' }),
    ).toBeVisible();
    expect(await sideways(page), url).toBe(false);
  }
});
