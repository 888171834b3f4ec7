import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { DateField, dateTextToWire, wireToDateText } from '@/components/ui/date-field';
import { SelectField } from '@/components/ui/field';
import { localDay } from '@/lib/dates';
import { openModal } from '@/lib/modal';
import { formatBRL } from '@/lib/money';
import { maskPhone } from '@/lib/phone';
import type { Ledger } from '#contract/api/postings';
import { fetchLedger, type LedgerEntry, type LedgerQuery } from '@/features/points/api/ledger';
import { LEDGER_KIND_LABELS, ledgerStateLabel } from '@/features/points/ledger-labels';
import { AttentionActions } from '@/features/points/components/attention-actions';
import { PdvLedger } from '@/features/points/components/pdv-ledger';
import { formatInteger } from '@/lib/points';

const WHAT_TO_DO: Partial<Record<LedgerEntry['estado'], string>> = {
  enviando: 'Aguarde: o servidor ainda está enviando. Não lance de novo.',
  verificando: 'Aguarde: o servidor está conferindo no cadastro. Não lance de novo.',
  desconhecido:
    'Não lance de novo: o servidor confere sozinho. Se persistir, confira o histórico do cliente.',
  'aguardando envio': 'Guardado: será lançado quando o serviço voltar. Não lance de novo.',
};
/** The same for a reward being handed over. */
const WHAT_TO_DO_HAND_OVER: Partial<Record<LedgerEntry['estado'], string>> = {
  enviando: 'Aguarde: o servidor ainda está enviando. Não entregue de novo.',
  verificando: 'Aguarde: o servidor está conferindo nos prêmios do cliente. Não entregue de novo.',
  desconhecido: 'Não entregue de novo: o servidor confere sozinho.',
};
const whatToDo = (l: LedgerEntry) =>
  (l.tipo === 'premio' ? WHAT_TO_DO_HAND_OVER : WHAT_TO_DO)[l.estado] ??
  (l.estado !== 'lançado' ? l.motivo : null);

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

// Built on first use, not when the chunk loads (the counter fetches it while idle, and a
// page's first Intl formatter costs tens of milliseconds).
let time: Intl.DateTimeFormat | undefined;
const formatTime = (at: Date) =>
  (time ??= new Intl.DateTimeFormat('pt-BR', {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  })).format(at);

type Exported =
  { kind: 'done'; filename: string; rows: number } | { kind: 'failed'; message: string } | null;

/**
 * "Lançamentos do turno": the postings of a day, newest first, anything unsettled on top. A
 * cashier sees today's postings of this terminal; a manager (`manager`) every terminal's,
 * filters by terminal and day, and exports what is listed as a CSV file.
 */
