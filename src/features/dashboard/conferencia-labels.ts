// How the conferência's findings read on the screen and in its CSV.
import type { AchadoTipo } from '@/api/contract/conferencia';

export const ACHADO_LABELS: Record<AchadoTipo, string> = {
  ausente: 'Ausente no serviço',
  duplicado: 'Creditado duas vezes',
  pontos_divergentes: 'Pontos diferentes',
  nao_conferido: 'Não conferido',
  nao_lancado_por_nos: 'Crédito sem lançamento nosso (informativo)',
};
