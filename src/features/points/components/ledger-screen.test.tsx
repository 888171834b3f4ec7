import { afterEach, expect, test, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, ok, stubFetch } from '@/testing/fixtures';
import { refusal } from '@/testing/api';
import { LEDGER_TERMINALS as TERMINALS, ledgerRowWire as posting } from '@/testing/lancamentos';
import { renderWithQuery } from '@/testing/render';
import { LedgerScreen } from './ledger-screen';

afterEach(() => vi.unstubAllGlobals());

test("a gerente's screen: its store's ledger, filtered by terminal on the server, no Loja", async () => {
  const all = [posting('2', 'Ana Dois'), posting('1', 'Bruno Um')];
  const fetchMock = stubFetch((url) => {
    const terminal = new URL(url, 'http://x').searchParams.get('terminal');
    const lancamentos = all.filter((p) => terminal === null || p.terminal === terminal);
    return jsonResponse(200, ok({ lancamentos, truncado: false, terminais: TERMINALS }));
  });
  renderWithQuery(<LedgerScreen />);
  expect(screen.getByText('Carregando os lançamentos…')).toBeTruthy();
  const region = await screen.findByRole('region', { name: 'Lista de lançamentos' });
  const table = await within(region).findByRole('table');
  expect(within(table).getAllByRole('row')).toHaveLength(3);
  expect(within(table).queryByRole('columnheader', { name: 'Loja' })).toBeNull();
  expect(screen.queryByLabelText('Loja')).toBeNull();
  expect(String(fetchMock.mock.calls[0]![0])).toMatch(/^\/api\/lancamentos\?/);

  await userEvent.selectOptions(screen.getByLabelText('Terminal'), 'Caixa 1');
  await within(region).findByText('Bruno Um');
  expect(within(region).queryByText('Ana Dois')).toBeNull();
  expect(String(fetchMock.mock.calls.at(-1)![0])).toContain('terminal=1');
});

test('an empty day says so; a failed read says why and tries again', async () => {
  let fail = true;
  stubFetch(() =>
    fail
      ? refusal(503, 'Servidor indisponível.')
      : jsonResponse(200, ok({ lancamentos: [], truncado: false, terminais: [] })),
  );
  renderWithQuery(<LedgerScreen />);
  const alert = await screen.findByRole('alert', {}, { timeout: 10_000 });
  expect(alert.textContent).toContain('Não foi possível carregar os lançamentos.');
  fail = false;
  await userEvent.click(within(alert).getByRole('button', { name: 'Tentar novamente' }));
  expect(await screen.findByText('Nenhum lançamento hoje.')).toBeTruthy();
  expect(screen.getByRole('button', { name: /Exportar CSV/ }).hasAttribute('disabled')).toBe(true);
});
