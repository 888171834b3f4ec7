import { describe, expect, test } from 'vitest';
import Papa from 'papaparse';
import { CSV_BOM, dateTimeCell, toCsv, type CsvColumn } from './csv';

interface Row {
  name: string;
  n: number | null;
}
const columns: CsvColumn<Row>[] = [
  { header: 'Prêmio', cell: (r) => r.name },
  { header: 'Código', cell: (r) => r.n },
];

/** Reads the file back the way Excel would split it (`;`, double quotes). */
const parse = (text: string) =>
  Papa.parse<string[]>(text.slice(1), { delimiter: ';', skipEmptyLines: true }).data;

describe('toCsv', () => {
  test('starts with the UTF-8 BOM, then the Portuguese headers, separated by ;', async () => {
    const text = toCsv([{ name: 'Café', n: 1 }], columns);
    expect(text.startsWith(CSV_BOM)).toBe(true);
    expect(text.charCodeAt(0)).toBe(0xfeff);
    expect(text.slice(1)).toBe('Prêmio;Código\r\nCafé;1\r\n');
  });

  test('a file with no rows still has its headers', async () => {
    expect(toCsv([], columns)).toBe(`${CSV_BOM}Prêmio;Código\r\n`);
  });

  test('an empty cell stays empty', async () => {
    expect(toCsv([{ name: 'x', n: null }], columns).slice(1)).toBe('Prêmio;Código\r\nx;\r\n');
  });

  test('a cell with the separator, a quote or a line break is quoted and reads back whole', async () => {
    const rows = [
      { name: 'Vale; R$ 10,00', n: 1 },
      { name: 'Caneca "Loja"', n: 2 },
      { name: 'linha 1\nlinha 2', n: 3 },
    ];
    const text = toCsv(rows, columns);
    expect(text).toContain('"Vale; R$ 10,00";1');
    expect(text).toContain('"Caneca ""Loja""";2');
    expect(parse(text)).toEqual([
      ['Prêmio', 'Código'],
      ['Vale; R$ 10,00', '1'],
      ['Caneca "Loja"', '2'],
      ['linha 1\nlinha 2', '3'],
    ]);
  });

  test.each(['=HYPERLINK("http://x")', '+1', '-2+3', '@SUM(A1)', '\t=1', '\r=1', '=1\n=2'])(
    'a cell starting like a formula (%j) is read as text',
    async (value) => {
      const text = toCsv([{ name: value, n: 1 }], columns);
      const cell = parse(text)[1]![0]!;
      expect(cell).toBe(`'${value}`);
    },
  );

  test('text with a formula sign further in is left as is', async () => {
    const text = toCsv([{ name: 'Vale = R$ 10', n: 1 }], columns);
    expect(parse(text)[1]).toEqual(['Vale = R$ 10', '1']);
  });

  test('numbers are written as numbers (a negative one too: it is not text)', async () => {
    const text = toCsv([{ name: 'x', n: -5 }], columns);
    expect(parse(text)[1]).toEqual(['x', '-5']);
  });
});

describe('dateTimeCell', () => {
  test('a wire date-time reads as São Paulo civil time, an instant in the terminal’s zone, none empty', () => {
    expect(dateTimeCell('2024-05-01 13:45:10')).toBe('01/05/2024 13:45');
    expect(dateTimeCell(new Date(2026, 10, 23, 7, 3, 59))).toBe('23/11/2026 07:03');
    expect(dateTimeCell(null)).toBe('');
    expect(dateTimeCell(undefined)).toBe('');
  });
});
