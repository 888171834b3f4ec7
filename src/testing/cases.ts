// Table-driven assertions for tests (not imported by app code).
import { expect, test } from 'vitest';

/**
 * Asserts that `fn` gives each case's expected value (compared with toEqual). All cases are
 * checked at once: a failure shows the whole table, each answer beside its input.
 */
export function expectEach<I, O>(fn: (input: I) => O, cases: readonly (readonly [I, O])[]): void {
  expect(cases.map(([input]) => [input, fn(input)])).toEqual(
    cases.map(([input, expected]) => [input, expected]),
  );
}

/**
 * One test a named table: each checks its function against its cases with expectEach. For
 * the tests that are each a table of inputs and the answers expected of them.
 */
export function testEachTable<I, O>(
  tables: readonly (readonly [
    name: string,
    fn: (input: I) => O,
    cases: readonly (readonly [I, O])[],
  ])[],
): void {
  test.each(tables)('%s', (_name, fn, cases) => expectEach(fn, cases));
}
