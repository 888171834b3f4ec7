import { afterEach, expect, test, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Papa from 'papaparse';
import { jsonResponse, ok, stubFetch } from '@/testing/fixtures';
import { refusal } from '@/testing/api';
import { LEDGER_TERMINALS as TERMINALS, ledgerRowWire as posting } from '@/testing/lancamentos';
import { LEDGER_REFRESH_MS, LedgerDialog } from './ledger-dialog';

afterEach(() => vi.unstubAllGlobals());

/** A ledger server: two terminals' postings today, one yesterday; the role's view. */
function serve(manager: boolean) {
  const now = new Date();
  const yesterday = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1, 15, 0);
  const all = [
    posting('2', 'Ana Dois', now),
    posting('1', 'Bruno Um', now),
    posting('1', 'Carla Ontem', yesterday),
  ];
  return stubFetch((url) => {
    const q = new URL(url, 'http://x').searchParams;
    const from = Date.parse(q.get('de')!);
    const to = Date.parse(q.get('ate')!);
    const terminal = q.get('terminal') ?? (manager ? null : '1');
    const lancamentos = all.filter(
      (p) =>
        (terminal === null || p.terminal === terminal) &&
        Date.parse(p.criado_em) >= from &&
        Date.parse(p.criado_em) < to,
    );
    return jsonResponse(
      200,
      ok({ lancamentos, truncado: false, terminais: manager ? TERMINALS : [] }),
    );
  });
}

/** Each row's cells in column order, its header cell (the time) first. */
const names = () =>
  screen
    .getAllByRole('row')
    .slice(1)
    .map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent));

test("a cashier sees today's postings of its own terminal, with no filter and no export", async () => {
  const fetchMock = serve(false);
  render(<LedgerDialog manager={false} onClose={() => {}} />);
  await screen.findByText('Bruno Um');
  expect(screen.queryByText('Ana Dois')).toBeNull();
  expect(screen.queryByLabelText(/Terminal/)).toBeNull();
  expect(screen.queryByLabelText(/^Dia/)).toBeNull();
  expect(screen.queryByRole('button', { name: /Exportar CSV/ })).toBeNull();
  expect(screen.queryByRole('columnheader', { name: 'Terminal' })).toBeNull();
  expect(
    new URL(String(fetchMock.mock.calls[0]![0]), 'http://x').searchParams.has('terminal'),
  ).toBe(false);
});

test('a manager sees every terminal, filters by one and by day, and exports what is listed', async () => {
  const user = userEvent.setup();
  const fetchMock = serve(true);
  const files: string[] = [];
  const names_: string[] = [];
  // jsdom has no object URLs: keep the file's text (read as a browser's FileReader would).
  URL.createObjectURL = (blob: Blob) => {
    const reader = new FileReader();
    reader.onload = () => files.push(String(reader.result));
    reader.readAsText(blob);
    return 'blob:ledger';
  };
  URL.revokeObjectURL = () => {};
  const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    names_.push(this.download);
  });
  render(<LedgerDialog manager onClose={() => {}} />);
  await screen.findByText('Ana Dois');
  expect(screen.getByRole('columnheader', { name: 'Terminal' })).toBeTruthy();
  expect(names().map((r) => [r[1], r[2]])).toEqual([
    ['Caixa 2', expect.stringContaining('Ana Dois')],
    ['Caixa 1', expect.stringContaining('Bruno Um')],
  ]);

  await user.selectOptions(screen.getByLabelText('Terminal'), 'Caixa 1');
  await waitFor(() => expect(screen.queryByText('Ana Dois')).toBeNull());
  expect(screen.getByText('Bruno Um')).toBeTruthy();
  expect(screen.queryByRole('columnheader', { name: 'Terminal' })).toBeNull();
  const last = () => new URL(String(fetchMock.mock.calls.at(-1)![0]), 'http://x').searchParams;
  expect(last().get('terminal')).toBe('1');

  const day = screen.getByLabelText(/^Dia/);
  const y = new Date();
  y.setDate(y.getDate() - 1);
  const typed = `${String(y.getDate()).padStart(2, '0')}${String(y.getMonth() + 1).padStart(2, '0')}${y.getFullYear()}`;
  await user.clear(day);
  await user.type(day, typed);
  await screen.findByText('Carla Ontem');
  expect(screen.queryByText('Bruno Um')).toBeNull();
  expect(Date.parse(last().get('de')!)).toBe(
    new Date(y.getFullYear(), y.getMonth(), y.getDate()).getTime(),
  );

  await user.click(screen.getByRole('button', { name: /Exportar CSV/ }));
  const iso = `${y.getFullYear()}-${String(y.getMonth() + 1).padStart(2, '0')}-${String(y.getDate()).padStart(2, '0')}`;
  const filename = `lancamentos-${iso}-terminal-1.csv`;
  await waitFor(() =>
    expect(screen.getAllByRole('status').map((e) => e.textContent)).toContain(
      `✓ Arquivo ${filename} gerado com 1 lançamento.`,
    ),
  );
  expect(names_).toEqual([filename]);
  await waitFor(() => expect(files).toHaveLength(1));
  const rows = Papa.parse<string[]>(files[0]!.replace(/^\uFEFF/, ''), {
    delimiter: ';',
    skipEmptyLines: true,
  }).data;
  expect(rows).toHaveLength(2);
  expect(rows[1]!.slice(1, 4)).toEqual(['Caixa 1', '', 'Carla Ontem']);
  click.mockRestore();
});

