// Dates and times of the loyalty service. Instants are kept as epoch milliseconds; every
// date or timestamp a person sees is America/Sao_Paulo local time. Offsets always come from
// Intl (the tz database), never from a hand-written "-03:00".

export const TIME_ZONE = 'America/Sao_Paulo';
export const DAY_MS = 86_400_000;

export interface LocalParts {
  year: number;
  month: number; // 1-12
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const partsFormat = new Intl.DateTimeFormat('en-US', {
  timeZone: TIME_ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
});

/** Wall-clock parts of an instant in São Paulo, from Intl (slow: ~5 µs a call). */
function intlParts(ms: number): LocalParts {
  const out: LocalParts = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };
  for (const p of partsFormat.formatToParts(new Date(ms))) {
    if (p.type in out) out[p.type as keyof LocalParts] = Number(p.value);
  }
  return out;
}

const HOUR_MS = 3_600_000;

/** Offset (local − UTC, whole seconds) at an instant, from Intl. */
function intlOffset(ms: number): number {
  const p = intlParts(ms);
  return utc(p.year, p.month, p.day, p.hour, p.minute, p.second) - Math.floor(ms / 1000) * 1000;
}

/**
 * UTC hour → São Paulo offset during that whole hour, for the hours whose first and last
 * millisecond have the same offset (every hour but those holding a change of offset, which
 * are asked of Intl each time). Changes are months apart, so an hour holds at most one.
 */
const hourOffsets = new Map<number, number>();

function offsetOf(ms: number): number {
  const hour = Math.floor(ms / HOUR_MS);
  const known = hourOffsets.get(hour);
  if (known !== undefined) return known;
  const first = intlOffset(hour * HOUR_MS);
  if (first !== intlOffset(hour * HOUR_MS + HOUR_MS - 1)) return intlOffset(ms);
  if (hourOffsets.size >= 50_000) hourOffsets.clear();
  hourOffsets.set(hour, first);
  return first;
}

/** Wall-clock parts of an instant in São Paulo. */
export function localParts(ms: number): LocalParts {
  const t = new Date(Math.floor(ms / 1000) * 1000 + offsetOf(ms));
  return {
    year: t.getUTCFullYear(),
    month: t.getUTCMonth() + 1,
    day: t.getUTCDate(),
    hour: t.getUTCHours(),
    minute: t.getUTCMinutes(),
    second: t.getUTCSeconds(),
  };
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** A wall-clock time's fields, month 1–12, fields may overflow; a time left out is 0. */
type WallTime = [
  year: number,
  month: number,
  day: number,
  hour?: number,
  minute?: number,
  second?: number,
];

/** Date.UTC without its mapping of years 0–99 to 1900–1999. */
function utc(
  ...[year, month, day, hour = 0, minute = 0, second = 0, ms = 0]: [...WallTime, ms?: number]
): number {
  const t = new Date(0);
  t.setUTCFullYear(year, month - 1, day);
  t.setUTCHours(hour, minute, second, ms);
  return t.getTime();
}

/** `YYYY-MM-DD HH:MM:SS` in São Paulo. */
export function formatTimestamp(ms: number): string {
  const p = localParts(ms);
  return `${formatYmd(p.year, p.month, p.day)} ${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}`;
}

/** `YYYY-MM-DD`, the São Paulo calendar day of an instant. */
export function localDate(ms: number): string {
  const p = localParts(ms);
  return formatYmd(p.year, p.month, p.day);
}

/** Parses `YYYY-MM-DD` into its numbers when it names a real calendar day, else null. */
export function parseDate(value: string): { year: number; month: number; day: number } | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return null;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    return null;
  }
  return { year, month, day };
}

export function daysInMonth(year: number, month: number): number {
  return new Date(utc(year, month + 1, 0)).getUTCDate();
}