export function LedgerDialog({ onClose, manager }: { onClose: () => void; manager: boolean }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [today] = useState(localDay);
  const [dayText, setDayText] = useState(() => wireToDateText(today));
  const [query, setQuery] = useState<LedgerQuery>({ day: today, terminal: null });
  const [loaded, setLoaded] = useState<{ query: LedgerQuery; ledger: Ledger } | null>(null);
  const [failed, setFailed] = useState<{ query: LedgerQuery; message: string } | null>(null);
  /** Bumped to reload the same query (a posting still moving, a manager's decision). */
  const [reloads, setReloads] = useState(0);
  /** What a manager's decision did, said in the list's status line. */
  const [notice, setNotice] = useState<string | null>(null);
  const list = useRef<HTMLDivElement>(null);
  const [exported, setExported] = useState<Exported>(null);
  const [exporting, setExporting] = useState(false);

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

  const changeQuery = (next: LedgerQuery) => {
    setExported(null);
    setQuery(next);
  };
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
  const isToday = query.day === today;

  const exportCsv = async () => {
    if (!ledger) return;
    setExporting(true);
    try {
      const { downloadLedgerCsv } = await import('@/features/points/ledger-csv');
      const filename = await downloadLedgerCsv(ledger.lancamentos, query);
      setExported({ kind: 'done', filename, rows: ledger.lancamentos.length });
    } catch (e) {
      setExported({
        kind: 'failed',
        message: e instanceof Error ? e.message : 'Erro desconhecido.',
      });
    } finally {
      setExporting(false);
    }
  };

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
        <div className="flex flex-wrap items-start gap-x-4 gap-y-2 border-b border-slate-200 bg-slate-50 px-4 py-3">
          <DateField
            label="Dia"
            className="w-40"
            value={dayText}
            onValueChange={(text) => {
              setDayText(text);
              const day = dateTextToWire(text);
              if (day) changeQuery({ ...query, day });
            }}
          />
          <SelectField
            label="Terminal"
            className="min-w-48"
            value={query.terminal ?? ''}
            onChange={(e) => changeQuery({ ...query, terminal: e.target.value || null })}
          >
            <option value="">Todos os terminais</option>
            {terminals.map((t) => (
              <option key={t.id} value={t.id}>
                {t.nome}
              </option>
            ))}
          </SelectField>
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
        </div>
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
          <table className={`w-full text-left text-sm ${stale ? 'opacity-60' : ''}`}>
            <thead>
              <tr className="border-b border-slate-300 text-slate-700">
                <th className="py-1 pr-3 font-semibold">Hora</th>
                {allTerminals && <th className="py-1 pr-3 font-semibold">Terminal</th>}
                <th className="py-1 pr-3 font-semibold">Cliente</th>
                <th className="py-1 pr-3 font-semibold">Tipo</th>
                <th className="py-1 pr-3 text-right font-semibold">Valor</th>
                <th className="py-1 pr-3 text-right font-semibold">Pontos</th>
                <th className="py-1 font-semibold">Situação</th>
              </tr>
            </thead>
            <tbody>
              {shown.lancamentos.map((l) => (
                <tr key={l.chave} className="border-b border-slate-200 align-top">
                  <td className="tabular py-1.5 pr-3">{formatTime(new Date(l.criado_em))}</td>
                  {allTerminals && (
                    <td className="py-1.5 pr-3">{l.terminal_nome ?? l.terminal ?? '—'}</td>
                  )}
                  <td className="py-1.5 pr-3">
                    {l.celular && <span className="tabular">{maskPhone(l.celular)}</span>}
                    {l.nome && <span className="block text-slate-700">{l.nome}</span>}
                  </td>
                  <td className="py-1.5 pr-3">
                    {LEDGER_KIND_LABELS[l.tipo]}
                    {l.tipo === 'premio' && l.premio?.nome && (
                      <span className="block font-semibold">{l.premio.nome}</span>
                    )}
                  </td>
                  <td className="tabular whitespace-nowrap py-1.5 pr-3 text-right">
                    {l.tipo === 'premio' ? '—' : formatBRL(l.valor_gasto)}
                  </td>
                  <td className="tabular py-1.5 pr-3 text-right">{l.pontos ?? '—'}</td>
                  <td className="py-1.5">
                    <strong
                      className={
                        l.estado === 'lançado'
                          ? 'text-green-800'
                          : l.estado === 'recusado'
                            ? 'text-red-800'
                            : 'text-amber-800'
                      }
                    >
                      {ledgerStateLabel(l)}
                    </strong>
                    {whatToDo(l) && <span className="block text-slate-700">{whatToDo(l)}</span>}
                    {l.estado === 'precisa de atenção' &&
                      (manager ? (
                        <AttentionActions entry={l} onDone={decided} />
                      ) : (
                        <span className="block font-medium text-slate-900">
                          Peça ao gerente: ele corrige a senha e reenvia a venda, ou a descarta.
                        </span>
                      ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {shown?.truncado && (
          <p className="mt-2 text-sm text-slate-700">Mostrando os lançamentos mais recentes.</p>
        )}
        <PdvLedger query={query} reloads={reloads} />
      </div>
    </dialog>
  );
}
