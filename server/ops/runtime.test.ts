import { expect, test } from 'vitest';
import { root } from '../testing/spawn';
import { currentRuntime, readEngines, satisfies } from './runtime';

test('engines ranges: ^ holds to its major, >= does not, || joins', () => {
  expect(satisfies('v24.11.0', '^24.11.0')).toBe(true);
  expect(satisfies('v24.21.0', '^24.11.0')).toBe(true);
  expect(satisfies('v24.10.9', '^24.11.0')).toBe(false);
  expect(satisfies('v26.1.0', '^24.11.0')).toBe(false);
  expect(satisfies('v20.20.2', '^24.11.0')).toBe(false);
  expect(satisfies('v22.12.0', '^24.11.0 || ^22.12.0')).toBe(true);
  expect(satisfies('v26.1.0', '>=24.11.0')).toBe(true);
  expect(() => satisfies('v24.1.0', '24.x')).toThrow('unsupported engines range: 24.x');
});

test("package.json's engines is a range it reads, and the runtime of this test is in it", () => {
  const engines = readEngines(root);
  expect(() => satisfies('v24.0.0', engines)).not.toThrow();
  expect(currentRuntime(root)).toEqual({
    version: process.version,
    execPath: process.execPath,
    engines,
    supported: true,
  });
});
