// What `npm run bench` reports: figures measured once per run, the pass/fail targets, and the
// figures of this build beside the previous release's, measured in the same runs.

import { median, ms, summarize, table } from './stats';

/** A figure of the bench's final table: a value per run. */
export interface Figure {
  name: string;
  unit: string;
  values: number[];
  target: string;
}

/** A pass/fail target of the summary. */
export interface Check {
  name: string;
  figure: string;
  target: string;
  pass: boolean;
}

export const fmt = (v: number, unit: string): string =>
  unit === 'ms'
    ? ms(v)
    : unit === 'KB'
      ? (v / 1000).toFixed(1)
      : unit === 'x'
        ? v.toFixed(2)
        : v.toFixed(0);

/** min / median / max of the runs. */
export function spread(values: readonly number[], unit: string): string {
  if (values.length === 0) return '—';
  const s = summarize(values);
  return values.length === 1
    ? fmt(s.median, unit)
    : `${fmt(s.min, unit)} / ${fmt(s.median, unit)} / ${fmt(s.max, unit)}`;
}

/** One figure measured on both builds in the same runs: a value per run each. */
export interface Compared {
  name: string;
  unit: string;
  current: number[];
  previous: number[];
  /** Whether "lower than before" means anything (not for a floor such as a bare <input>). */
  better: 'lower' | null;
}

/** "yes" when this build's median over the runs is lower than the previous release's. */
export function lowerThanBefore(c: Compared): boolean | null {
  if (c.better === null || c.current.length === 0 || c.previous.length === 0) return null;
  return median(c.current) < median(c.previous);
}

/** The comparison table: min / median / max of each build, and whether the figure went down. */
export function comparisonTable(rows: readonly Compared[], previousLabel: string): string {
  return table(
    ['figure', 'unit', previousLabel, 'this build', 'lower than before'],
    rows.map((c) => {
      const lower = lowerThanBefore(c);
      return [
        c.name,
        c.unit,
        spread(c.previous, c.unit),
        spread(c.current, c.unit),
        lower === null ? '—' : lower ? 'yes' : 'no',
      ];
    }),
    2,
  );
}
