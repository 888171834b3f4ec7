import { afterAll, afterEach, beforeAll, beforeEach, expect, test, vi } from 'vitest';
import { configure, getConfig, act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { configureApi } from '@/api/client';
import { jsonResponse, ok, rewardPageWire, rewardWire, stubFetch } from '@/testing/fixtures';
import { todayInSaoPaulo } from '@/lib/dates';
import { RewardsScreen } from './rewards-screen';
import { renderWithQuery } from '@/testing/render';

// The screen draws its data in a transition, which React renders in slices; in jsdom each
// findBy/waitFor query polled meanwhile takes the thread for tens of milliseconds, so the
// data can take longer than the default second to show on a busy machine.
const { asyncUtilTimeout } = getConfig();
beforeAll(() => configure({ asyncUtilTimeout: 5_000 }));
afterAll(() => configure({ asyncUtilTimeout }));

const scrollIntoView = vi.fn();
beforeEach(() => {
  configureApi({ establishmentId: 1 });
  scrollIntoView.mockClear();
  Element.prototype.scrollIntoView = scrollIntoView; // jsdom has no layout
});
afterEach(() => {
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

function open(url: string) {
  window.history.replaceState(null, '', url);
  return renderWithQuery(<RewardsScreen />);
}

/** The list's requests (not the one-record pages of the status totals), oldest first. */
const listQueries = (mock: ReturnType<typeof stubFetch>) =>
  mock.mock.calls
    .map(([u]) => new URL(String(u), 'http://x').searchParams)
    .filter((q) => q.get('itens_por_pagina') !== '1');
const firstListQuery = (mock: ReturnType<typeof stubFetch>) => listQueries(mock)[0]!;

/** Opens `url` (the service answers one page of one record): what the first list read asked. */
async function firstAskedOpening(url: string) {
  const fetchMock = stubFetch(() => jsonResponse(200, ok(pageOf(1))));
  open(url);
  await screen.findByRole('table');
  return Object.fromEntries(firstListQuery(fetchMock));
}
const lastListQuery = (mock: ReturnType<typeof stubFetch>) => listQueries(mock).at(-1)!;

/** The line that says what the list shows ("Mostrando 1–15 de 176"). */
const summary = () => screen.getAllByRole('status')[0]!;

const pageOf = (page: number, last = 3) =>
  rewardPageWire({
    current_page: page,
    data: [rewardWire({ id_premio_cliente: page * 100, nome: `Prêmio da página ${page}` })],
    from: (page - 1) * 15 + 1,
    to: (page - 1) * 15 + 1,
    last_page: last,
    total: 31,
  });

test('shows the page in a captioned table with the range and page count', async () => {
  stubFetch(() => jsonResponse(200, ok(pageOf(1))));
  open('/premios');
  const table = await screen.findByRole('table', { name: /Prêmios conquistados/ });
  expect(
    within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent),
  ).toEqual([
    'Data da conquista',
    'Cliente',
    'Prêmio',
    'Categoria',
    'Situação',
    'Válido até',
    'Resgate/estorno',
  ]);
  const cells = within(within(table).getAllByRole('row')[1]!).getAllByRole('cell');
  expect(cells.map((c) => c.textContent)).toEqual([
    '31/05/2024 12:00',
    'Filtrar pelo cliente #42',
    'Prêmio da página 1',
    'Fidelidade',
    '◷Pendente de resgate',
    '30/06/2024',
    '—Nenhum',
  ]);
  expect(summary()).toHaveProperty('textContent', 'Mostrando 1–1 de 31');
  expect(screen.getByRole('button', { name: /Anterior/ })).toHaveProperty('disabled', true);
  expect(screen.getByRole('button', { name: /Próxima/ })).toHaveProperty('disabled', false);
});

test('the request carries the page size and only the filters that are set', async () => {
  expect(await firstAskedOpening('/premios?status=resgatado&q=vale')).toEqual({
    status: 'resgatado',
    q: 'vale',
    itens_por_pagina: '15',
  });
});

test('a value in the URL the form cannot offer is not sent, and the form says so', async () => {
  expect(await firstAskedOpening('/premios?status=pendente&id_cliente=7')).toEqual({
    id_cliente: '7',
    itens_por_pagina: '15',
  });
  const notice = screen.getByRole('alert');
  expect(notice.textContent).toContain('Situação: “pendente” não é uma situação conhecida');
  await userEvent.click(within(notice).getByRole('button', { name: 'Tirar do endereço' }));
  expect(window.location.search).toBe('?id_cliente=7');
  expect(screen.queryByRole('alert')).toBeNull();
});

test('a start date after the end date is flagged at "Até" and nothing is requested', async () => {
  const fetchMock = stubFetch(() => jsonResponse(200, ok(pageOf(1))));
  open('/premios?data_inicio=2026-03-10&data_fim=2026-03-01');
  const end = screen.getByLabelText(/^Até/);
  expect(end.getAttribute('aria-invalid')).toBe('true');
  expect(screen.getByText('A data final deve ser igual ou posterior à data inicial.')).toBeTruthy();
  expect(summary().textContent).toBe('Corrija o período para ver os prêmios.');
  await new Promise((r) => setTimeout(r, 50));
  expect(fetchMock).not.toHaveBeenCalled();
  expect(screen.queryByRole('table')).toBeNull();
});

/** The service's 422: `message`, also the error of `field`. */
const invalid = (field: string, message: string) =>
  jsonResponse(422, { success: false, message, data: {}, errors: { [field]: [message] } });

test('a 422 lands at the filter it names', async () => {
  stubFetch(() => invalid('q', 'Busca longa demais.'));
  open('/premios?q=abc');
  const alert = await screen.findByRole('alert');
  expect(alert.textContent).toContain('Não foi possível carregar os prêmios.');
  expect(alert.textContent).toContain('confira o campo marcado acima');
  const search = screen.getByLabelText('Buscar prêmio');
  expect(search.getAttribute('aria-invalid')).toBe('true');
  expect(document.getElementById(search.getAttribute('aria-describedby')!)?.textContent).toContain(
    'Busca longa demais.',
  );
});

test('a service error shows its message and "Tentar de novo" asks again', async () => {
  let listCalls = 0;
  stubFetch((url) => {
    // The list's first request fails; the status totals' one-record pages answer.
    if (new URL(String(url), 'http://x').searchParams.get('itens_por_pagina') !== '1')
      listCalls += 1;
    return listCalls === 1
      ? jsonResponse(403, { success: false, message: 'Proibido', data: {} })
      : jsonResponse(200, ok(pageOf(1)));
  });
  open('/premios');
  const alert = await screen.findByRole('alert');
  expect(alert.textContent).toContain('Este caixa não tem permissão para esta operação.');
  await userEvent.click(within(alert).getByRole('button', { name: 'Tentar de novo' }));
  await screen.findByRole('table');
});

test('no rewards for the filters: the empty state says so', async () => {
  stubFetch(() =>
    jsonResponse(
      200,
      ok(rewardPageWire({ data: [], from: null, to: null, total: 0, last_page: 1 })),
    ),
  );
  open('/premios?q=nada');
  expect(await screen.findByText('Nenhum prêmio encontrado com estes filtros.')).toBeTruthy();
});

test('Próxima keeps the filters, shows the previous page while the next loads, focuses the caption', async () => {
  let release: () => void = () => {};
  stubFetch((url) => {
    if (url.includes('page=2'))
      return new Promise<Response>((resolve) => {
        release = () => resolve(jsonResponse(200, ok(pageOf(2))));
      });
    return jsonResponse(200, ok(pageOf(1)));
  });
  open('/premios?status=resgatado');
  await screen.findByText('Prêmio da página 1');
  await userEvent.click(screen.getByRole('button', { name: /Próxima/ }));
  expect(window.location.search).toBe('?status=resgatado&page=2');
  expect(screen.getByText('Prêmio da página 1')).toBeTruthy();
  expect(screen.getByRole('table').getAttribute('aria-busy')).toBe('true');
  expect(document.activeElement?.tagName).toBe('CAPTION');
  expect(scrollIntoView.mock.contexts[0]).toBe(document.activeElement);
  act(() => release());
  await screen.findByText('Prêmio da página 2');
  expect(screen.getByRole('table').getAttribute('aria-busy')).toBeNull();
});

test('typing a search applies it after a pause, back on page 1', async () => {
  const fetchMock = stubFetch(() => jsonResponse(200, ok(pageOf(1))));
  open('/premios?page=2');
  await screen.findByRole('table');
  await userEvent.type(screen.getByLabelText('Buscar prêmio'), 'vale ');
  expect(window.location.search).toBe('?page=2'); // not yet
  await waitFor(() => expect(window.location.search).toBe('?q=vale'));
  expect((screen.getByLabelText('Buscar prêmio') as HTMLInputElement).value).toBe('vale ');
  await waitFor(() => expect(lastListQuery(fetchMock).get('q')).toBe('vale'));
});

test('Enter applies the search at once', async () => {
  stubFetch(() => jsonResponse(200, ok(pageOf(1))));
  open('/premios');
  await screen.findByRole('table');
  await userEvent.type(screen.getByLabelText('Buscar prêmio'), 'caneca{Enter}');
  expect(window.location.search).toBe('?q=caneca');
});

test('Back restores the previous filters in the form', async () => {
  stubFetch(() => jsonResponse(200, ok(pageOf(1))));
  open('/premios');
  await screen.findByRole('table');
  await userEvent.selectOptions(screen.getByLabelText('Situação'), 'Expirado');
  expect(window.location.search).toBe('?status=expirado');
  await userEvent.type(screen.getByLabelText('Buscar prêmio'), 'vale{Enter}');
  expect(window.location.search).toBe('?status=expirado&q=vale');
  await act(async () => {
    window.history.back();
    await new Promise((r) => window.addEventListener('popstate', r, { once: true }));
  });
  expect(window.location.search).toBe('?status=expirado');
  expect((screen.getByLabelText('Buscar prêmio') as HTMLInputElement).value).toBe('');
  expect((screen.getByLabelText('Situação') as HTMLSelectElement).value).toBe('expirado');
});

test('filtered by a customer: the heading says so and the filter can be removed', async () => {
  stubFetch(() => jsonResponse(200, ok(pageOf(1))));
  open('/premios?id_cliente=1&status=pendente_resgate');
  expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Prêmios do cliente #1');
  await screen.findByRole('table');
  await userEvent.click(screen.getByRole('button', { name: /Remover filtro do cliente/ }));
  expect(window.location.search).toBe('?status=pendente_resgate');
  expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Prêmios');
  expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1 }));
});

