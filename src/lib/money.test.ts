import { describe, expect, test } from 'vitest';
import { centsFromDigits, formatBRL, MAX_CENTS, reaisToCents } from './money';

describe('formatBRL', () => {
  test('formats thousands with dot and cents with comma, plain space after R$', () => {
    expect(formatBRL(123456)).toBe('R$ 1.234,56');
  });
  test('formats small amounts', () => {
    expect(formatBRL(5)).toBe('R$ 0,05');
    expect(formatBRL(0)).toBe('R$ 0,00');
    expect(formatBRL(1050)).toBe('R$ 10,50');
  });
  test('formats millions', () => {
    expect(formatBRL(10_000_000)).toBe('R$ 100.000,00');
    expect(formatBRL(123456789)).toBe('R$ 1.234.567,89');
  });
  test('never contains a non-breaking space', () => {
    expect(formatBRL(99)).not.toMatch(/\u00a0|\u202f/);
  });
  test("prints what Intl's pt-BR currency format prints (written by hand, no Intl)", () => {
    const intl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });
    const samples = [0, 1, 9, 10, 99, 100, 101, 999, 1000, 99_999, 100_000, 1_000_000];
    for (let c = 1; c < 1e12; c = c * 7 + 3) samples.push(c);
    for (const cents of [...samples, ...samples.filter((c) => c > 0).map((c) => -c)]) {
      expect(formatBRL(cents)).toBe(intl.format(cents / 100).replace(/\s/g, ' '));
    }
    expect(formatBRL(-123456)).toBe('-R$ 1.234,56');
  });
});

describe('centsFromDigits', () => {
  test('typed digits are cents', () => {
    expect(centsFromDigits('1050')).toBe(1050);
    expect(centsFromDigits('5')).toBe(5);
  });
  test('ignores non-digits and leading zeros', () => {
    expect(centsFromDigits('R$ 10,50')).toBe(1050);
    expect(centsFromDigits('000123')).toBe(123);
    expect(centsFromDigits('')).toBe(0);
    expect(centsFromDigits('abc')).toBe(0);
  });
  test('caps at the maximum', () => {
    expect(centsFromDigits('10000001')).toBe(MAX_CENTS);
    expect(centsFromDigits('99999999999999999999999')).toBe(MAX_CENTS);
    expect(centsFromDigits('5000', 1000)).toBe(1000);
  });
});

describe('reaisToCents', () => {
  test('converts decimal reais to integer cents', () => {
    expect(reaisToCents(32.5)).toBe(3250);
    expect(reaisToCents(0)).toBe(0);
    expect(reaisToCents(1234.56)).toBe(123456);
  });
  test('absorbs binary floating-point noise', () => {
    expect(reaisToCents(0.1 + 0.2)).toBe(30);
    expect(reaisToCents(1.005)).toBe(101);
    expect(reaisToCents(19.99)).toBe(1999);
    expect(reaisToCents(4.35)).toBe(435);
  });
  test('handles negatives symmetrically', () => {
    expect(reaisToCents(-32.5)).toBe(-3250);
  });
  test('rejects non-finite numbers', () => {
    expect(() => reaisToCents(Number.NaN)).toThrow(RangeError);
  });
});
