// Vigilância's alerts as a CSV file in the other exports' format (@/lib/csv): one row per
// alert, newest first, the customer's phone masked as the screen shows it. Imported with
// `import()` when the file is written, so it and @/lib/csv stay out of the route's first load.
import type { AlertWire } from '#contract/api/vigilancia';
import { csvFilename, dateTimeCell, downloadRows, type CsvColumn } from '@/lib/csv';
import { localDay } from '@/lib/dates';
import { formatBRL } from '@/lib/money';
import { dayText, STATE_LABELS } from './labels';

export const ALERT_CSV_COLUMNS: readonly CsvColumn<AlertWire>[] = [
  { header: 'Alerta', cell: (a) => a.id },
  { header: 'Criado em', cell: (a) => dateTimeCell(new Date(a.criado_em)) },
  { header: 'Regra', cell: (a) => a.regra_nome },
  { header: 'Código da regra', cell: (a) => a.regra },
  { header: 'Loja', cell: (a) => a.loja },
  { header: 'Dia', cell: (a) => dayText(a.dia) },
  { header: 'Terminal', cell: (a) => a.terminal_nome ?? a.terminal },
  { header: 'Cliente', cell: (a) => a.cliente },
  { header: 'Valor', cell: (a) => (a.valor === null ? '' : formatBRL(a.valor)) },
  { header: 'Resumo', cell: (a) => a.resumo },
  { header: 'Estado', cell: (a) => STATE_LABELS[a.estado] },
  { header: 'Nota', cell: (a) => a.nota },
  { header: 'Decidido por', cell: (a) => a.decidido_por },
  {
    header: 'Decidido em',
    cell: (a) => (a.decidido_em ? dateTimeCell(new Date(a.decidido_em)) : ''),
  },
];

export const alertCsvFilename = (now: Date = new Date()) =>
  csvFilename('vigilancia', localDay(now));

/**
 * Writes the alerts to a CSV file the browser downloads; returns the file's name. `lojaName`
 * (a chain's rede): the "Loja" column names the store instead of its establishment id.
 */
export function downloadAlertCsv(
  alerts: readonly AlertWire[],
  now: Date = new Date(),
  lojaName?: (id: number) => string,
): string {
  const columns = lojaName
    ? ALERT_CSV_COLUMNS.map((c) =>
        c.header === 'Loja' ? { header: 'Loja', cell: (a: AlertWire) => lojaName(a.loja) } : c,
      )
    : ALERT_CSV_COLUMNS;
  return downloadRows(alertCsvFilename(now), alerts, columns);
}
