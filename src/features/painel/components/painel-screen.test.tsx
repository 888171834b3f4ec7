import { afterAll, afterEach, beforeAll, expect, test, vi } from 'vitest';
import { configure, getConfig, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, ok, stubFetch } from '@/testing/fixtures';
import type { PainelWire } from '#contract/api/painel';
import { PainelScreen } from './painel-screen';
import { renderWithQuery } from '@/testing/render';

// The screen draws its data in a transition, which React renders in slices; in jsdom each
// findBy/waitFor query polled meanwhile takes the thread for tens of milliseconds, so the
// data can take longer than the default second to show on a busy machine.
const { asyncUtilTimeout } = getConfig();
beforeAll(() => configure({ asyncUtilTimeout: 5_000 }));
afterAll(() => configure({ asyncUtilTimeout }));

afterEach(() => {
  window.history.replaceState(null, '', '/');
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const PAINEL: PainelWire = {
  de: '2026-11-20',
  ate: '2026-11-22',
  dias: [
    { dia: '2026-11-20', lancamentos: 3, pontos: 85 },
    { dia: '2026-11-21', lancamentos: 0, pontos: 0 },
    { dia: '2026-11-22', lancamentos: 1234, pontos: 5678 },
  ],
  terminais: [
    { id: '1', nome: 'Caixa 1', lancamentos: 1200, pontos: 5000, valor: 123456 },
    { id: '2', nome: 'Caixa 2', lancamentos: 37, pontos: 763, valor: 7650 },
  ],
  estados: [
    { estado: 'lançado', lancamentos: 1230 },
    { estado: 'recusado', lancamentos: 5 },
    { estado: 'precisa de atenção', lancamentos: 2 },
  ],
  totais: { lancamentos: 1237, pontos: 5763, valor: 131106, cadastrados: 12, premios_entregues: 0 },
  guardadas: { total: 4, entregues: 3, espera_media_s: 125, espera_maxima_s: 3900 },
  premios: { aguardando_retirada: 17, vencendo: 3, hoje: '2026-11-22', vence_ate: '2026-11-28' },
};

function open() {
  return renderWithQuery(<PainelScreen />);
}

const rows = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent));

test('the charts’ numbers are in a table, day by day', async () => {
  stubFetch(() => jsonResponse(200, ok(PAINEL)));
  open();
  const table = await screen.findByRole('table', { name: /Lançamentos e pontos por dia/ });
  expect(rows(table)).toEqual([
    ['20/11/2026', '3', '85'],
    ['21/11/2026', '0', '0'],
    ['22/11/2026', '1.234', '5.678'],
  ]);
  expect(screen.getByRole('heading', { name: 'Por dia' })).toBeTruthy();
});

test('per terminal with names and money in reais; by state in Portuguese', async () => {
  stubFetch(() => jsonResponse(200, ok(PAINEL)));
  open();
  const terminals = await screen.findByRole('table', { name: 'Lançamentos por terminal' });
  expect(rows(terminals)).toEqual([
    ['Caixa 1', '1.200', '5.000', 'R$ 1.234,56'],
    ['Caixa 2', '37', '763', 'R$ 76,50'],
  ]);
  const states = screen.getByRole('table', { name: 'Lançamentos por situação' });
  expect(rows(states)).toEqual([
    ['Lançado', '1.230'],
    ['Recusado pelo serviço', '5'],
    ['Precisa de atenção', '2'],
  ]);
  expect(screen.getByText('Espera média das guardadas').nextSibling?.textContent).toBe('2 min');
  expect(screen.getByText('Espera máxima').nextSibling?.textContent).toBe('1 h 05 min');
});

test('rewards waiting and expiring link to the rewards table filtered', async () => {
  stubFetch(() => jsonResponse(200, ok(PAINEL)));
  open();
  const waiting = await screen.findByRole('link', { name: 'aguardando retirada' });
  expect(waiting.getAttribute('href')).toBe('/premios?status=pendente_resgate');
  const expiring = screen.getByRole('link', { name: 'vencem até 28/11/2026' });
  expect(expiring.getAttribute('href')).toBe(
    '/premios?status=pendente_resgate&filtrar_por=valido_ate&data_inicio=2026-11-22&data_fim=2026-11-28',
  );
});

