// The audit trail as a CSV file in the other exports' format (@/lib/csv: UTF-8 with BOM, `;`,
// Portuguese headers, `dd/mm/aaaa hh:mm`, formula-like cells neutralised): one row per entry,
// newest first, its details as the screen words them and as recorded (JSON). Imported with
// `import()` when the file is written, so that it, @/lib/csv and papaparse stay out of the
// route's first load.
import type { AuditEntry } from '#contract/api/auditoria';
import { csvFilename, dateTimeCell, downloadRows, type CsvColumn } from '@/lib/csv';
import { localDay } from '@/lib/dates';
import { actionLabel, detailsText } from './labels';

export const AUDIT_CSV_COLUMNS: readonly CsvColumn<AuditEntry>[] = [
  { header: 'Data e hora', cell: (e) => dateTimeCell(new Date(e.quando)) },
  {
    header: 'Terminal',
    cell: (e) => e.terminal?.nome ?? (e.terminal ? `nº ${e.terminal.id}` : 'Linha de comando'),
  },
  { header: 'Código do terminal', cell: (e) => e.terminal?.id },
  { header: 'Papel', cell: (e) => e.papel },
  { header: 'Ação', cell: (e) => actionLabel(e.acao) },
  { header: 'Detalhes', cell: detailsText },
  { header: 'Detalhes (registro)', cell: (e) => JSON.stringify(e.detalhes) },
  { header: 'Requisição', cell: (e) => e.requisicao },
];

/** `auditoria-2026-11-23.csv` (the day this terminal exports it). */
export const auditCsvFilename = (now: Date = new Date()) => csvFilename('auditoria', localDay(now));

/**
 * Writes the entries to a CSV file the browser downloads; returns the file's name. `lojaOf`
 * (a chain's rede): a first column "Loja" with each entry's store name.
 */
export function downloadAuditCsv(
  entries: readonly AuditEntry[],
  now: Date = new Date(),
  lojaOf?: (e: AuditEntry) => string,
): string {
  const columns = lojaOf
    ? [{ header: 'Loja', cell: lojaOf }, ...AUDIT_CSV_COLUMNS]
    : AUDIT_CSV_COLUMNS;
  return downloadRows(auditCsvFilename(now), entries, columns);
}
