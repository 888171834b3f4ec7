import { describe, expect, test } from 'vitest';
import Papa from 'papaparse';
import type { AuditEntry } from '#contract/api/auditoria';
import { CSV_BOM, toCsv } from '@/lib/csv';
import { AUDIT_CSV_COLUMNS, auditCsvFilename } from './audit-csv';
import { detailsText } from './labels';

function entry(overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    id: 1,
    quando: new Date(2026, 10, 23, 9, 5, 30).toISOString(),
    terminal: { id: 3, nome: 'Gerência' },
    papel: 'gerente',
    acao: 'exportacao',
    detalhes: { tipo: 'premios', filtros: { status: 'pendente_resgate' }, linhas: 12 },
    requisicao: 'test-req-0001',
    ...overrides,
  };
}

/** Reads the file back the way Excel in Brazil splits it. */
const parse = (text: string) =>
  Papa.parse<string[]>(text.slice(1), { delimiter: ';', skipEmptyLines: true }).data;

describe('the audit trail as CSV', () => {
  test('one row per entry with Portuguese headers, the action and its details in words', () => {
    const text = toCsv([entry()], AUDIT_CSV_COLUMNS);
    expect(text.startsWith(CSV_BOM)).toBe(true);
    expect(text.endsWith('\r\n')).toBe(true);
    const [header, row] = parse(text);
    expect(header).toEqual([
      'Data e hora',
      'Terminal',
      'Código do terminal',
      'Papel',
      'Ação',
      'Detalhes',
      'Detalhes (registro)',
      'Requisição',
    ]);
    expect(row).toEqual([
      '23/11/2026 09:05',
      'Gerência',
      '3',
      'gerente',
      'Exportação',
      'Prêmios: 12 linhas · filtros: status=pendente_resgate',
      '{"tipo":"premios","filtros":{"status":"pendente_resgate"},"linhas":12}',
      'test-req-0001',
    ]);
  });

  test('a cell a spreadsheet would read as a formula stays text', () => {
    const hostile = entry({
      terminal: { id: 4, nome: '=HYPERLINK("http://x","clique")' },
      papel: '+gerente',
      acao: 'exportacao',
      detalhes: { tipo: '@SUM(1)', filtros: { q: '-2+3' }, linhas: 1 },
      requisicao: '=1+1',
    });
    const [, row] = parse(toCsv([hostile], AUDIT_CSV_COLUMNS));
    expect(row![1]).toBe(`'=HYPERLINK("http://x","clique")`);
    expect(row![3]).toBe(`'+gerente`);
    expect(row![5]).toBe(`'@SUM(1): 1 linha · filtros: q=-2+3`);
    expect(row![7]).toBe(`'=1+1`);
    for (const cell of row!) expect(cell, cell).not.toMatch(/^[=+\-@\t\r]/);
  });

  test('the command line and every action read in words', () => {
    const [, row] = parse(
      toCsv(
        [
          entry({
            terminal: null,
            papel: 'linha de comando',
            acao: 'terminal.revogado',
            detalhes: { terminal: { id: 7, nome: 'Caixa 7', papel: 'caixa' } },
            requisicao: 'cli-1',
          }),
        ],
        AUDIT_CSV_COLUMNS,
      ),
    );
    expect(row!.slice(1, 6)).toEqual([
      'Linha de comando',
      '',
      'linha de comando',
      'Terminal revogado',
      'Caixa 7 (caixa), nº 7',
    ]);
    expect(
      detailsText({
        acao: 'venda.descartada',
        detalhes: { chave: 'abcdef123456', valor_gasto: 2590, terminal_da_venda: '3' },
      }),
    ).toBe('Venda abcdef12 de R$ 25,90, do terminal nº 3');
    expect(auditCsvFilename(new Date(2026, 10, 23, 12))).toBe('auditoria-2026-11-23.csv');
  });
});
