import { describe, expect, test } from 'vitest';
import { backoffMs } from './backoff';

describe('backoffMs', () => {
  test('doubles from the base up to the cap, half of each step fixed', () => {
    const low = [1, 2, 3, 4, 10].map((n) => backoffMs(n, 1_000, 30_000, () => 0));
    const high = [1, 2, 3, 4, 10].map((n) => backoffMs(n, 1_000, 30_000, () => 1));
    expect(low).toEqual([500, 1_000, 2_000, 4_000, 15_000]);
    expect(high).toEqual([1_000, 2_000, 4_000, 8_000, 30_000]);
  });

  test('is never zero and never over the cap, whatever the attempt', () => {
    for (const attempt of [-5, 0, 1, 64, 10_000]) {
      const d = backoffMs(attempt, 1, 50);
      expect(d).toBeGreaterThanOrEqual(1);
      expect(d).toBeLessThanOrEqual(50);
    }
  });

  test('spreads the tries of many entries (jitter)', () => {
    const delays = new Set(Array.from({ length: 50 }, () => backoffMs(5, 1_000, 60_000)));
    expect(delays.size).toBeGreaterThan(10);
  });
});
