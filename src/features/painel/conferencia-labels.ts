// How the conferência's findings read on the screen and in its CSV.
import type { AchadoTipo, Conferencia } from '#contract/api/conferencia';

export const ACHADO_LABELS: Record<AchadoTipo, string> = {
  ausente: 'Ausente no serviço',
  duplicado: 'Creditado duas vezes',
  pontos_divergentes: 'Pontos diferentes',
  nao_conferido: 'Não conferido',
  nao_lancado_por_nos: 'Crédito sem lançamento nosso (informativo)',
};

/**
 * How the run started, after its time: a manager's says nothing more; a nightly one says
 * whether it ran at the nightly hour or caught up on a night without one (the server started
 * after the hour, or missed it).
 */
export function runOrigin(c: Pick<NonNullable<Conferencia>, 'origem' | 'disparo'>): string {
  if (c.origem === 'gerente') return '';
  switch (c.disparo) {
    case 'no_horario':
      return ' (automática, à noite)';
    case 'ao_iniciar':
      return ' (automática, ao iniciar o servidor: a da noite não tinha rodado)';
    case 'atrasada':
      return ' (automática, atrasada: a da noite não tinha rodado)';
    default:
      return ' (automática)';
  }
}
