/**
 * The delay before the next try of something that failed: exponential from `baseMs`, capped
 * at `capMs`, with "equal jitter" (half the step fixed, half random). Never zero, so a loop
 * that awaits it cannot spin, and tries of many entries spread out instead of arriving
 * together.
 */
export function backoffMs(
  attempt: number,
  baseMs: number,
  capMs: number,
  random: () => number = Math.random,
): number {
  const step = Math.min(capMs, baseMs * 2 ** Math.max(0, Math.min(attempt - 1, 30)));
  return Math.max(1, Math.round(step / 2 + random() * (step / 2)));
}
