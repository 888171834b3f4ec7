// What the manager's pages' queries share about days and time zones: a calendar date
// `YYYY-MM-DD` that exists, and the browser's offset from UTC in minutes (`fuso`), with the
// messages a bad one gets. Pure: zod/mini.
import * as z from 'zod/mini';

export const DATE_MESSAGE = 'Informe a data no formato AAAA-MM-DD.';
export const OFFSET_MESSAGE = 'Fuso inválido.';
export const DAY_MS = 86_400_000;

/** Whether `s` is `YYYY-MM-DD` and that day exists (no 2026-02-30). */
export function isCalendarDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const t = Date.parse(`${s}T00:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === s;
}

/** A calendar date in text that exists. */
export const calendarDate = () =>
  z.string({ error: DATE_MESSAGE }).check(z.refine(isCalendarDate, { error: DATE_MESSAGE }));

/** An offset from UTC in whole minutes, within ±14 h. */
export const offsetMinutes = () =>
  z
    .number({ error: OFFSET_MESSAGE })
    .check(
      z.int({ error: OFFSET_MESSAGE }),
      z.gte(-14 * 60, { error: OFFSET_MESSAGE }),
      z.lte(14 * 60, { error: OFFSET_MESSAGE }),
    );
