// The conferência's findings as a CSV file in the project's format (@/lib/csv: UTF-8 with
// BOM, `;`, Portuguese headers, formula-like cells neutralised): one row per finding, our
// journal's entry and the service's credit side by side. Imported with `import()` when the
// file is written, so that it, @/lib/csv and papaparse stay out of the dashboard's first load.
import { csvFilename, dateTimeCell, downloadCsv, toCsv, type CsvColumn } from '@/lib/csv';
import type { Achado } from '#contract/api/conferencia';
import { ACHADO_LABELS } from './conferencia-labels';

const reais = (cents: number) => (cents / 100).toFixed(2).replace('.', ',');

const COLUMNS: readonly CsvColumn<Achado>[] = [
  { header: 'Achado', cell: (a) => ACHADO_LABELS[a.tipo] },
  { header: 'Celular', cell: (a) => a.celular },
  { header: 'Código do cliente', cell: (a) => a.id_cliente },
  { header: 'Cliente', cell: (a) => a.nome },
  {
    header: 'Venda: data e hora',
    cell: (a) => dateTimeCell(a.lancamento && new Date(a.lancamento.criado_em)),
  },
  {
    header: 'Venda: enviada em',
    cell: (a) => dateTimeCell(a.lancamento && new Date(a.lancamento.enviado_em)),
  },
  {
    header: 'Venda: valor (R$)',
    cell: (a) => (a.lancamento ? reais(a.lancamento.valor_gasto) : null),
  },
  { header: 'Venda: pontos', cell: (a) => a.lancamento?.pontos },
  { header: 'Código da venda', cell: (a) => a.lancamento?.chave },
  { header: 'Serviço: data e hora', cell: (a) => dateTimeCell(a.servico?.data) },
  { header: 'Serviço: pontos', cell: (a) => a.servico?.pontos },
  { header: 'Serviço: id_cartela_cliente', cell: (a) => a.servico?.id_cartela_cliente },
  { header: 'Detalhe', cell: (a) => a.detalhe },
];

/** The file's text: one row per finding. */
export const conferenciaCsv = (achados: readonly Achado[]) => toCsv(achados, COLUMNS);

/** Writes `conferencia-2026-11-23.csv`; returns its name. */
export function downloadConferenciaCsv(achados: readonly Achado[], dia: string): string {
  const name = csvFilename('conferencia', dia);
  downloadCsv(name, conferenciaCsv(achados));
  return name;
}
