// The rewards as a CSV file for Excel in Brazil (format in @/lib/csv): Portuguese headers,
// dates `dd/mm/aaaa hh:mm` (São Paulo civil time, as the service sends it), status and
// category in Portuguese, in the service's order (newest first). Imported with `import()` when
// an export is written, so that it, @/lib/csv and papaparse stay out of the route's first load.
import type { RewardFilters } from '@/api/requests';
import { recordExport } from '@/api/record-export';
import type { RewardRecord } from '@/api/schemas';
import { csvFilename, dateTimeCell, downloadRows, type CsvColumn } from '@/lib/csv';
import { todayInSaoPaulo } from '@/lib/dates';
import { CATEGORY_LABELS } from '@/lib/rewards';
import { STATUS_LABELS } from './components/labels';

export const REWARD_CSV_COLUMNS: readonly CsvColumn<RewardRecord>[] = [
  { header: 'Código do prêmio conquistado', cell: (r) => r.id_premio_cliente },
  { header: 'Data da conquista', cell: (r) => dateTimeCell(r.data_conquista) },
  { header: 'Código do cliente', cell: (r) => r.id_cliente },
  { header: 'Prêmio', cell: (r) => r.nome },
  { header: 'Categoria', cell: (r) => CATEGORY_LABELS[r.categoria_premio] },
  { header: 'Situação', cell: (r) => STATUS_LABELS[r.premio_status] },
  { header: 'Válido até', cell: (r) => dateTimeCell(r.valido_ate) },
  { header: 'Data do resgate', cell: (r) => dateTimeCell(r.data_resgate) },
  { header: 'Data do estorno', cell: (r) => dateTimeCell(r.estornado_em) },
];

/** `premios-2026-11-23.csv` (the day in São Paulo). */
export const rewardsCsvFilename = (now: Date = new Date()) =>
  csvFilename('premios', todayInSaoPaulo(now));

/**
 * Records the export in the audit trail (its filters, its rows), then writes `records` to a
 * CSV file the browser downloads; returns the name. Not recorded: no file. A chain's store
 * (`filters.loja`, a rede): recorded in that store's trail, and a first column "Loja" names it.
 */
export async function downloadRewardsCsv(
  records: readonly RewardRecord[],
  filters: RewardFilters,
  now: Date = new Date(),
  lojaName: (id: number) => string = (id) => `Loja ${id}`,
): Promise<string> {
  const { page: _page, itens_por_pagina: _size, loja, ...rest } = filters;
  const filtros = loja === undefined ? rest : { ...rest, loja: lojaName(loja) };
  await recordExport({ tipo: 'premios', filtros, linhas: records.length }, loja);
  const columns =
    loja === undefined
      ? REWARD_CSV_COLUMNS
      : [{ header: 'Loja', cell: () => lojaName(loja) }, ...REWARD_CSV_COLUMNS];
  return downloadRows(rewardsCsvFilename(now), records, columns);
}