test('"Limpar filtros" clears the URL and what was typed, keeping the page size', async () => {
  stubFetch(() => jsonResponse(200, ok(pageOf(1))));
  open('/premios?status=resgatado&itens_por_pagina=50&q=vale');
  await screen.findByRole('table');
  await userEvent.type(screen.getByLabelText('Código do cliente'), '12');
  await userEvent.click(screen.getByRole('button', { name: 'Limpar filtros' }));
  expect(window.location.search).toBe('?itens_por_pagina=50');
  expect((screen.getByLabelText('Código do cliente') as HTMLInputElement).value).toBe('');
  expect(document.activeElement).toBe(screen.getByLabelText('Buscar prêmio'));
  await new Promise((r) => setTimeout(r, 600));
  expect(window.location.search).toBe('?itens_por_pagina=50');
});

test('a page past the end says so and leads to the last page', async () => {
  stubFetch((url) =>
    url.includes('page=99')
      ? jsonResponse(
          200,
          ok(
            rewardPageWire({
              current_page: 99,
              data: [],
              from: null,
              to: null,
              last_page: 3,
              total: 31,
            }),
          ),
        )
      : jsonResponse(200, ok(pageOf(3))),
  );
  open('/premios?page=99');
  expect(await screen.findByText('A página 99 não existe nesta lista.')).toBeTruthy();
  expect(screen.getByText('Nenhum resultado nesta página; 31 no total.')).toBeTruthy();
  await userEvent.click(screen.getByRole('button', { name: 'Ir para a última página' }));
  expect(window.location.search).toBe('?page=3');
  await screen.findByText('Prêmio da página 3');
});

