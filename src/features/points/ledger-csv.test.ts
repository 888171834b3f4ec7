import { describe, expect, test } from 'vitest';
import Papa from 'papaparse';
import { CSV_BOM, toCsv } from '@/lib/csv';
import type { LedgerEntry } from './api/ledger';
import { LEDGER_CSV_COLUMNS, ledgerCsvFilename } from './ledger-csv';

function entry(overrides: Partial<LedgerEntry> = {}): LedgerEntry {
  return {
    chave: '8f6c2a3e-0000-4000-8000-000000000001',
    tipo: 'pontos',
    premio: null,
    estado: 'lançado',
    motivo: null,
    valor_gasto: 123456,
    celular: '+5511987654321',
    nome: 'Maria da Silva',
    pontos: 1234,
    conferido: false,
    resposta: { status: 200, corpo: null },
    cliente: {
      id_cliente: 7,
      nome: 'Maria da Silva',
      saldo_atual: 0,
      saldo_carencia: 0,
      compras: 1,
    },
    guardado: false,
    criado_em: new Date(2026, 10, 23, 9, 5, 30).toISOString(),
    atualizado_em: new Date(2026, 10, 23, 9, 5, 31).toISOString(),
    terminal: '3',
    terminal_nome: 'Caixa 1',
    ...overrides,
  };
}

/** Reads the file back the way Excel in Brazil splits it. */
const parse = (text: string) =>
  Papa.parse<string[]>(text.slice(1), { delimiter: ';', skipEmptyLines: true }).data;

describe('the ledger as CSV', () => {
  test("is the rewards export's format: BOM, Portuguese headers, `;`, dd/mm/aaaa hh:mm in the terminal's time", () => {
    const text = toCsv([entry()], LEDGER_CSV_COLUMNS);
    expect(text.startsWith(CSV_BOM)).toBe(true);
    expect(parse(text)).toEqual([
      [
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
      ],
      [
        '23/11/2026 09:05',
        'Caixa 1',
        '7',
        'Maria da Silva',
        '(11) *****-4321',
        '1234,56',
        '1234',
        'Lançado',
        '',
        '8f6c2a3e-0000-4000-8000-000000000001',
        'Pontos',
        '',
      ],
    ]);
  });

  test('a refusal says so with its reason; an unsettled posting has no points; cents keep two digits', () => {
    const rows = parse(
      toCsv(
        [
          entry({
            estado: 'recusado',
            motivo: 'Senha do atendente incorreta.',
            pontos: null,
            valor_gasto: 5,
          }),
          entry({
            estado: 'desconhecido',
            pontos: null,
            cliente: null,
            nome: null,
            valor_gasto: 1000,
          }),
        ],
        LEDGER_CSV_COLUMNS,
      ),
    );
    expect(rows[1]!.slice(5, 9)).toEqual([
      '0,05',
      '',
      'Não lançado',
      'Senha do atendente incorreta.',
    ]);
    expect(rows[2]!.slice(2, 9)).toEqual([
      '',
      '',
      '(11) *****-4321',
      '10,00',
      '',
      'Desconhecido',
      '',
    ]);
  });

  test("the customer's id comes from the service's answer when the server did not re-read", () => {
    const answered = entry({
      cliente: null,
      resposta: { status: 200, corpo: { success: true, data: { id_cliente: 42, id_ponto: 9 } } },
    });
    expect(parse(toCsv([answered], LEDGER_CSV_COLUMNS))[1]![2]).toBe('42');
  });

  test('a customer name or terminal name that looks like a formula is written as text', () => {
    const rows = parse(
      toCsv(
        [entry({ nome: '=HYPERLINK("http://x")', terminal_nome: '+Caixa' })],
        LEDGER_CSV_COLUMNS,
      ),
    );
    expect(rows[1]![3]).toBe(`'=HYPERLINK("http://x")`);
    expect(rows[1]![1]).toBe(`'+Caixa`);
  });

  test('a hand-over is a "Prêmio entregue" row with the reward, no amount and no points', () => {
    const rows = parse(
      toCsv(
        [
          entry({
            tipo: 'premio',
            premio: { id_premio: 3, id_premio_cliente: 4, nome: 'Vale-compras de R$ 10,00' },
            valor_gasto: 0,
            pontos: null,
            resposta: { status: 200, corpo: { success: true, data: { id_cliente: 2 } } },
            cliente: null,
          }),
          entry({
            tipo: 'premio',
            estado: 'recusado',
            motivo: 'O cliente não tem este prêmio para resgatar',
            premio: { id_premio: 3, id_premio_cliente: null, nome: 'Vale-compras de R$ 10,00' },
            valor_gasto: 0,
            pontos: null,
          }),
        ],
        LEDGER_CSV_COLUMNS,
      ),
    );
    const cols = Object.fromEntries(rows[0]!.map((h, i) => [h, i]));
    const cell = (row: number, header: string) => rows[row]![cols[header]!];
    expect(cell(1, 'Tipo')).toBe('Prêmio entregue');
    expect(cell(1, 'Prêmio')).toBe('Vale-compras de R$ 10,00');
    expect(cell(1, 'Valor (R$)')).toBe('');
    expect(cell(1, 'Pontos')).toBe('');
    expect(cell(1, 'Situação')).toBe('Entregue');
    expect(cell(1, 'Código do cliente')).toBe('2');
    expect(cell(2, 'Situação')).toBe('Não entregue');
    expect(cell(2, 'Motivo')).toBe('O cliente não tem este prêmio para resgatar');
  });

  test('the full phone number never reaches the file', () => {
    expect(toCsv([entry()], LEDGER_CSV_COLUMNS)).not.toContain('98765');
  });

  test('the file is named after the day, and the terminal when one is chosen', () => {
    expect(ledgerCsvFilename({ day: '2026-11-23', terminal: null })).toBe(
      'lancamentos-2026-11-23.csv',
    );
    expect(ledgerCsvFilename({ day: '2026-11-22', terminal: '3' })).toBe(
      'lancamentos-2026-11-22-terminal-3.csv',
    );
  });
});