test('a hand-over is listed as "Prêmio entregue" with the reward’s name, no amount, no points', async () => {
  const now = new Date();
  const handOver = {
    ...posting('1', 'Maria da Silva', now),
    chave: 'h-1',
    tipo: 'premio',
    premio: { id_premio: 3, id_premio_cliente: 4, nome: 'Vale-compras de R$ 10,00' },
    valor_gasto: 0,
    pontos: null,
  };
  stubFetch(() =>
    jsonResponse(
      200,
      ok({
        lancamentos: [handOver, posting('1', 'Bruno Um', now)],
        truncado: false,
        terminais: [],
      }),
    ),
  );
  render(<LedgerDialog manager={false} onClose={() => {}} />);
  await screen.findByText('Vale-compras de R$ 10,00');
  const header = screen.getAllByRole('columnheader').map((h) => h.textContent);
  expect(header).toEqual(['Hora', 'Cliente', 'Tipo', 'Valor', 'Pontos', 'Situação']);
  const [hand, sale] = names();
  expect(hand!.slice(2)).toEqual(['Prêmio entregueVale-compras de R$ 10,00', '—', '—', 'Entregue']);
  expect(sale!.slice(2)).toEqual(['Pontos', 'R$ 25,90', '25', 'Lançado']);
});

test('a day typed incomplete says so at the field and keeps the list it had', async () => {
  const user = userEvent.setup();
  const fetchMock = serve(true);
  render(<LedgerDialog manager onClose={() => {}} />);
  await screen.findByText('Ana Dois');
  const calls = fetchMock.mock.calls.length;
  const day = screen.getByLabelText(/^Dia/);
  await user.clear(day);
  await user.type(day, '3102');
  await user.tab();
  expect(await screen.findByText('Data incompleta: use dd/mm/aaaa.')).toBeTruthy();
  expect(screen.getByText('Ana Dois')).toBeTruthy();
  expect(fetchMock.mock.calls.length).toBe(calls);
});

/** A ledger with one kept sale refused at delivery; answers the decisions it is sent. */
function serveAttention(decide: (action: string, body: unknown) => Response | null = () => null) {
  const now = new Date();
  let estado = 'precisa de atenção';
  const row = () => ({
    ...posting('1', 'Bruno Um', now),
    chave: 'k-1',
    estado,
    pontos: null,
    motivo: 'Senha do atendente inválida.',
  });
  const mock = stubFetch((url, init) => {
    const action = /\/api\/lancamentos\/k-1\/(reenviar|descartar)$/.exec(url)?.[1];
    if (action) {
      const body: unknown = JSON.parse(String(init.body));
      const refused = decide(action, body);
      if (refused) return refused;
      estado = action === 'descartar' ? 'descartado' : 'aguardando envio';
      return jsonResponse(200, ok(row()));
    }
    return jsonResponse(200, ok({ lancamentos: [row()], truncado: false, terminais: TERMINALS }));
  });
  return { mock, set: (s: string) => (estado = s) };
}
const decisions = (mock: ReturnType<typeof stubFetch>) =>
  mock.mock.calls
    .filter(([, init]) => init?.method === 'POST')
    .map(([url, init]) => [String(url), JSON.parse(String(init!.body)) as unknown]);

