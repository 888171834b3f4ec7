// The manager's ledger through the real app server (auto-enrollment off, as live): two cashier
// terminals post, a manager's terminal sees every terminal's postings, filters by terminal and
// by day, and exports the CSV (read back here); a cashier sees only its own, on screen and at
// the API.
import { downloadFrom, readCsv } from './support/csv';
import { expect, expectAccessible, expectRows, test } from './support/fixtures';
import { openLedger, postSale } from './support/counter';
import { settledPostingAt } from './support/own-data';
import { saoPauloDay, serialSpec, shiftTerminal } from './support/own-server';
import { shot } from './support/shots';

const { server, shots: SHOTS } = serialSpec('ledger');

test('a manager sees every terminal, filters by terminal and day and exports the CSV; a cashier sees only its own', async ({
  browser,
}) => {
  // Three terminals, two postings and a CSV: ~17 s on a quiet machine; a loaded CI box took
  // over 90 s once while still making progress.
  test.setTimeout(180_000);
  const caixa1 = await shiftTerminal(server, browser, 'caixa', 'Caixa 1');
  const caixa2 = await shiftTerminal(server, browser, 'caixa', 'Caixa 2');
  await postSale(caixa1.page, '11987654321', '1234'); // Maria da Silva
  await postSale(caixa2.page, '21998765432', '5600'); // João Pereira
  const yesterday = new Date(Date.now() - 24 * 3_600_000);
  // A day filter needs a posting on another day than the test's.
  await settledPostingAt(server, {
    terminalId: caixa1.id,
    at: yesterday,
    cents: 777,
    points: 7,
    customerName: 'Cliente de Ontem',
  });

  // A cashier: its own postings of today, no filter, no export.
  const own = await openLedger(caixa1.page);
  const ownRows = own.getByRole('row').filter({ hasText: 'R$' });
  await expect(ownRows).toHaveCount(1);
  await expect(ownRows.first()).toContainText('Maria da Silva');
  await expect(own).not.toContainText('João Pereira');
  await expect(own.getByLabel('Terminal')).toHaveCount(0);
  await expect(own.getByRole('button', { name: /Exportar CSV/ })).toHaveCount(0);
  await shot(caixa1.page, `${SHOTS}/caixa-ledger.png`);
  // ...and the server refuses it another terminal's, whatever the browser asks.
  const from = new Date(yesterday.getTime() - 24 * 3_600_000).toISOString();
  const to = new Date(Date.now() + 24 * 3_600_000).toISOString();
  const api = `${server.url}/api/lancamentos?de=${from}&ate=${to}`;
  const other = await caixa1.page.request.get(`${api}&terminal=${caixa2.id}`);
  expect(other.status()).toBe(403);
  const mine = (await (await caixa1.page.request.get(api)).json()) as {
    data: { lancamentos: { terminal: string }[]; terminais: unknown[] };
  };
  expect(new Set(mine.data.lancamentos.map((l) => l.terminal))).toEqual(new Set([caixa1.id]));
  expect(mine.data.terminais).toEqual([]);
  console.log(
    `cashier: ${mine.data.lancamentos.length} own postings over two days, another terminal's -> ${other.status()}`,
  );

  // The manager: every terminal's postings of today, with the terminal's name.
  const gerente = await shiftTerminal(server, browser, 'gerente', 'Gerência');
  const page = gerente.page;
  const ledger = await openLedger(page);
  const rows = ledger.getByRole('row').filter({ hasText: 'R$' });
  await expectRows(rows, [
    ['Caixa 2', 'João Pereira', 'R$ 56,00'],
    ['Caixa 1', 'Maria da Silva'],
  ]);
  await expect(ledger).toContainText('Hoje, todos os terminais');
  await expectAccessible(page, 'manager ledger');
  await shot(page, `${SHOTS}/gerente-ledger.png`);

  // One terminal.
  await ledger.getByLabel('Terminal').selectOption({ label: 'Caixa 2' });
  await expectRows(rows, [['João Pereira']]);
  await expect(ledger).toContainText('Hoje, Caixa 2');

  // Every terminal again, yesterday.
  await ledger.getByLabel('Terminal').selectOption({ label: 'Todos os terminais' });
  const [y, m, d] = saoPauloDay(yesterday).split('-');
  const day = ledger.getByLabel(/^Dia/);
  await day.fill('');
  await day.pressSequentially(`${d}${m}${y}`);
  await expectRows(rows, [['Cliente de Ontem', 'R$ 7,77']]);
  await expect(ledger).toContainText(`${d}/${m}/${y}, todos os terminais`);
  await shot(page, `${SHOTS}/gerente-ledger-yesterday.png`);

  // Today's, exported: the file reads back as the screen lists it.
  await day.fill('');
  await day.pressSequentially(saoPauloDay(new Date()).split('-').reverse().join(''));
  await expect(rows).toHaveCount(2);
  const download = await downloadFrom(ledger.getByRole('button', { name: 'Exportar CSV' }));
  expect(download.suggestedFilename()).toBe(`lancamentos-${saoPauloDay(new Date())}.csv`);
  await expect(ledger.getByRole('status')).toContainText(
    `Arquivo ${download.suggestedFilename()} gerado com 2 lançamentos.`,
  );
  const { rows: parsed } = await readCsv(download);
  expect(parsed[0]).toEqual([
    'Data e hora',
    'Terminal',
    'Código do cliente',
    'Cliente',
    'Celular',
    'Valor (R$)',
    'Pontos',
    'Situação',
    'Motivo',
    'Código da venda',
    'Tipo',
    'Prêmio',
  ]);
  const body = parsed.slice(1);
  expect(body.map((r) => [r[1], r[3], r[4], r[5], r[7]])).toEqual([
    ['Caixa 2', 'João Pereira', '(21) *****-5432', '56,00', 'Lançado'],
    ['Caixa 1', 'Maria da Silva', '(11) *****-4321', '12,34', 'Lançado'],
  ]);
  for (const r of body) {
    expect(r[0]).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
    expect(r[2]).toMatch(/^\d+$/);
    expect(r[6]).toMatch(/^\d+$/);
  }
  console.log(`manager export: ${body.length} rows read back from ${download.suggestedFilename()}`);
  await expectAccessible(page, 'manager ledger exported');
  await shot(page, `${SHOTS}/gerente-ledger-exported.png`);
  for (const p of [caixa1.page, caixa2.page, page]) await p.context().close();
});