test('asks for the last 7 days first, then today when Hoje is chosen', async () => {
  const mock = stubFetch(() => jsonResponse(200, ok(PAINEL)));
  open();
  await screen.findByRole('table', { name: 'Lançamentos por terminal' });
  // The dashboard's own requests (the Conferência section asks for its day apart).
  const painelCalls = () =>
    mock.mock.calls
      .map((c) => new URL(String(c[0]), 'http://x'))
      .filter((u) => u.pathname === '/api/painel');
  const first = painelCalls()[0]!;
  const de = first.searchParams.get('de')!;
  const ate = first.searchParams.get('ate')!;
  expect((Date.parse(ate) - Date.parse(de)) / 86_400_000).toBe(6);
  expect(first.searchParams.get('fuso')).toBe(String(-new Date().getTimezoneOffset()));
  await userEvent.click(screen.getByRole('button', { name: 'Hoje' }));
  await waitFor(() => expect(painelCalls()).toHaveLength(2));
  const second = painelCalls()[1]!.searchParams;
  expect(second.get('de')).toBe(second.get('ate'));
  expect(screen.getByRole('button', { name: 'Hoje' }).getAttribute('aria-pressed')).toBe('true');
  expect(window.location.search).toBe('?periodo=hoje');
});

test('the period lives in the address: opened, changed and gone back to', async () => {
  window.history.replaceState(null, '', '/painel?de=2026-11-01&ate=2026-11-15');
  const mock = stubFetch(() => jsonResponse(200, ok(PAINEL)));
  open();
  await screen.findByRole('table', { name: 'Lançamentos por terminal' });
  const asked = (i: number) =>
    mock.mock.calls
      .map(([u]) => new URL(String(u), 'http://x'))
      .filter((u) => u.pathname === '/api/painel')[i]!.searchParams;
  expect([asked(0).get('de'), asked(0).get('ate')]).toEqual(['2026-11-01', '2026-11-15']);
  expect((screen.getByRole('textbox', { name: /^De/ }) as HTMLInputElement).value).toBe(
    '01/11/2026',
  );
  await userEvent.click(screen.getByRole('button', { name: '30 dias' }));
  expect(window.location.pathname + window.location.search).toBe('/painel?periodo=30');
  await waitFor(() => expect(() => asked(1)).not.toThrow());
  // Back in the history: the range again, asked from the cache, shown in the fields.
  window.history.back();
  await waitFor(() => expect(window.location.search).toBe('?de=2026-11-01&ate=2026-11-15'));
  await waitFor(() =>
    expect(screen.getByText('De 01/11/2026 a 15/11/2026', { exact: false })).toBeTruthy(),
  );
  expect((screen.getByRole('textbox', { name: /^De/ }) as HTMLInputElement).value).toBe(
    '01/11/2026',
  );
});

test('a range typed in the fields goes to the address; a bad one says why', async () => {
  window.history.replaceState(null, '', '/painel');
  stubFetch(() => jsonResponse(200, ok(PAINEL)));
  open();
  await screen.findByRole('table', { name: 'Lançamentos por terminal' });
  const de = screen.getByRole('textbox', { name: /^De/ });
  const ate = screen.getByRole('textbox', { name: /^Até/ });
  await userEvent.clear(de);
  await userEvent.type(de, '10/11/2026');
  await userEvent.clear(ate);
  await userEvent.type(ate, '01/11/2026');
  expect(screen.getByText('A data final deve ser igual ou posterior à inicial.')).toBeTruthy();
  await userEvent.click(screen.getByRole('button', { name: 'Ver período' }));
  expect(window.location.search).toBe('');
  await userEvent.clear(ate);
  await userEvent.type(ate, '12/11/2026');
  await userEvent.click(screen.getByRole('button', { name: 'Ver período' }));
  expect(window.location.search).toBe('?de=2026-11-10&ate=2026-11-12');
});

