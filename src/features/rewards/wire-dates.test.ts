import { expect, test } from 'vitest';
import { formatDate, formatDateTime, isRealDate } from '@/lib/dates';
import { formatWireDate, formatWireDateTime, isWireDate } from './wire-dates';

const samples = [
  '2026-11-21 14:00:00',
  '2026-11-21 23:59:59',
  '2026-11-21T08:05',
  '2026-11-21',
  ' 2026-01-02 03:04:05 ',
  '2024-02-29',
  '2026-02-29',
  '2026-02-30 10:00:00',
  '2026-13-01',
  '2026-11-21 24:00:00',
  '2026-11-21 12:60:00',
  '21/11/2026',
  '2026-1-2',
  '',
  'amanhã',
];

test('formats wire timestamps as the table shows them', () => {
  expect(formatWireDateTime('2026-11-21 14:05:09')).toBe('21/11/2026 14:05');
  expect(formatWireDate('2026-12-21 23:59:59')).toBe('21/12/2026');
  expect(formatWireDateTime('bad')).toBe('bad');
});

test('only real YYYY-MM-DD dates pass', () => {
  expect(isWireDate('2024-02-29')).toBe(true);
  expect(isWireDate('2026-02-29')).toBe(false);
  expect(isWireDate('2026-11-21 10:00:00')).toBe(false);
});

test.each(samples)('agrees with @/lib/dates on %j', (value) => {
  expect(formatWireDate(value)).toBe(formatDate(value));
  expect(formatWireDateTime(value)).toBe(formatDateTime(value));
  expect(isWireDate(value)).toBe(isRealDate(value));
});
