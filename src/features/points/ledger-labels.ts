import type { LedgerEntry } from './api/ledger';

/** A posting's state as the ledger's screen and file say it. */
export const LEDGER_STATE_LABELS: Record<LedgerEntry['estado'], string> = {
  lançado: 'Lançado',
  recusado: 'Não lançado',
  enviando: 'Enviando',
  verificando: 'Conferindo',
  desconhecido: 'Desconhecido',
  'aguardando envio': 'Aguardando envio',
  'precisa de atenção': 'Precisa de atenção',
  descartado: 'Descartado',
};

/** What an entry is, as the ledger's screen and file say it. */
export const LEDGER_KIND_LABELS: Record<LedgerEntry['tipo'], string> = {
  pontos: 'Pontos',
  premio: 'Prêmio entregue',
};

/** A hand-over's state in its own words ("Entregue"); a posting's as above. */
export function ledgerStateLabel(l: Pick<LedgerEntry, 'tipo' | 'estado'>): string {
  if (l.tipo === 'premio') {
    if (l.estado === 'lançado') return 'Entregue';
    if (l.estado === 'recusado') return 'Não entregue';
  }
  return LEDGER_STATE_LABELS[l.estado];
}
