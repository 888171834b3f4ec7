// "Exportar CSV": every record matching the filters, fetched page by page with a progress
// bar and a cancel button that aborts the request in flight. The buttons sit in the result's
// toolbar; what the export has to say (progress, done, too many, failure) in a row below it.
import { useEffect, useRef, useState } from 'react';
import type { RewardFilters } from '@/api/requests';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import {
  EXPORT_LIMIT,
  TooManyToExport,
  fetchAllRewards,
  type ExportProgress,
} from '../api/export-rewards';
import { formatInteger } from '@/lib/points';

export type ExportState =
  | { kind: 'idle' }
  | { kind: 'running'; progress: ExportProgress | null }
  | { kind: 'done'; filename: string; rows: number }
  | { kind: 'cancelled' }
  | { kind: 'too-many'; total: number }
  | { kind: 'failed'; message: string };

export interface RewardsExport {
  state: ExportState;
  /** Starts an export of the records under `filters` (page and page size are ignored). */
  start: (filters: RewardFilters) => void;
  cancel: () => void;
}

/** `lojaName`: a chain's store's name, for the "Loja" column of a rede's export. */
export function useRewardsExport(lojaName?: (id: number) => string): RewardsExport {
  const [state, setState] = useState<ExportState>({ kind: 'idle' });
  const controller = useRef<AbortController | null>(null);

  // Leaving the screen stops an export in progress.
  useEffect(() => () => controller.current?.abort(), []);

  const run = async (filters: RewardFilters) => {
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
      const { downloadRewardsCsv } = await import('../export-csv');
      if (own.signal.aborted) return;
      const filename = await downloadRewardsCsv(records, filters, new Date(), lojaName);
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

  return {
    state,
    start: (filters) => void run(filters),
    cancel: () => {
      controller.current?.abort();
      controller.current = null;
      setState({ kind: 'cancelled' });
    },
  };
}

/** "Exportar CSV", and "Cancelar exportação" while it runs. */
export function ExportButtons({
  exporter,
  filters,
  enabled,
}: {
  exporter: RewardsExport;
  filters: RewardFilters;
  /** False while there is nothing to export or the filters cannot be sent. */
  enabled: boolean;
}) {
  const startRef = useRef<HTMLButtonElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  // The cancel button takes the focus while the export runs (the start button is disabled)
  // and gives it back when it goes away.
  const running = exporter.state.kind === 'running';
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

  return (
    <div className="flex flex-wrap items-center gap-2">
      <Button
        ref={startRef}
        variant="secondary"
        onClick={() => exporter.start(filters)}
        disabled={!enabled || running}
        busy={running}
      >
        {!running && <span aria-hidden="true">⬇</span>} Exportar CSV
      </Button>
      {running && (
        <Button ref={cancelRef} variant="danger" onClick={exporter.cancel}>
          Cancelar exportação
        </Button>
      )}
    </div>
  );
}

/** Progress, result or problem of the export, across the result's width. */
export function ExportFeedback({ exporter }: { exporter: RewardsExport }) {
  const { state } = exporter;
  const progress = state.kind === 'running' ? state.progress : null;
  return (
    <>
      {/* empty, it takes no room: its negative margin cancels the gap above it */}
      <div role="status" className="text-slate-800 empty:-mt-3">
        {state.kind === 'running' && (
          <div className="flex flex-col gap-1 rounded-lg border border-blue-300 bg-blue-50 p-3">
            <span className="tabular">
              {progress
                ? `Exportando: ${formatInteger(progress.loaded)} de ${formatInteger(progress.total)} prêmios…`
                : 'Exportando: lendo a primeira página…'}
            </span>
            <progress
              aria-label="Progresso da exportação"
              className="h-2.5 w-full appearance-none overflow-hidden rounded-full bg-slate-200 [&::-moz-progress-bar]:bg-blue-700 [&::-webkit-progress-bar]:bg-slate-200 [&::-webkit-progress-value]:bg-blue-700"
              max={progress ? Math.max(1, progress.total) : undefined}
              value={progress ? progress.loaded : undefined}
            />
          </div>
        )}
        {state.kind === 'done' && (
          <p>
            <span aria-hidden="true">✓ </span>
            Arquivo {state.filename} gerado com {formatInteger(state.rows)}{' '}
            {state.rows === 1 ? 'prêmio' : 'prêmios'}.
          </p>
        )}
        {state.kind === 'cancelled' && <p>Exportação cancelada: nenhum arquivo foi gerado.</p>}
      </div>
      {state.kind === 'too-many' && (
        <Alert tone="warning" title="Muitos prêmios para exportar.">
          <p>
            São {formatInteger(state.total)} prêmios com estes filtros; a exportação vai até{' '}
            {formatInteger(EXPORT_LIMIT)}. Restrinja os filtros (um período menor, uma situação ou
            uma categoria) e exporte de novo.
          </p>
        </Alert>
      )}
      {state.kind === 'failed' && (
        <Alert tone="error" title="Não foi possível exportar.">
          <p>{state.message}</p>
        </Alert>
      )}
    </>
  );
}
