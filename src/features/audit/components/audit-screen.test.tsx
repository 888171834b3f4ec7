import { afterEach, expect, test, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, ok, stubFetch } from '@/testing/fixtures';
import type { AuditPageWire } from '#contract/api/auditoria';
import { AuditScreen } from './audit-screen';
import { renderWithQuery } from '@/testing/render';

afterEach(() => vi.unstubAllGlobals());

const entry = (id: number, over: Partial<AuditPageWire['itens'][number]> = {}) => ({
  id,
  quando: new Date(2026, 10, 23, 9, id).toISOString(),
  terminal: { id: 3, nome: 'Gerência' },
  papel: 'gerente',
  acao: 'venda.descartada',
  detalhes: { chave: 'abcdef1234', valor_gasto: 2590, terminal_da_venda: '4' },
  requisicao: `req-${id}`,
  ...over,
});

const page = (pagina: number, itens: AuditPageWire['itens'], total = 51): AuditPageWire => ({
  itens,
  pagina,
  paginas: Math.max(1, Math.ceil(total / 50)),
  total,
  por_pagina: 50,
  terminais: [
    { id: 3, nome: 'Gerência' },
    { id: 4, nome: 'Caixa 1' },
  ],
});

function open() {
  return renderWithQuery(<AuditScreen />);
}

test('entries read in words, a page at a time; the filters go to the server', async () => {
  const fetchMock = stubFetch((url) => {
    const q = new URL(url, 'http://x').searchParams;
    if (q.get('acao') === 'quiosque.saida') return jsonResponse(200, ok(page(1, [], 0)));
    return q.get('pagina') === '2'
      ? jsonResponse(
          200,
          ok(
            page(2, [
              entry(51, {
                terminal: null,
                papel: 'linha de comando',
                acao: 'terminal.criado',
                detalhes: { terminal: { id: 9, nome: 'Caixa 9', papel: 'caixa' } },
                requisicao: 'cli-1',
              }),
            ]),
          ),
        )
      : jsonResponse(200, ok(page(1, [entry(1)])));
  });
  open();
  expect(screen.getByText('Carregando a auditoria…')).toBeTruthy();
  const table = await screen.findByRole('table', { name: 'Registros de auditoria' });
  const cells = () =>
    within(table)
      .getAllByRole('row')
      .slice(1)
      .map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent));
  expect(cells()).toEqual([
    [
      '23/11/2026 09:01',
      'Gerênciagerente',
      'Venda guardada descartada',
      'Venda abcdef12 de R$ 25,90, do terminal nº 4',
      'req-1',
    ],
  ]);
  expect(screen.getByText('51 registros')).toBeTruthy();
  expect(screen.getByText('Página 1 de 2')).toBeTruthy();
  await userEvent.click(screen.getByRole('button', { name: 'Próxima' }));
  expect(await screen.findByText('Página 2 de 2')).toBeTruthy();
  expect(cells()[0]!.slice(1, 4)).toEqual([
    'Linha de comando',
    'Terminal criado',
    'Caixa 9 (caixa), nº 9',
  ]);

  // A bad date is said at its field; nothing is asked.
  const calls = fetchMock.mock.calls.length;
  await userEvent.type(screen.getByLabelText(/^De/), '31022026');
  await userEvent.click(screen.getByRole('button', { name: 'Filtrar' }));
  expect(screen.getByLabelText(/^De/).getAttribute('aria-invalid')).toBe('true');
  expect(fetchMock.mock.calls.length).toBe(calls);

  await userEvent.clear(screen.getByLabelText(/^De/));
  await userEvent.selectOptions(screen.getByLabelText('Ação'), 'quiosque.saida');
  await userEvent.selectOptions(screen.getByLabelText('Terminal'), '4');
  await userEvent.click(screen.getByRole('button', { name: 'Filtrar' }));
  expect(await screen.findByText('Nenhum registro com estes filtros.')).toBeTruthy();
  const last = new URL(String(fetchMock.mock.calls.at(-1)![0]), 'http://x').searchParams;
  expect(Object.fromEntries(last)).toMatchObject({
    acao: 'quiosque.saida',
    terminal: '4',
    pagina: '1',
  });
  expect((screen.getByRole('button', { name: /Exportar CSV/ }) as HTMLButtonElement).disabled).toBe(
    true,
  );
});
