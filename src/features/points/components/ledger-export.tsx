import { useState } from 'react';
import { Button } from '@/components/ui/button';
import type { Ledger } from '#contract/api/postings';
import type { LedgerQuery } from '@/features/points/api/ledger';
import { formatInteger } from '@/lib/points';

type Exported =
  | { query: LedgerQuery; kind: 'done'; filename: string; rows: number }
  | { query: LedgerQuery; kind: 'failed'; message: string };

/**
 * A manager's "Exportar CSV" of what the ledger lists, and what it did. What an export said
 * is shown for its own query only: another day or terminal clears it.
 */
export function LedgerExport({
  ledger,
  query,
  download,
}: {
  ledger: Ledger | null;
  query: LedgerQuery;
  /** Writes the file another way (a rede's, read from the chain's export route). */
  download?: (query: LedgerQuery) => Promise<{ filename: string; rows: number }>;
}) {
  const [last, setExported] = useState<Exported | null>(null);
  const [exporting, setExporting] = useState(false);
  const exported = last?.query === query ? last : null;

  const exportCsv = async () => {
    if (!ledger) return;
    setExporting(true);
    try {
      if (download) {
        setExported({ query, kind: 'done', ...(await download(query)) });
      } else {
        const { downloadLedgerCsv } = await import('@/features/points/ledger-csv');
        const filename = await downloadLedgerCsv(ledger.lancamentos, query);
        setExported({ query, kind: 'done', filename, rows: ledger.lancamentos.length });
      }
    } catch (e) {
      setExported({
        query,
        kind: 'failed',
        message: e instanceof Error ? e.message : 'Erro desconhecido.',
      });
    } finally {
      setExporting(false);
    }
  };

  return (
    <>
      <div className="flex flex-col gap-1 self-end">
        <Button
          variant="secondary"
          onClick={() => void exportCsv()}
          disabled={!ledger || ledger.lancamentos.length === 0 || exporting}
          busy={exporting}
        >
          {!exporting && <span aria-hidden="true">⬇</span>} Exportar CSV
        </Button>
      </div>
      <div role="status" className="basis-full text-sm text-slate-800 empty:hidden">
        {exported?.kind === 'done' && (
          <p>
            <span aria-hidden="true">✓ </span>
            Arquivo {exported.filename} gerado com {formatInteger(exported.rows)}{' '}
            {exported.rows === 1 ? 'lançamento' : 'lançamentos'}.
          </p>
        )}
      </div>
      {exported?.kind === 'failed' && (
        <p role="alert" className="basis-full text-sm text-red-800">
          Não foi possível exportar: {exported.message}
        </p>
      )}
    </>
  );
}