test('a 422 no filter owns shows the service message itself', async () => {
  stubFetch(() => invalid('page', 'Página inválida.'));
  open('/premios?page=2');
  const alert = await screen.findByRole('alert');
  expect(alert.textContent).toContain('Página inválida.');
  expect(alert.textContent).not.toContain('campo marcado');
});

// ---------------------------------------------------------------- totals, pager, rows, dates

const TOTALS = { pendente_resgate: 8, resgatado: 58, expirado: 34, estornado: 0 } as const;

/** Answers one-record pages with the totals above and every other request with `pageOf`. */
function stubService(list: (url: URL) => Record<string, unknown> = () => pageOf(1)) {
  return stubFetch((raw) => {
    const url = new URL(raw, 'http://x');
    const status = url.searchParams.get('status') as keyof typeof TOTALS | null;
    if (url.searchParams.get('itens_por_pagina') === '1' && status)
      return jsonResponse(200, ok(rewardPageWire({ total: TOTALS[status], per_page: 1 })));
    return jsonResponse(200, ok(list(url)));
  });
}

const totalsRequests = (mock: ReturnType<typeof stubFetch>) =>
  mock.mock.calls
    .map(([u]) => new URL(String(u), 'http://x').searchParams)
    .filter((q) => q.get('itens_por_pagina') === '1');