test('an empty period says so; an error offers to try again', async () => {
  let fail = true;
  stubFetch(() =>
    fail
      ? jsonResponse(403, { success: false, message: 'Só um gerente vê o painel.', data: {} })
      : jsonResponse(
          200,
          ok({
            ...PAINEL,
            terminais: [],
            estados: [],
            premios: null,
          }),
        ),
  );
  open();
  expect(await screen.findByText('Não foi possível carregar o painel.')).toBeTruthy();
  fail = false;
  await userEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }));
  expect(await screen.findAllByText('Nenhum lançamento no período.')).toHaveLength(2);
  expect(screen.getByText('O serviço não informou os prêmios agora.')).toBeTruthy();
});

test('the conferência shows a day that needs attention, our entry beside the service’s', async () => {
  const achado = {
    celular: '+5511987654321',
    id_cliente: 7,
    nome: 'Maria da Silva',
    lancamento: {
      chave: 'k1',
      criado_em: Date.UTC(2026, 10, 21, 13, 0),
      enviado_em: Date.UTC(2026, 10, 21, 13, 0),
      valor_gasto: 2500,
      pontos: 25,
      terminal: '1',
    },
  };
  const conferencia = {
    id: 3,
    dia: '2026-11-21',
    situacao: 'concluída',
    origem: 'gerente',
    disparo: null,
    precisa_atencao: true,
    iniciada_em: Date.UTC(2026, 10, 22, 6),
    concluida_em: Date.UTC(2026, 10, 22, 6, 1),
    clientes: 2,
    clientes_lidos: 2,
    leituras: 2,
    lancamentos: 3,
    confirmados: 1,
    resumo: {
      ausente: 1,
      duplicado: 1,
      pontos_divergentes: 0,
      nao_conferido: 0,
      nao_lancado_por_nos: 0,
    },
    achados: [
      {
        ...achado,
        tipo: 'ausente',
        servico: null,
        detalhe: 'Lançado no nosso diário, mas o serviço não tem este crédito.',
      },
      {
        ...achado,
        tipo: 'duplicado',
        servico: { id_cartela_cliente: 99, data: '2026-11-21 10:00:03', pontos: 25 },
        detalhe: 'O serviço creditou duas vezes esta venda.',
      },
    ],
  };
  stubFetch((url) =>
    jsonResponse(
      200,
      ok(
        String(url).includes('/conferencia')
          ? conferencia
          : { ...PAINEL, conferencias: [{ dia: '2026-11-21', achados: 2, precisa_atencao: true }] },
      ),
    ),
  );
  open();
  const table = await screen.findByRole('table', { name: /Achados da conferência/ });
  expect(rows(table)).toEqual([
    [
      'Ausente no serviço',
      'Maria da Silva+5511987654321',
      expect.stringContaining('R$ 25,00 · 25 pontos'),
      'Nenhum crédito',
      'Lançado no nosso diário, mas o serviço não tem este crédito.',
    ],
    [
      'Creditado duas vezes',
      'Maria da Silva+5511987654321',
      expect.stringContaining('R$ 25,00 · 25 pontos'),
      '21/11/2026 10:0025 pontos',
      'O serviço creditou duas vezes esta venda.',
    ],
  ]);
  // The period's figures (and their alert) may show a moment after the conferência's table.
  await screen.findByText('Conferência: precisa de atenção');
  const alerts = screen.getAllByRole('alert').map((a) => a.textContent);
  expect(alerts).toContainEqual(expect.stringContaining('Conferência: precisa de atenção'));
  expect(alerts).toContainEqual(expect.stringContaining('Precisa de atençãoHá lançamentos'));
  expect(screen.getByRole('button', { name: 'Exportar CSV' })).toBeTruthy();
});

