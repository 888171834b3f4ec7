// The ledger as a CSV file in the rewards export's format (@/lib/csv: UTF-8 with BOM, `;`,
// Portuguese headers, `dd/mm/aaaa hh:mm`, formula-like cells neutralised): one row per
// posting or hand-over ("Prêmio entregue", with the reward's name) as the manager's screen
// lists it, the time in this terminal's timezone, the amount
// as a number Excel in Brazil reads (`1234,56`), the phone masked as on the screen. Imported
// with `import()` when the file is written, so that it, @/lib/csv and papaparse stay out of
// the counter's chunks.
import { csvFilename, dateTimeCell, downloadRows, type CsvColumn } from '@/lib/csv';
import { maskPhone } from '@/lib/phone';
import { recordExport } from '@/api/record-export';
import type { LedgerEntry, LedgerQuery } from './api/ledger';
import { LEDGER_KIND_LABELS, ledgerStateLabel } from './ledger-labels';

/** The customer's id: from the server's reading, else from the service's own answer. */
function customerId(l: LedgerEntry): number | null {
  if (l.cliente?.id_cliente != null) return l.cliente.id_cliente;
  const corpo = l.resposta?.corpo;
  const data =
    typeof corpo === 'object' && corpo !== null ? (corpo as { data?: unknown }).data : null;
  const id =
    typeof data === 'object' && data !== null
      ? (data as { id_cliente?: unknown }).id_cliente
      : null;
  return typeof id === 'number' ? id : null;
}

const reais = (cents: number) => (cents / 100).toFixed(2).replace('.', ',');

export const LEDGER_CSV_COLUMNS: readonly CsvColumn<LedgerEntry>[] = [
  { header: 'Data e hora', cell: (l) => dateTimeCell(new Date(l.criado_em)) },
  { header: 'Terminal', cell: (l) => l.terminal_nome ?? l.terminal },
  { header: 'Código do cliente', cell: customerId },
  { header: 'Cliente', cell: (l) => l.nome ?? l.cliente?.nome },
  { header: 'Celular', cell: (l) => (l.celular ? maskPhone(l.celular) : null) },
  { header: 'Valor (R$)', cell: (l) => (l.tipo === 'premio' ? null : reais(l.valor_gasto)) },
  { header: 'Pontos', cell: (l) => l.pontos },
  { header: 'Situação', cell: ledgerStateLabel },
  { header: 'Motivo', cell: (l) => l.motivo },
  { header: 'Código da venda', cell: (l) => l.chave },
  // Added with hand-overs, after the columns a sheet may already read by position.
  { header: 'Tipo', cell: (l) => LEDGER_KIND_LABELS[l.tipo] },
  { header: 'Prêmio', cell: (l) => l.premio?.nome },
];

/** `lancamentos-2026-11-23.csv`, or `lancamentos-2026-11-23-terminal-3.csv` for one terminal. */
export const ledgerCsvFilename = (q: LedgerQuery) =>
  q.terminal === null
    ? csvFilename('lancamentos', q.day)
    : csvFilename('lancamentos', q.day, 'terminal', q.terminal);

/**
 * Records the export in the audit trail (the day, the terminal, the rows), then writes the
 * entries to a CSV file the browser downloads; returns the file's name. Not recorded: no file.
 */
export async function downloadLedgerCsv(
  entries: readonly LedgerEntry[],
  q: LedgerQuery,
): Promise<string> {
  await recordExport({
    tipo: 'lancamentos',
    filtros: { dia: q.day, terminal: q.terminal },
    linhas: entries.length,
  });
  return downloadRows(ledgerCsvFilename(q), entries, LEDGER_CSV_COLUMNS);
}

/**
 * A rede's CSV: the chain's export route answers the postings (and records the export in each
 * store's trail), written with a first "Loja" column naming each posting's store.
 */
export async function downloadChainLedgerCsv(
  q: LedgerQuery,
  scope: 'todas' | number,
  nameOf: (id: number) => string,
): Promise<{ filename: string; rows: number }> {
  const { fetchChainLedgerExport } = await import('./api/chain-ledger');
  const found = await fetchChainLedgerExport(q, scope);
  const loja = (l: LedgerEntry) => l.loja ?? (scope === 'todas' ? null : scope);
  const columns: CsvColumn<LedgerEntry>[] = [
    { header: 'Loja', cell: (l) => (loja(l) === null ? null : nameOf(loja(l)!)) },
    ...LEDGER_CSV_COLUMNS,
  ];
  const base = ledgerCsvFilename(q).replace(/\.csv$/, '');
  const filename = `${base}-${scope === 'todas' ? 'todas-as-lojas' : `loja-${scope}`}.csv`;
  return {
    filename: downloadRows(filename, found.lancamentos, columns),
    rows: found.lancamentos.length,
  };
}
