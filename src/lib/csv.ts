// CSV files for Excel configured for Brazil: UTF-8 with a BOM (without it Excel reads the
// accents as Latin-1), `;` between cells (`,` is the decimal separator there), CRLF rows.
// A cell a spreadsheet would read as a formula (`=`, `+`, `-`, `@`, tab or CR first) gets a
// leading apostrophe, so an exported reward name such as `=HYPERLINK(…)` stays text.
// Import this module with `import()` where a file is written: it and its writer (papaparse's
// `unparse`) then form one lazy chunk, out of every route's first load. (papaparse imported
// lazily from here instead made a chunk of its own, which split Rolldown's CommonJS helpers
// out of the entry into a chunk of their own: +171 B gzip on the counter's first load.)
import Papa from 'papaparse';
import { formatDateTime, formatLocalDateTime } from './dates';

/** A column: its header as the person reads it and the cell of each row. */
export interface CsvColumn<Row> {
  header: string;
  cell: (row: Row) => string | number | null | undefined;
}

export const CSV_BOM = '\uFEFF';
export const CSV_SEPARATOR = ';';
export const CSV_MIME = 'text/csv;charset=utf-8';

/**
 * Cells a spreadsheet would evaluate. papaparse's own `escapeFormulae: true` pattern ends in
 * `.*$` without the `s` flag, which lets `=1+1\nx` through; this one looks at the first
 * character only.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A date-time cell, `dd/mm/aaaa hh:mm`: a wire date-time (São Paulo civil time, as the service
 * sends it) as it reads, an instant (`Date`) in this terminal's timezone; empty for none.
 */
export function dateTimeCell(value: string | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  return value instanceof Date ? formatLocalDateTime(value) : formatDateTime(value);
}

/** A file's name from what it holds and its day or scope: `premios-2026-11-23.csv`. */
export const csvFilename = (...parts: readonly string[]) => `${parts.join('-')}.csv`;

/** The file's text: BOM, header row, one row per record, CRLF after every row. */
export function toCsv<Row>(rows: readonly Row[], columns: readonly CsvColumn<Row>[]): string {
  const body = Papa.unparse(
    {
      fields: columns.map((c) => c.header),
      data: rows.map((row) => columns.map((c) => c.cell(row) ?? '')),
    },
    {
      delimiter: CSV_SEPARATOR,
      newline: '\r\n',
      quotes: false, // only where needed: a separator, quote, line break or edge space
      escapeFormulae: FORMULA_START,
      header: true,
    },
  );
  // unparse ends the header row of an empty table with a newline, but not the last data row.
  return `${CSV_BOM}${body}${body.endsWith('\r\n') ? '' : '\r\n'}`;
}

/** Writes `rows` to a CSV file named `filename` the browser downloads; returns the name. */
export function downloadRows<Row>(
  filename: string,
  rows: readonly Row[],
  columns: readonly CsvColumn<Row>[],
): string {
  downloadCsv(filename, toCsv(rows, columns));
  return filename;
}

/** Hands the text to the browser as a file download named `filename`. */
export function downloadCsv(filename: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: CSV_MIME }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  // Revoked after the click has been handled (some browsers read the URL asynchronously).
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
