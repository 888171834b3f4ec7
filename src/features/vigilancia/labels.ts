// How Vigilância reads for a person: the alerts' states, a day and an instant in the store's
// time (São Paulo), as the dashboard's summary shows them, whatever this terminal's clock zone.
import type { AlertState } from '#contract/api/vigilancia';
import { formatSaoPauloDateTime } from '@/lib/dates';

export const STATE_LABELS: Record<AlertState, string> = {
  aberto: 'Aberto',
  reconhecido: 'Reconhecido',
  descartado: 'Descartado',
};

/** `dd/mm/aaaa` of `YYYY-MM-DD`. */
export const dayText = (day: string) => day.split('-').reverse().join('/');

/** `dd/mm/aaaa hh:mm` of an ISO instant, in São Paulo's time. */
export const whenText = (iso: string): string =>
  formatSaoPauloDateTime(new Date(iso)).replace(', ', ' ');
