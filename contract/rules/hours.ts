// A store's opening hours as a manager types them, `HH:MM` (24 h), and as the rules keep them:
// minutes from midnight. Vigilância's rule 6 (`fora_do_horario`) reads and writes its
// `abre`/`fecha` this way; a closing before the opening spans midnight (18:00–02:00).
// Pure, shared by the server and the browser.

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Minutes from midnight of `HH:MM` (00:00 … 23:59), or null when it is not one. */
export function minutesOf(text: string): number | null {
  const m = HHMM.exec(text.trim());
  return m === null ? null : Number(m[1]) * 60 + Number(m[2]);
}

/** `HH:MM` of minutes from midnight (1440, the end of the day, reads 00:00). */
export function hhmm(minutes: number): string {
  const m = ((Math.trunc(minutes) % 1440) + 1440) % 1440;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

/** The wire's names of rule 6's hours and the thresholds (minutes) they are kept as. */
export const HOURS_PARAMS = { abre: 'abre_min', fecha: 'fecha_min' } as const;