const PDV: NonNullable<PainelWire['pdv']> = {
  total: 20,
  identificadas: 14,
  nao_identificadas: 4,
  em_aberto: 2,
  canceladas: 1,
  terminais: [
    {
      id: '1',
      nome: 'Caixa 1',
      total: 15,
      identificadas: 12,
      nao_identificadas: 2,
      em_aberto: 1,
      canceladas: 1,
    },
    {
      id: '2',
      nome: 'Caixa 2',
      total: 5,
      identificadas: 2,
      nao_identificadas: 2,
      em_aberto: 1,
      canceladas: 0,
    },
  ],
  dias: [
    {
      dia: '2026-11-20',
      total: 8,
      identificadas: 7,
      nao_identificadas: 1,
      em_aberto: 0,
      canceladas: 0,
    },
    {
      dia: '2026-11-22',
      total: 12,
      identificadas: 7,
      nao_identificadas: 3,
      em_aberto: 2,
      canceladas: 1,
    },
  ],
};

test('the PDV sales identified: the period, each terminal and each day', async () => {
  stubFetch(() => jsonResponse(200, ok({ ...PAINEL, pdv: PDV })));
  open();
  const section = await screen.findByRole('region', { name: 'Vendas do PDV' });
  expect(section.textContent).toContain('Vendas do PDV: 14 de 20 identificadas (70%)');
  const figure = (label: string) =>
    within(section).getByText(label, { selector: 'dt' }).nextSibling?.textContent;
  expect(figure('Identificadas')).toBe('70%');
  expect(figure('Não identificadas')).toBe('4');
  expect(figure('Em aberto')).toBe('2');
  expect(figure('Canceladas')).toBe('1');
  const terminals = screen.getByRole('table', { name: 'Vendas do PDV por terminal' });
  expect(rows(terminals)).toEqual([
    ['Caixa 1', '15', '12', '80%', '2', '1', '1'],
    ['Caixa 2', '5', '2', '40%', '2', '1', '0'],
  ]);
  const days = screen.getByRole('table', { name: 'Vendas do PDV por dia' });
  expect(rows(days)).toEqual([
    ['20/11/2026', '8', '7', '88%', '1', '0', '0'],
    ['22/11/2026', '12', '7', '58%', '3', '2', '1'],
  ]);
});

test('without PDV sales in the period there is no PDV section', async () => {
  const none = { ...PDV, total: 0, identificadas: 0, nao_identificadas: 0, em_aberto: 0 };
  stubFetch(() =>
    jsonResponse(200, ok({ ...PAINEL, pdv: { ...none, canceladas: 0, terminais: [], dias: [] } })),
  );
  open();
  await screen.findByRole('table', { name: 'Lançamentos por terminal' });
  expect(screen.queryByRole('region', { name: 'Vendas do PDV' })).toBeNull();
});

test.each([
  ['gerente', null, /clientes lidos$/],
  ['noite', 'no_horario', /\(automática, à noite\)/],
  ['noite', 'ao_iniciar', /\(automática, ao iniciar o servidor: a da noite não tinha rodado\)/],
  ['noite', 'atrasada', /\(automática, atrasada: a da noite não tinha rodado\)/],
] as const)('a run asked by %s (%s) is labelled as it started', async (origem, disparo, label) => {
  const resumo = {
    ausente: 0,
    duplicado: 0,
    pontos_divergentes: 0,
    nao_conferido: 0,
    nao_lancado_por_nos: 0,
  };
  const run = { id: 4, dia: '2026-11-21', situacao: 'concluída', origem, disparo };
  const conferencia = {
    ...run,
    precisa_atencao: false,
    iniciada_em: Date.UTC(2026, 10, 22, 17),
    concluida_em: Date.UTC(2026, 10, 22, 17, 1),
    ...{ clientes: 0, clientes_lidos: 0, leituras: 0, lancamentos: 0, confirmados: 0 },
    resumo,
    achados: [],
  };
  stubFetch((url) =>
    jsonResponse(200, ok(String(url).includes('/conferencia') ? conferencia : PAINEL)),
  );
  open();
  const line = await screen.findByText(/^Conferida em/);
  expect(line.textContent).toMatch(label);
  if (origem === 'gerente') expect(line.textContent).not.toMatch(/automática/);
});
