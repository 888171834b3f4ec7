// Small statistics and formatting helpers for the benchmark.

export interface Summary {
  n: number;
  median: number;
  p95: number;
  mean: number;
  min: number;
  max: number;
}

/** Quantile `q` (0…1) of ascending `sorted` samples, linear between closest ranks. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) throw new Error('quantile of no samples');
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  const a = sorted[lo] ?? Number.NaN;
  const b = sorted[hi] ?? Number.NaN;
  return a + (b - a) * (pos - lo);
}

export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((x, y) => x - y);
  const sum = sorted.reduce((acc, x) => acc + x, 0);
  return {
    n: sorted.length,
    median: quantile(sorted, 0.5),
    p95: quantile(sorted, 0.95),
    mean: sum / sorted.length,
    min: sorted[0] ?? Number.NaN,
    max: sorted[sorted.length - 1] ?? Number.NaN,
  };
}

export function median(samples: readonly number[]): number {
  return summarize(samples).median;
}

/** Milliseconds with a precision that suits sub-millisecond figures. */
export function ms(value: number): string {
  return value < 10 ? value.toFixed(3) : value.toFixed(1);
}

/** Bytes as decimal kilobytes (1 KB = 1000 bytes), the unit every size target here uses. */
export function kb(bytes: number): string {
  return `${(bytes / 1000).toFixed(1)} KB`;
}

export function pct(ratio: number): string {
  return `${(ratio * 100).toFixed(1)}%`;
}

/** A plain text table: the first `textColumns` columns left-aligned, the figures right-aligned. */
export function table(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  textColumns = 1,
): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, i) => {
        const w = widths[i] ?? 0;
        return i < textColumns ? cell.padEnd(w) : cell.padStart(w);
      })
      .join('  ')
      .trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [line(headers), rule, ...rows.map(line)].join('\n');
}
