// How Vigilância reads for a person: the alerts' states, a day and an instant in this
// terminal's words.
import type { AlertState } from '#contract/api/vigilancia';

export const STATE_LABELS: Record<AlertState, string> = {
  aberto: 'Aberto',
  reconhecido: 'Reconhecido',
  descartado: 'Descartado',
};

/** `dd/mm/aaaa` of `YYYY-MM-DD`. */
export const dayText = (day: string) => day.split('-').reverse().join('/');

/** `dd/mm/aaaa hh:mm` of an ISO instant, in this terminal's timezone. */
export function whenText(iso: string): string {
  const d = new Date(iso);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getDate())}/${p(d.getMonth() + 1)}/${d.getFullYear()} ${p(d.getHours())}:${p(d.getMinutes())}`;
}