test('a cashier is told to ask the manager about a sale that needs attention; no actions', async () => {
  serveAttention();
  render(<LedgerDialog manager={false} onClose={() => {}} />);
  await screen.findByText('Precisa de atenção');
  expect(screen.getByText('Senha do atendente inválida.')).toBeTruthy();
  expect(screen.getByText(/Peça ao gerente/)).toBeTruthy();
  expect(screen.queryByRole('button', { name: 'Reenviar' })).toBeNull();
  expect(screen.queryByRole('button', { name: 'Descartar' })).toBeNull();
});

test('a manager resends with the corrected password: asked, checked, sent, and the row follows', async () => {
  const user = userEvent.setup();
  const { mock, set } = serveAttention();
  render(<LedgerDialog manager onClose={() => {}} />);
  await user.click(await screen.findByRole('button', { name: 'Reenviar' }));
  const field = screen.getByLabelText('Senha do atendente (corrigida)');
  expect(document.activeElement).toBe(field);
  await user.click(screen.getByRole('button', { name: /^Reenviar venda/ }));
  expect(screen.getByText('Informe a senha do atendente.')).toBeTruthy();
  expect(decisions(mock)).toEqual([]);
  await user.type(field, '4321{Enter}');
  await waitFor(() =>
    expect(decisions(mock)).toEqual([
      ['/api/lancamentos/k-1/reenviar', { senha_atendente: '4321' }],
    ]),
  );
  expect(
    await screen.findByText('Venda de R$ 25,90 reenviada com a senha corrigida.'),
  ).toBeTruthy();
  expect(document.activeElement).toBe(screen.getByRole('region', { name: 'Lista de lançamentos' }));
  expect(await screen.findByText('Aguardando envio')).toBeTruthy();
  expect(screen.queryByRole('button', { name: 'Reenviar' })).toBeNull();
  // Delivered meanwhile: the open list shows it without being reopened.
  set('lançado');
  await waitFor(() => expect(screen.getByText('Lançado')).toBeTruthy(), {
    timeout: LEDGER_REFRESH_MS + 2_000,
  });
});

test('a wrong or refused decision says why in Portuguese and keeps what was typed', async () => {
  const user = userEvent.setup();
  serveAttention(() =>
    refusal(422, 'Informe a senha do atendente.', {
      errors: { senha_atendente: ['A senha deve ter até 64 caracteres.'] },
    }),
  );
  render(<LedgerDialog manager onClose={() => {}} />);
  await user.click(await screen.findByRole('button', { name: 'Reenviar' }));
  const field = screen.getByLabelText('Senha do atendente (corrigida)');
  await user.type(field, '99{Enter}');
  expect(await screen.findByText('A senha deve ter até 64 caracteres.')).toBeTruthy();
  expect((field as HTMLInputElement).value).toBe('99');
  expect(document.activeElement).toBe(field);
});

test('discarding asks first, on its confirm button; Esc backs out; another manager deciding first is said', async () => {
  const user = userEvent.setup();
  const { mock } = serveAttention(() =>
    refusal(409, 'Esta venda não precisa mais de atenção (outro gerente já decidiu).'),
  );
  render(<LedgerDialog manager onClose={() => {}} />);
  const discard = await screen.findByRole('button', { name: 'Descartar' });
  await user.click(discard);
  const confirm = screen.getByRole('group', { name: 'Descartar a venda de R$ 25,90' });
  expect(within(confirm).getByText(/Nenhum ponto será lançado/)).toBeTruthy();
  expect(document.activeElement).toBe(
    within(confirm).getByRole('button', { name: /^Descartar venda/ }),
  );
  await user.keyboard('{Escape}');
  expect(screen.queryByRole('group', { name: /Descartar a venda/ })).toBeNull();
  expect(screen.getByRole('dialog', { hidden: true }).hasAttribute('open')).toBe(true);
  expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Descartar' }));
  await user.click(screen.getByRole('button', { name: 'Descartar' }));
  await user.keyboard('{Enter}');
  expect(
    await screen.findByText('Esta venda não precisa mais de atenção (outro gerente já decidiu).'),
  ).toBeTruthy();
  expect(decisions(mock)).toEqual([['/api/lancamentos/k-1/descartar', {}]]);
});