test('totals per status for the filters but status, each filtering by its status', async () => {
  const fetchMock = stubService();
  open('/premios?categoria=premio_fidelidade&status=expirado&page=2');
  const totals = await screen.findByRole('region', { name: 'Totais por situação' });
  const redeemed = within(totals).getByRole('button', { name: /^Resgatado/ });
  // The four totals are asked one task apart; the shares show once every total is in.
  await waitFor(() => expect(redeemed.textContent).toContain('58%')); // 58 of 100
  await waitFor(() =>
    expect(
      within(totals).getByRole('button', { name: /^Pendente de resgate/ }).textContent,
    ).toMatch(/8.*8%/),
  );
  const sent = totalsRequests(fetchMock).map((q) => Object.fromEntries(q));
  expect(sent).toHaveLength(4);
  for (const q of sent) {
    expect(q).toMatchObject({ categoria: 'premio_fidelidade', itens_por_pagina: '1' });
    expect(q.page).toBeUndefined();
  }
  expect(sent.map((q) => q.status).sort()).toEqual([
    'estornado',
    'expirado',
    'pendente_resgate',
    'resgatado',
  ]);
  const expired = within(totals).getByRole('button', { name: /^Expirado/ });
  expect(expired.getAttribute('aria-pressed')).toBe('true');
  await userEvent.click(redeemed);
  expect(window.location.search).toBe('?status=resgatado&categoria=premio_fidelidade');
  expect(redeemed.getAttribute('aria-pressed')).toBe('true');
  expect(totalsRequests(fetchMock)).toHaveLength(4); // other filters unchanged: no new totals
  await userEvent.click(redeemed);
  expect(window.location.search).toBe('?categoria=premio_fidelidade');
});

test('the pager goes to the first, the last and a typed page', async () => {
  stubService((url) => pageOf(Number(url.searchParams.get('page') ?? 1)));
  open('/premios?page=2');
  await screen.findByText('Prêmio da página 2');
  await userEvent.click(screen.getByRole('button', { name: /Última/ }));
  expect(window.location.search).toBe('?page=3');
  await screen.findByText('Prêmio da página 3');
  expect(screen.getByRole('button', { name: /Última/ })).toHaveProperty('disabled', true);
  expect(screen.getByRole('button', { name: /Próxima/ })).toHaveProperty('disabled', true);
  await userEvent.click(screen.getByRole('button', { name: /Primeira/ }));
  expect(window.location.search).toBe('');
  await screen.findByText('Prêmio da página 1');
  expect(screen.getByRole('button', { name: /Primeira/ })).toHaveProperty('disabled', true);

  const jump = screen.getByLabelText('Ir para a página');
  await userEvent.type(jump, '7{Enter}');
  expect(jump.getAttribute('aria-invalid')).toBe('true');
  expect(screen.getByText('Digite uma página de 1 a 3.')).toBeTruthy();
  expect(window.location.search).toBe('');
  await userEvent.clear(jump);
  await userEvent.type(jump, '2');
  expect(jump.getAttribute('aria-invalid')).toBeNull();
  await userEvent.click(screen.getByRole('button', { name: 'Ir' }));
  expect(window.location.search).toBe('?page=2');
  await screen.findByText('Prêmio da página 2');
});

