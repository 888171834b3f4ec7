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

/** A repeatable stream of numbers in [0, 1) from `seed`: the same rows on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}

/** The median, 95th percentile and slowest of some timings (ms). */
export interface Percentiles {
  p50: number;
  p95: number;
  max: number;
}

export function percentiles(samples: readonly number[]): Percentiles {
  const sorted = [...samples].sort((x, y) => x - y);
  return {
    p50: quantile(sorted, 0.5),
    p95: quantile(sorted, 0.95),
    max: sorted[sorted.length - 1] ?? Number.NaN,
  };
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

/** A table of timings: each row's label, then its median, p95 and mean. */
export function latencyTable(rows: readonly (readonly [string, Summary])[]): string {
  return table(
    ['path', 'median ms', 'p95 ms', 'mean ms'],
    rows.map(([label, s]) => [label, ms(s.median), ms(s.p95), ms(s.mean)]),
  );
}

/**
 * Times `a` and `b` (each called with whether it is a warm-up): `warmup` of each, then
 * `rounds` rounds that alternate which goes first, so neither always follows the other, and
 * run `afterRound` after each. Each one's timings, paired by round.
 */
export async function interleaved(
  a: (warmUp: boolean) => Promise<number>,
  b: (warmUp: boolean) => Promise<number>,
  o: { warmup: number; rounds: number },
  afterRound: () => void = () => undefined,
): Promise<{ a: number[]; b: number[] }> {
  for (let i = 0; i < o.warmup; i++) {
    await a(true);
    await b(true);
  }
  const times = { a: [] as number[], b: [] as number[] };
  for (let i = 0; i < o.rounds; i++) {
    if (i % 2 === 0) {
      times.a.push(await a(false));
      times.b.push(await b(false));
    } else {
      times.b.push(await b(false));
      times.a.push(await a(false));
    }
    afterRound();
  }
  return times;
}
