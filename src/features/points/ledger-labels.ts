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
