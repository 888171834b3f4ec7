// The few date helpers the reward table needs: wire dates are São Paulo civil dates/times as
// text ("2026-11-21", "2026-11-21 14:00:00"), reformatted as text, never through `new Date`.
//
// Why not `@/lib/dates` (same rules, and wire-dates.test.ts checks both agree): the counter's
// lazy chunk imports that module too, and a module two lazy routes share becomes a chunk of
// its own, for which Vite adds a preload map to the entry chunk, i.e. ~130 B gzip to the
// counter's first load, which this route must not grow.

const WIRE = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;

interface Parts {
  date: string;
  time: string | null;
}

function parse(value: string): Parts | null {
  const m = WIRE.exec(value.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s] = m as unknown as [string, string, string, string, ...string[]];
  const utc = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  const real =
    utc.getUTCFullYear() === Number(y) &&
    utc.getUTCMonth() === Number(mo) - 1 &&
    utc.getUTCDate() === Number(d);
  if (!real || Number(h ?? 0) > 23 || Number(mi ?? 0) > 59 || Number(s ?? 0) > 59) return null;
  return { date: `${d}/${mo}/${y}`, time: h === undefined ? null : `${h}:${mi}` };
}

/** "2026-11-21" or "2026-11-21 14:00:00" → "21/11/2026". Malformed input comes back as is. */
export const formatWireDate = (value: string): string => parse(value)?.date ?? value;

/** "2026-11-21 14:00:00" → "21/11/2026 14:00". Malformed input comes back as is. */
export function formatWireDateTime(value: string): string {
  const p = parse(value);
  return p ? `${p.date} ${p.time ?? '00:00'}` : value;
}

/** A real calendar date written `YYYY-MM-DD`: "2024-02-29" yes, "2026-02-30" no. */
export const isWireDate = (value: string): boolean =>
  /^\d{4}-\d{2}-\d{2}$/.test(value) && parse(value) !== null;
