// "Exportar CSV": every record matching the filters, fetched page by page with a progress
// bar and a cancel button that aborts the request in flight.
import { useEffect, useRef, useState } from 'react';
import type { RewardFilters } from '@/api/schemas';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import {
  EXPORT_LIMIT,
  TooManyToExport,
  fetchAllRewards,
  type ExportProgress,
} from '../api/export-rewards';
import { REWARD_CSV_COLUMNS, rewardsCsvFilename } from '../export-csv';

const count = new Intl.NumberFormat('pt-BR');

type State =
  | { kind: 'idle' }
  | { kind: 'running'; progress: ExportProgress | null }
  | { kind: 'done'; filename: string; rows: number }
  | { kind: 'cancelled' }
  | { kind: 'too-many'; total: number }
  | { kind: 'failed'; message: string };

interface Props {
  /** The filters as the list sends them (page and page size are ignored). */
  filters: RewardFilters;
  /** False while the filters cannot be sent (an inverted period). */
  enabled: boolean;
}

export function ExportRewards({ filters, enabled }: Props) {
  const [state, setState] = useState<State>({ kind: 'idle' });
  const controller = useRef<AbortController | null>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const startRef = useRef<HTMLButtonElement>(null);

  // Leaving the screen stops an export in progress.
  useEffect(() => () => controller.current?.abort(), []);

  const start = async () => {
    controller.current?.abort();
    const own = new AbortController();
    controller.current = own;
    setState({ kind: 'running', progress: null });
    try {
      const records = await fetchAllRewards(filters, {
        signal: own.signal,
        onProgress: (progress) => {
          if (!own.signal.aborted) setState({ kind: 'running', progress });
        },
      });
      const { downloadCsv, toCsv } = await import('@/lib/csv');
      const text = await toCsv(records, REWARD_CSV_COLUMNS);
      if (own.signal.aborted) return;
      const filename = rewardsCsvFilename();
      downloadCsv(filename, text);
      setState({ kind: 'done', filename, rows: records.length });
    } catch (error) {
      if (own.signal.aborted) return; // cancel already said so
      if (error instanceof TooManyToExport) setState({ kind: 'too-many', total: error.total });
      else
        setState({
          kind: 'failed',
          message: error instanceof Error ? error.message : 'Erro desconhecido.',
        });
    } finally {
      if (controller.current === own) controller.current = null;
    }
  };

  const cancel = () => {
    controller.current?.abort();
    controller.current = null;
    setState({ kind: 'cancelled' });
  };

  // The cancel button takes the focus while the export runs (the start button is disabled),
  // and gives it back when it goes away.
  const running = state.kind === 'running';
  const wasRunning = useRef(false);
  useEffect(() => {
    if (running) cancelRef.current?.focus();
    else if (
      wasRunning.current &&
      (!document.activeElement || document.activeElement === document.body)
    )
      startRef.current?.focus();
    wasRunning.current = running;
  }, [running]);

  const progress = state.kind === 'running' ? state.progress : null;
  return (
    <div className="flex flex-col items-stretch gap-2 sm:items-end">
      <div className="flex flex-wrap items-center justify-end gap-2">
        <Button
          ref={startRef}
          variant="secondary"
          onClick={() => void start()}
          disabled={!enabled || running}
          busy={running}
        >
          <span aria-hidden="true">⬇</span> Exportar CSV
        </Button>
        {running && (
          <Button ref={cancelRef} variant="danger" onClick={cancel}>
            Cancelar exportação
          </Button>
        )}
      </div>
      <div role="status" className="text-sm text-slate-800 sm:text-right">
        {running && (
          <div className="flex flex-col gap-1">
            <span className="tabular">
              {progress
                ? `Exportando: ${count.format(progress.loaded)} de ${count.format(progress.total)} prêmios…`
                : 'Exportando: lendo a primeira página…'}
            </span>
            <progress
              aria-label="Progresso da exportação"
              className="h-2 w-full min-w-48 accent-blue-700"
              max={progress ? Math.max(1, progress.total) : undefined}
              value={progress ? progress.loaded : undefined}
            />
          </div>
        )}
        {state.kind === 'done' &&
          `Arquivo ${state.filename} gerado com ${count.format(state.rows)} ${
            state.rows === 1 ? 'prêmio' : 'prêmios'
          }.`}
        {state.kind === 'cancelled' && 'Exportação cancelada: nenhum arquivo foi gerado.'}
      </div>
      {state.kind === 'too-many' && (
        <Alert tone="warning" title="Muitos prêmios para exportar.">
          <p>
            São {count.format(state.total)} prêmios com estes filtros; a exportação vai até{' '}
            {count.format(EXPORT_LIMIT)}. Restrinja os filtros (um período menor, uma situação ou
            uma categoria) e exporte de novo.
          </p>
        </Alert>
      )}
      {state.kind === 'failed' && (
        <Alert tone="error" title="Não foi possível exportar.">
          <p>{state.message}</p>
          <div>
            <Button variant="secondary" onClick={() => void start()}>
              Tentar de novo
            </Button>
          </div>
        </Alert>
      )}
    </div>
  );
}
