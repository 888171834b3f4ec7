import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { formatBRL } from '@/lib/money';
import { maskPhone } from '@/lib/phone';
import { fetchLedger, type Ledger, type LedgerEntry } from '@/features/points/api/ledger';

const STATE_LABEL: Record<LedgerEntry['estado'], string> = {
  lançado: 'Lançado',
  recusado: 'Não lançado',
  enviando: 'Enviando',
  verificando: 'Conferindo',
  desconhecido: 'Desconhecido',
};

const WHAT_TO_DO: Partial<Record<LedgerEntry['estado'], string>> = {
  enviando: 'Aguarde: o servidor ainda está enviando. Não lance de novo.',
  verificando: 'Aguarde: o servidor está conferindo no cadastro. Não lance de novo.',
  desconhecido:
    'Não lance de novo: o servidor confere sozinho. Se persistir, confira o histórico do cliente.',
};

const time = new Intl.DateTimeFormat('pt-BR', {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** "Lançamentos do turno": the postings of today, newest first, anything unsettled on top. */
export function LedgerDialog({ onClose }: { onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [ledger, setLedger] = useState<Ledger | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    dialog.current?.showModal();
    const ac = new AbortController();
    fetchLedger(new Date(), ac.signal).then(setLedger, (e: unknown) => {
      if (!ac.signal.aborted) setError(e instanceof Error ? e.message : 'Falha ao carregar.');
    });
    return () => ac.abort();
  }, []);

  return (
    <dialog
      ref={dialog}
      onClose={onClose}
      aria-labelledby="ledger-title"
      className="m-auto w-[min(64rem,95vw)] rounded-lg border border-slate-300 p-0 shadow-xl backdrop:bg-slate-900/40"
    >
      <div className="flex items-center gap-4 border-b border-slate-200 px-4 py-3">
        <h2 id="ledger-title" className="text-lg font-bold">
          Lançamentos do turno
        </h2>
        <p className="text-sm text-slate-700">Hoje, mais recentes primeiro</p>
        <Button
          variant="secondary"
          size="sm"
          className="ml-auto"
          onClick={() => dialog.current?.close()}
        >
          Fechar
        </Button>
      </div>
      {/* A long day scrolls: the region takes focus so the keyboard can scroll it too. */}
      <div
        className="max-h-[70vh] overflow-auto p-4"
        role="region"
        aria-label="Lista de lançamentos"
        tabIndex={0}
      >
        {error ? (
          <p role="alert" className="text-red-800">
            Não foi possível carregar os lançamentos: {error}
          </p>
        ) : ledger === null ? (
          <p role="status">Carregando…</p>
        ) : ledger.lancamentos.length === 0 ? (
          <p>Nenhum lançamento hoje.</p>
        ) : (
          <table className="w-full text-left text-sm">
            <thead>
              <tr className="border-b border-slate-300 text-slate-700">
                <th className="py-1 pr-3 font-semibold">Hora</th>
                <th className="py-1 pr-3 font-semibold">Cliente</th>
                <th className="py-1 pr-3 text-right font-semibold">Valor</th>
                <th className="py-1 pr-3 text-right font-semibold">Pontos</th>
                <th className="py-1 font-semibold">Situação</th>
              </tr>
            </thead>
            <tbody>
              {ledger.lancamentos.map((l) => (
                <tr key={l.chave} className="border-b border-slate-200 align-top">
                  <td className="tabular py-1.5 pr-3">{time.format(new Date(l.criado_em))}</td>
                  <td className="py-1.5 pr-3">
                    <span className="tabular">{maskPhone(l.celular)}</span>
                    {l.nome && <span className="block text-slate-700">{l.nome}</span>}
                  </td>
                  <td className="tabular py-1.5 pr-3 text-right">{formatBRL(l.valor_gasto)}</td>
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
                      {STATE_LABEL[l.estado]}
                    </strong>
                    {(WHAT_TO_DO[l.estado] ?? (l.estado === 'recusado' ? l.motivo : null)) && (
                      <span className="block text-slate-700">
                        {WHAT_TO_DO[l.estado] ?? l.motivo}
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {ledger?.truncado && (
          <p className="mt-2 text-sm text-slate-700">Mostrando os lançamentos mais recentes.</p>
        )}
      </div>
    </dialog>
  );
}
