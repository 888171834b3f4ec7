// The pieces the manager's filtered lists share (the audit trail, Vigilância's alerts): the
// count line with the CSV export's button, the export's outcome, and the pages' navigation.
// Only the manager screens' lazy chunks import it.
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { formatInteger } from '@/lib/points';

type ExportState =
  | { kind: 'idle' | 'running' }
  | { kind: 'done'; filename: string; rows: number }
  | { kind: 'failed'; message: string };

/** A CSV export: `write` reads the rows, writes the file and says its name and rows. */
export function useCsvExport(write: () => Promise<{ filename: string; rows: number }>) {
  const [state, setState] = useState<ExportState>({ kind: 'idle' });
  const run = async () => {
    setState({ kind: 'running' });
    try {
      setState({ kind: 'done', ...(await write()) });
    } catch (e) {
      setState({ kind: 'failed', message: e instanceof Error ? e.message : 'Erro desconhecido.' });
    }
  };
  return { state, start: () => void run() };
}

/** `1 registro`, `2 registros`. */
const counted = (n: number, noun: [string, string]) =>
  `${formatInteger(n)} ${n === 1 ? noun[0] : noun[1]}`;

/** The list's count, the export's button, and what the export did. */
export function ExportBar({
  total,
  noun,
  updating,
  exporter,
}: {
  /** The list's count (null: not read yet). */
  total: number | null;
  noun: [string, string];
  updating: boolean;
  exporter: ReturnType<typeof useCsvExport>;
}) {
  const { state } = exporter;
  const running = state.kind === 'running';
  return (
    <>
      <div className="flex flex-wrap items-center gap-3">
        <p className="text-slate-700" aria-live="polite">
          {total === null ? '' : counted(total, noun)}
          {updating && ' · atualizando…'}
        </p>
        <Button
          variant="secondary"
          size="sm"
          className="ml-auto"
          onClick={exporter.start}
          disabled={total === null || total === 0 || running}
          busy={running}
        >
          {!running && <span aria-hidden="true">⬇</span>} Exportar CSV
        </Button>
      </div>
      <div role="status" className="empty:hidden">
        {state.kind === 'done' && (
          <p>
            <span aria-hidden="true">✓ </span>
            Arquivo {state.filename} gerado com {counted(state.rows, noun)}.
          </p>
        )}
      </div>
      {state.kind === 'failed' && (
        <Alert tone="error" title="Não foi possível exportar.">
          <p>{state.message}</p>
        </Alert>
      )}
    </>
  );
}

/** "Anterior · Página 2 de 5 · Próxima". */
export function Pager({
  label,
  pagina,
  paginas,
  onPage,
}: {
  label: string;
  pagina: number;
  paginas: number;
  onPage: (pagina: number) => void;
}) {
  return (
    <nav aria-label={label} className="flex items-center gap-3">
      <Button
        size="sm"
        variant="secondary"
        disabled={pagina <= 1}
        onClick={() => onPage(pagina - 1)}
      >
        Anterior
      </Button>
      <span className="tabular-nums">
        Página {pagina} de {paginas}
      </span>
      <Button
        size="sm"
        variant="secondary"
        disabled={pagina >= paginas}
        onClick={() => onPage(pagina + 1)}
      >
        Próxima
      </Button>
    </nav>
  );
}
