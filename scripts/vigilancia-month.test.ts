// The generated month (scripts/vigilancia-month.ts): every planted case is flagged by its rule,
// and ordinary postings in an alert stay at or under 1 %. The seed varies per run and prints.
import { expect, test } from 'vitest';
import { printFigures, runMonth } from './vigilancia-month';

test('a month of ordinary postings and planted cases: all planted flagged, ordinary ≤ 1 %', async () => {
  const seed = process.env.VIGILANCIA_SEED ? Number(process.env.VIGILANCIA_SEED) : undefined;
  const f = await runMonth(seed);
  printFigures(f, (line) => console.log(line));
  expect(f.missed).toEqual([]);
  expect(f.ordinary).toBeGreaterThan(4_500);
  for (const [rule, x] of Object.entries(f.byRule)) {
    expect(x.planted, rule).toBeGreaterThan(0);
    expect(x.flagged, rule).toBe(x.planted);
  }
  expect(f.ordinaryRate).toBeLessThanOrEqual(0.01);
}, 300_000);