test('the next page is fetched ahead and shows at once', async () => {
  const fetchMock = stubService((url) => pageOf(Number(url.searchParams.get('page') ?? 1)));
  open('/premios?status=resgatado');
  await screen.findByText('Prêmio da página 1');
  await waitFor(() =>
    expect(
      fetchMock.mock.calls.some(([u]) => {
        const q = new URL(String(u), 'http://x').searchParams;
        return q.get('page') === '2' && q.get('status') === 'resgatado';
      }),
    ).toBe(true),
  );
  await new Promise((r) => setTimeout(r, 20)); // the prefetch answer lands
  const before = fetchMock.mock.calls.length;
  await userEvent.click(screen.getByRole('button', { name: /Próxima/ }));
  expect(screen.getByText('Prêmio da página 2')).toBeTruthy(); // no placeholder in between
  expect(screen.getByRole('table').getAttribute('aria-busy')).toBeNull();
  const after = fetchMock.mock.calls.slice(before).map(([u]) => String(u));
  expect(after.filter((u) => u.includes('page=2'))).toEqual([]);
});

test('a pending reward expiring within 7 days says so; a later one does not', async () => {
  const inDays = (n: number) => {
    const d = new Date(`${todayInSaoPaulo()}T12:00:00Z`);
    d.setUTCDate(d.getUTCDate() + n);
    return `${d.toISOString().slice(0, 10)} 23:59:59`;
  };
  stubService(() =>
    rewardPageWire({
      data: [
        rewardWire({ id_premio_cliente: 1, valido_ate: inDays(0) }),
        rewardWire({ id_premio_cliente: 2, valido_ate: inDays(1) }),
        rewardWire({ id_premio_cliente: 3, valido_ate: inDays(3) }),
        rewardWire({ id_premio_cliente: 4, valido_ate: inDays(8) }),
        rewardWire({ id_premio_cliente: 5, valido_ate: inDays(2), premio_status: 'resgatado' }),
      ],
      total: 5,
      to: 5,
    }),
  );
  open('/premios');
  const table = await screen.findByRole('table');
  const validUntil = within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[5]!.textContent);
  expect(validUntil[0]).toMatch(/vence hoje$/);
  expect(validUntil[1]).toMatch(/vence amanhã$/);
  expect(validUntil[2]).toMatch(/vence em 3 dias$/);
  expect(validUntil[3]).not.toContain('vence');
  expect(validUntil[4]).not.toContain('vence');
});

test('dates are typed dd/mm/aaaa and sent as YYYY-MM-DD; a date that does not exist is not sent', async () => {
  stubService();
  open('/premios');
  await screen.findByRole('table');
  const from = screen.getByLabelText(/^De/);
  await userEvent.type(from, '01032026{Enter}');
  expect(from).toHaveProperty('value', '01/03/2026');
  expect(window.location.search).toBe('?data_inicio=2026-03-01');
  const until = screen.getByLabelText(/^Até/);
  await userEvent.type(until, '31022026{Enter}');
  expect(until.getAttribute('aria-invalid')).toBe('true');
  expect(screen.getByText('Esta data não existe.')).toBeTruthy();
  expect(window.location.search).toBe('?data_inicio=2026-03-01');
});

test('a date in the URL shows as dd/mm/aaaa', async () => {
  stubService();
  open('/premios?data_inicio=2026-03-01&data_fim=2026-03-31');
  expect(screen.getByLabelText(/^De/)).toHaveProperty('value', '01/03/2026');
  expect(screen.getByLabelText(/^Até/)).toHaveProperty('value', '31/03/2026');
});
