// Wire dates are civil São Paulo dates/times as text ("2024-05-01", "2024-05-01 13:45:10").
// They are never passed through `new Date(string)`, which would shift them by the browser's
// timezone; they are split into fields and reformatted.
// Kept here, not a library: text in, text out, São Paulo's "today" by its fixed offset; a date
// library would cost the counter's first load more than these few functions.

export interface WireDateTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const WIRE_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;

function validCivilDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

/** Parses `YYYY-MM-DD` or `YYYY-MM-DD HH:MM:SS`; null when malformed or not a real date/time. */
export function parseWireDateTime(value: string): WireDateTime | null {
  const m = WIRE_RE.exec(value.trim());
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1).map((p) => Number(p ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (!validCivilDate(year, month, day)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  return { year, month, day, hour, minute, second };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** "2024-05-01" or "2024-05-01 13:45:10" → "01/05/2024". Malformed input comes back as is. */
export function formatDate(value: string): string {
  const p = parseWireDateTime(value);
  return p ? `${pad(p.day)}/${pad(p.month)}/${pad(p.year, 4)}` : value;
}

/** "2024-05-01 13:45:10" → "01/05/2024 13:45". Malformed input comes back as is. */
export function formatDateTime(value: string): string {
  const p = parseWireDateTime(value);
  return p
    ? `${pad(p.day)}/${pad(p.month)}/${pad(p.year, 4)} ${pad(p.hour)}:${pad(p.minute)}`
    : value;
}

/** An instant as `dd/mm/aaaa hh:mm` in this terminal's own timezone. */
export function formatLocalDateTime(at: Date): string {
  return `${pad(at.getDate())}/${pad(at.getMonth() + 1)}/${pad(at.getFullYear(), 4)} ${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/** The calendar day of `at` in this terminal's own timezone, as `YYYY-MM-DD`. */
export function localDay(at: Date = new Date()): string {
  return `${pad(at.getFullYear(), 4)}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}

/** True for a real calendar date in `YYYY-MM-DD`: "2024-02-29" yes, "2024-02-30" no. */
export function isRealDate(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && parseWireDateTime(value) !== null;
}

/** Typed "dd/mm/aaaa" → wire "aaaa-mm-dd"; null when not a real date. */
export function brDateToWire(value: string): string | null {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(value.trim());
  if (!m) return null;
  const wire = `${m[3]}-${pad(Number(m[2]))}-${pad(Number(m[1]))}`;
  return isRealDate(wire) ? wire : null;
}

/** São Paulo's offset from UTC: -03:00 all year (Brazil has kept no summer time since 2019). */
const SAO_PAULO_OFFSET_MS = -3 * 60 * 60 * 1000;

/**
 * Today in São Paulo as `YYYY-MM-DD`, whatever the browser's timezone. Written without Intl:
 * a page's first `Intl.DateTimeFormat` with a timeZone costs Chromium ~40 ms while it loads the
 * zone data (×4 on a slow tablet), on the rewards table's first render. A unit test checks it
 * against Intl's America/Sao_Paulo over years, so a return of summer time is caught there.
 */
export function todayInSaoPaulo(now: Date = new Date()): string {
  const local = new Date(now.getTime() + SAO_PAULO_OFFSET_MS);
  return `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}`;
}

/**
 * A moment as São Paulo's "dd/mm/aaaa, hh:mm" (what Intl's pt-BR format prints with day, month,
 * year, hour and minute in America/Sao_Paulo), by the fixed offset, without Intl.
 */
export function formatSaoPauloDateTime(at: Date): string {
  const local = new Date(at.getTime() + SAO_PAULO_OFFSET_MS);
  return (
    `${pad(local.getUTCDate())}/${pad(local.getUTCMonth() + 1)}/${local.getUTCFullYear()}, ` +
    `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}`
  );
}

/** A real date that is not after `today` (both `YYYY-MM-DD`, São Paulo). */
export function isNotFuture(value: string, today: string = todayInSaoPaulo()): boolean {
  return isRealDate(value.slice(0, 10)) && value.slice(0, 10) <= today;
}

function dayNumber(value: string): number | null {
  const p = parseWireDateTime(value);
  return p ? Date.UTC(p.year, p.month - 1, p.day) / 86_400_000 : null;
}

/**
 * Whole calendar days from `today` to the date part of `value` (0 = today, 1 = tomorrow,
 * negative = past). NaN when either is malformed.
 */
export function daysUntil(value: string, today: string = todayInSaoPaulo()): number {
  const a = dayNumber(today);
  const b = dayNumber(value);
  return a === null || b === null ? Number.NaN : b - a;
}
