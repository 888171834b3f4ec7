import type { ReactNode } from 'react';
import { FitTable, type FitColumn } from '@/components/ui/fit-table';
import type { LedgerEntry } from '@/features/points/api/ledger';
import { LEDGER_KIND_LABELS, ledgerStateLabel } from '@/features/points/ledger-labels';
import { AttentionActions } from '@/features/points/components/attention-actions';
import { formatBRL } from '@/lib/money';
import { maskPhone } from '@/lib/phone';

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

// Built on first use, not when the chunk loads (the counter fetches it while idle, and a
// page's first Intl formatter costs tens of milliseconds).
let time: Intl.DateTimeFormat | undefined;
const formatTime = (at: Date) =>
  (time ??= new Intl.DateTimeFormat('pt-BR', {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  })).format(at);

const stateTone = (l: LedgerEntry) =>
  l.estado === 'lançado'
    ? 'text-green-800'
    : l.estado === 'recusado'
      ? 'text-red-800'
      : 'text-amber-800';

/**
 * The rows of "Lançamentos do turno": time, terminal (when all are listed), customer, kind,
 * amount, points and state, with what to do about a state and, for a manager, the decision
 * on a posting that needs attention. A table where it fits; on a phone, a card a row.
 */
export function LedgerTable({
  entries,
  allTerminals,
  stale,
  manager,
  onDecided,
  lojaOf = null,
}: {
  entries: readonly LedgerEntry[];
  /** Each posting's store, in a first "Loja" column (a rede's every-store ledger). */
  lojaOf?: ((l: LedgerEntry) => string) | null;
  allTerminals: boolean;
  stale: boolean;
  manager: boolean;
  onDecided: (message: string) => void;
}) {
  const columns: (FitColumn & { value: (l: LedgerEntry) => ReactNode })[] = [
    ...(lojaOf ? [{ header: 'Loja', value: lojaOf }] : []),
    {
      header: 'Hora',
      cell: 'tabular whitespace-nowrap',
      value: (l) => formatTime(new Date(l.criado_em)),
    },
    ...(allTerminals
      ? [{ header: 'Terminal', value: (l: LedgerEntry) => l.terminal_nome ?? l.terminal ?? '—' }]
      : []),
    {
      header: 'Cliente',
      value: (l) => (
        <>
          {l.celular && <span className="tabular">{maskPhone(l.celular)}</span>}
          {l.nome && <span className="block text-slate-700">{l.nome}</span>}
        </>
      ),
    },
    {
      header: 'Tipo',
      value: (l) => (
        <>
          {LEDGER_KIND_LABELS[l.tipo]}
          {l.tipo === 'premio' && l.premio?.nome && (
            <span className="block font-semibold">{l.premio.nome}</span>
          )}
        </>
      ),
    },
    {
      header: 'Valor',
      numeric: true,
      cell: 'whitespace-nowrap',
      value: (l) => (l.tipo === 'premio' ? '—' : formatBRL(l.valor_gasto)),
    },
    { header: 'Pontos', numeric: true, value: (l) => l.pontos ?? '—' },
    {
      header: 'Situação',
      value: (l) => (
        <>
          <strong className={stateTone(l)}>{ledgerStateLabel(l)}</strong>
          {whatToDo(l) && <span className="block text-slate-700">{whatToDo(l)}</span>}
          {l.estado === 'precisa de atenção' &&
            (manager ? (
              <AttentionActions entry={l} onDone={onDecided} />
            ) : (
              <span className="block font-medium text-slate-900">
                Peça ao gerente: ele corrige a senha e reenvia a venda, ou a descarta.
              </span>
            ))}
        </>
      ),
    },
  ];
  return (
    <FitTable
      label="Lançamentos"
      columns={columns}
      rows={entries.map((l) => ({ key: l.chave, cells: columns.map((c) => c.value(l)) }))}
      rowHeader={lojaOf ? 1 : 0}
      cards="text"
      className={stale ? 'opacity-60' : ''}
    />
  );
}
