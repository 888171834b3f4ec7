import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { wireToDateText } from '@/components/ui/date-field';
import { openModal } from '@/lib/modal';
import type { Ledger } from '#contract/api/postings';
import { fetchLedger, type LedgerEntry, type LedgerQuery } from '@/features/points/api/ledger';
import { LedgerExport } from '@/features/points/components/ledger-export';
import { LedgerFilterBar, useLedgerFilter } from '@/features/points/components/ledger-filter';
import { LedgerTable } from '@/features/points/components/ledger-table';
import { PdvLedger } from '@/features/points/components/pdv-ledger';

/**
 * States not settled yet: the server is sending, checking or waiting for the service, or a
 * manager (maybe on another terminal) has to decide. While any row is in one, the list
 * reloads by itself.
 */
const UNSETTLED: ReadonlySet<LedgerEntry['estado']> = new Set([
  'enviando',
  'verificando',
  'desconhecido',
  'aguardando envio',
  'precisa de atenção',
]);
/** Pause between reloads while some posting is not settled. */
export const LEDGER_REFRESH_MS = 3_000;

/**
 * "Lançamentos do turno": the postings of a day, newest first, anything unsettled on top. A
 * cashier sees today's postings of this terminal; a manager (`manager`) every terminal's,
 * filters by terminal and day, and exports what is listed as a CSV file.
 */
export function LedgerDialog({ onClose, manager }: { onClose: () => void; manager: boolean }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const filter = useLedgerFilter();
  const { query, isToday } = filter;
  const [loaded, setLoaded] = useState<{ query: LedgerQuery; ledger: Ledger } | null>(null);
  const [failed, setFailed] = useState<{ query: LedgerQuery; message: string } | null>(null);
  /** Bumped to reload the same query (a posting still moving, a manager's decision). */
  const [reloads, setReloads] = useState(0);
  /** What a manager's decision did, said in the list's status line. */
  const [notice, setNotice] = useState<string | null>(null);
  const list = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (dialog.current) openModal(dialog.current);
  }, []);

  useEffect(() => {
    const ac = new AbortController();
    fetchLedger(query, ac.signal).then(
      (ledger) => {
        setLoaded({ query, ledger });
        setFailed(null);
      },
      (e: unknown) => {
        if (!ac.signal.aborted)
          setFailed({ query, message: e instanceof Error ? e.message : 'Falha ao carregar.' });
      },
    );
    return () => ac.abort();
  }, [query, reloads]);

  const ledger = loaded?.query === query ? loaded.ledger : null;
  // A failed reload keeps the list shown (the next one may succeed); a failed load says so.
  const error = failed?.query === query && ledger === null ? failed.message : null;
  const moving = ledger?.lancamentos.some((l) => UNSETTLED.has(l.estado)) ?? false;

  // While a posting is not settled (a kept sale waiting for the service, one being checked,
  // one waiting for a manager), the list reloads by itself: it is seen settling in place.
  useEffect(() => {
    if (!moving) return;
    const t = setTimeout(() => setReloads((n) => n + 1), LEDGER_REFRESH_MS);
    return () => clearTimeout(t);
  }, [moving, loaded, failed]);

  const decided = (message: string) => {
    setNotice(message);
    setReloads((n) => n + 1);
    list.current?.focus();
  };
  const stale = loaded !== null && ledger === null; // the previous answer, while the next loads
  const shown = ledger ?? loaded?.ledger ?? null;
  const terminals = shown?.terminais ?? [];
  const allTerminals = manager && query.terminal === null;

  return (
    <dialog
      ref={dialog}
      onClose={onClose}
      aria-labelledby="ledger-title"
      className="m-auto w-[min(72rem,95vw)] rounded-lg border border-slate-300 p-0 shadow-xl backdrop:bg-slate-900/40"
    >
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1 border-b border-slate-200 px-4 py-3">
        <h2 id="ledger-title" className="text-lg font-bold">
          Lançamentos do turno
        </h2>
        <p className="text-sm text-slate-700">
          {isToday ? 'Hoje' : wireToDateText(query.day)}
          {manager &&
            (allTerminals
              ? ', todos os terminais'
              : `, ${terminals.find((t) => t.id === query.terminal)?.nome ?? `terminal ${query.terminal}`}`)}
          , mais recentes primeiro
        </p>
        <Button
          variant="secondary"
          size="sm"
          className="ml-auto"
          onClick={() => dialog.current?.close()}
        >
          Fechar
        </Button>
      </div>
      {manager && (
        <LedgerFilterBar
          filter={filter}
          terminals={terminals}
          className="border-b border-slate-200 bg-slate-50 px-4 py-3"
        >
          <LedgerExport ledger={ledger} query={query} />
        </LedgerFilterBar>
      )}
      {/* A long day scrolls: the region takes focus so the keyboard can scroll it too. */}
      <div
        ref={list}
        className="max-h-[65vh] overflow-auto p-4"
        role="region"
        aria-label="Lista de lançamentos"
        aria-busy={stale || undefined}
        tabIndex={0}
      >
        <p role="status" className="mb-2 text-sm font-medium text-slate-900 empty:hidden">
          {notice}
        </p>
        {error ? (
          <p role="alert" className="text-red-800">
            Não foi possível carregar os lançamentos: {error}
          </p>
        ) : shown === null ? (
          <p role="status">Carregando…</p>
        ) : shown.lancamentos.length === 0 ? (
          <p>{isToday ? 'Nenhum lançamento hoje.' : 'Nenhum lançamento neste dia.'}</p>
        ) : (
          <LedgerTable
            entries={shown.lancamentos}
            allTerminals={allTerminals}
            stale={stale}
            manager={manager}
            onDecided={decided}
          />
        )}
        {shown?.truncado && (
          <p className="mt-2 text-sm text-slate-700">Mostrando os lançamentos mais recentes.</p>
        )}
        <PdvLedger query={query} reloads={reloads} />
      </div>
    </dialog>
  );
}
