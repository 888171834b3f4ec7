import { expect, test } from 'vitest';
import { ApiError } from './errors';
import { createQueryClient, shouldRetryQuery } from './query-client';

test('queries retry twice on network, timeout and server errors only', () => {
  for (const kind of ['network', 'timeout', 'server'] as const) {
    expect(shouldRetryQuery(0, new ApiError({ kind }))).toBe(true);
    expect(shouldRetryQuery(1, new ApiError({ kind }))).toBe(true);
    expect(shouldRetryQuery(2, new ApiError({ kind }))).toBe(false);
  }
  for (const kind of [
    'validation',
    'not_found',
    'unauthorized',
    'forbidden',
    'conflict',
    'rate_limited',
    'contract',
  ] as const) {
    expect(shouldRetryQuery(0, new ApiError({ kind }))).toBe(false);
  }
  expect(shouldRetryQuery(0, new Error('bug'))).toBe(false);
});

test('a 503 (the service unavailable, the circuit open) is not retried: it is final now', () => {
  expect(shouldRetryQuery(0, new ApiError({ kind: 'server', status: 503 }))).toBe(false);
  expect(shouldRetryQuery(0, new ApiError({ kind: 'server', status: 500 }))).toBe(true);
  expect(shouldRetryQuery(0, new ApiError({ kind: 'network', status: 502 }))).toBe(true);
});

test('defaults: 30 s stale time, no refetch on focus, mutations never retry', () => {
  const qc = createQueryClient();
  const defaults = qc.getDefaultOptions();
  expect(defaults.queries?.staleTime).toBe(30_000);
  expect(defaults.queries?.refetchOnWindowFocus).toBe(false);
  expect(defaults.queries?.retry).toBe(shouldRetryQuery);
  expect(defaults.mutations?.retry).toBe(0);
});