function formatYmd(year: number, month: number, day: number): string {
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

/** Calendar arithmetic on a `YYYY-MM-DD` string (no time zone involved). */
export function addDays(date: string, days: number): string {
  const d = parseDate(date);
  if (!d) throw new RangeError(`not a date: ${date}`);
  const t = new Date(utc(d.year, d.month, d.day + days));
  return formatYmd(t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate());
}

/** Offset of São Paulo from UTC at an instant, in ms (local = utc + offset). */
function offsetAt(ms: number): number {
  return offsetOf(ms);
}

/**
 * The instant at which São Paulo's clock shows the given wall time. For a wall time that
 * did not exist (old daylight-saving jumps) it returns the first instant after the gap.
 */
export function zonedInstant(...time: WallTime): number {
  const wall = utc(...time);
  let guess = wall - offsetAt(wall);
  const second_ = wall - offsetAt(guess);
  if (second_ !== guess) guess = Math.max(guess, second_);
  return guess;
}

/** First instant of a São Paulo calendar day. */
export function startOfLocalDay(date: string): number {
  const d = parseDate(date);
  if (!d) throw new RangeError(`not a date: ${date}`);
  return zonedInstant(d.year, d.month, d.day);
}

/** The next midnight in São Paulo strictly after the instant's calendar day began. */
export function nextLocalMidnight(ms: number): number {
  return startOfLocalDay(addDays(localDate(ms), 1));
}

/** Last day of the month, 12 months after the posting (São Paulo calendar). */
export function creditValidity(postedAtMs: number): string {
  const p = localParts(postedAtMs);
  const year = p.year + 1;
  return formatYmd(year, p.month, daysInMonth(year, p.month));
}

/** A credit is valid through its whole `data_validade` day; this is the first instant it is not. */
export function creditExpiresAt(dataValidade: string): number {
  return startOfNextLocalDay(dataValidade);
}

/** First instant after a São Paulo calendar day (the exclusive end of a whole-day filter). */
export function startOfNextLocalDay(date: string): number {
  const d = parseDate(date);
  if (!d) throw new RangeError(`not a date: ${date}`);
  return zonedInstant(d.year, d.month, d.day + 1);
}

/** `valido_ate` of a reward won at an instant: 30 days later, 23:59:59 São Paulo. */
export function rewardValidUntil(wonAtMs: number): number {
  const d = parseDate(addDays(localDate(wonAtMs), 30));
  if (!d) throw new RangeError('unreachable');
  return zonedInstant(d.year, d.month, d.day, 23, 59, 59);
}

/** A reward is past `valido_ate` once that whole second has gone by. */
export function isPastValidity(validUntilMs: number, nowMs: number): boolean {
  return nowMs >= validUntilMs + 1000;
}

/** The moments `x-sandbox-now` may name (validity dates stay four-digit years). */
export const MIN_NOW_YEAR = 1970;
export const MAX_NOW_YEAR = 2999;

const ISO_WITH_ZONE =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))$/;

/**
 * Parses the `x-sandbox-now` header: ISO 8601 with `Z` or an explicit offset, e.g.
 * `2026-11-23T09:00:00-03:00`. Returns epoch ms, or null when the text is not such a moment.
 */
export function parseInstant(value: string): number | null {
  const m = ISO_WITH_ZONE.exec(value.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac, z, sign, oh, om] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = s === undefined ? 0 : Number(s);
  if (!parseDate(`${y}-${mo}-${d}`) || year < MIN_NOW_YEAR || year > MAX_NOW_YEAR) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  let offsetMin = 0;
  if (!z) {
    const offH = Number(oh);
    const offM = Number(om);
    if (offH > 23 || offM > 59) return null;
    offsetMin = (sign === '-' ? -1 : 1) * (offH * 60 + offM);
  }
  const millis = frac === undefined ? 0 : Number(frac.slice(0, 3).padEnd(3, '0'));
  const ms = utc(year, month, day, hour, minute, second, millis) - offsetMin * 60_000;
  return Number.isFinite(ms) ? ms : null;
}
