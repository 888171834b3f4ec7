import { describe, expect, test } from 'vitest';
import {
  brDateToWire,
  daysUntil,
  formatDate,
  formatDateTime,
  isNotFuture,
  isRealDate,
  parseWireDateTime,
  formatSaoPauloDateTime,
  todayInSaoPaulo,
} from './dates';
import { expectEach } from '@/testing/cases';

describe('wire dates are São Paulo civil time, never shifted', () => {
  test('parses a timestamp into its own fields', () => {
    expect(parseWireDateTime('2024-05-01 23:45:10')).toEqual({
      year: 2024,
      month: 5,
      day: 1,
      hour: 23,
      minute: 45,
      second: 10,
    });
  });
  test('a late-night timestamp keeps its day whatever the browser timezone', () => {
    expect(formatDateTime('2024-12-31 23:59:59')).toBe('31/12/2024 23:59');
    expect(formatDate('2024-01-01 00:00:00')).toBe('01/01/2024');
  });
  test('formats a date', () => {
    expect(formatDate('2024-05-01')).toBe('01/05/2024');
    expect(formatDateTime('2024-05-01')).toBe('01/05/2024 00:00');
  });
  test('malformed input is shown as it came', () => {
    expect(formatDate('ontem')).toBe('ontem');
    expect(formatDateTime('2024-02-30 10:00:00')).toBe('2024-02-30 10:00:00');
    expect(parseWireDateTime('2024-05-01 24:00:00')).toBeNull();
  });
});

test('isRealDate checks the calendar', () => {
  expectEach(isRealDate, [
    ['2024-02-29', true],
    ['2023-02-29', false],
    ['2024-02-30', false],
    ['2024-13-01', false],
    ['2024-00-10', false],
    ['2024-4-1', false],
    ['2024-04-01 10:00:00', false],
  ]);
});

test('brDateToWire turns dd/mm/aaaa into the wire form', () => {
  expectEach(brDateToWire, [
    ['01/05/1990', '1990-05-01'],
    ['1/5/1990', '1990-05-01'],
    ['31/02/1990', null],
    ['1990-05-01', null],
  ]);
});

test('isNotFuture compares with today in São Paulo', () => {
  expect(isNotFuture('2024-05-01', '2024-05-01')).toBe(true);
  expect(isNotFuture('2024-05-02', '2024-05-01')).toBe(false);
  expect(isNotFuture('1990-01-15', '2024-05-01')).toBe(true);
  expect(isNotFuture('2024-02-30', '2024-05-01')).toBe(false);
});

test('todayInSaoPaulo uses São Paulo, not UTC', () => {
  // 02:30 UTC on 1 May is still 30 April, 23:30 in São Paulo (UTC-3).
  expectEach(todayInSaoPaulo, [
    [new Date('2024-05-01T02:30:00Z'), '2024-04-30'],
    [new Date('2024-05-01T03:30:00Z'), '2024-05-01'],
  ]);
});

test("São Paulo's day and time (written by hand, no Intl) agree with Intl's America/Sao_Paulo", () => {
  const intl = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'America/Sao_Paulo',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  });
  const intlDateTime = new Intl.DateTimeFormat('pt-BR', {
    timeZone: 'America/Sao_Paulo',
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
  // Every 97 minutes from 2020 to 2031 (~60 000 instants, every hour of the day met):
  // a summer time in this machine's time zone data would show here.
  let checked = 0;
  for (let t = Date.UTC(2020, 0, 1); t < Date.UTC(2031, 0, 1); t += 97 * 60_000) {
    const at = new Date(t);
    expect(todayInSaoPaulo(at), at.toISOString()).toBe(intl.format(at));
    expect(formatSaoPauloDateTime(at), at.toISOString()).toBe(intlDateTime.format(at));
    checked++;
  }
  expect(checked).toBeGreaterThan(50_000);
});

test('daysUntil counts calendar days', () => {
  expect(daysUntil('2024-05-31 23:59:59', '2024-05-01')).toBe(30);
  expect(daysUntil('2024-05-01', '2024-05-01')).toBe(0);
  expect(daysUntil('2024-04-30', '2024-05-01')).toBe(-1);
  expect(daysUntil('2025-03-01', '2025-02-28')).toBe(1);
  expect(daysUntil('lixo', '2024-05-01')).toBeNaN();
});
