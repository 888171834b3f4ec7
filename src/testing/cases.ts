// Table-driven assertions for tests (not imported by app code).
import { expect } from 'vitest';

/**
 * Asserts that `fn` gives each case's expected value (compared with toEqual). All cases are
 * checked at once: a failure shows the whole table, each answer beside its input.
 */
export function expectEach<I, O>(fn: (input: I) => O, cases: readonly (readonly [I, O])[]): void {
  expect(cases.map(([input]) => [input, fn(input)])).toEqual(
    cases.map(([input, expected]) => [input, expected]),
  );
}
