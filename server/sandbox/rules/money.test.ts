import { describe, expect, test } from 'vitest';
import { isValidCpfDigits as isValidCpf } from '#contract/wire';
import { cpfCheckDigits, randomCpfHash } from './cpf';
import { centsToReais, formatReais, pointsFor } from '#contract/rules/money';

describe('points', () => {
  test('points are the floor of cents over cents per point', () => {
    expect(pointsFor(1050, 100)).toBe(10);
    expect(pointsFor(1099, 100)).toBe(10);
    expect(pointsFor(99, 100)).toBe(0);
    expect(pointsFor(2600, 500)).toBe(5);
    expect(pointsFor(2499, 500)).toBe(4);
  });

  test('a bad rule is a programming error', () => {
    expect(() => pointsFor(100, 0)).toThrow(RangeError);
    expect(() => pointsFor(10.5, 100)).toThrow(RangeError);
  });
});

describe('reais', () => {
  test('receita is reais as a decimal number', () => {
    expect(centsToReais(3250)).toBe(32.5);
    expect(centsToReais(17620)).toBe(176.2);
  });

  test('messages show reais the Brazilian way', () => {
    expect(formatReais(1200)).toBe('R$ 12,00');
    expect(formatReais(1050)).toBe('R$ 10,50');
    expect(formatReais(10_000_000)).toBe('R$ 100.000,00');
    expect(formatReais(1)).toBe('R$ 0,01');
  });
});

describe('CPF', () => {
  test('check digits', () => {
    expect(cpfCheckDigits('529982247')).toBe('25');
    expect(isValidCpf('52998224725')).toBe(true);
    expect(isValidCpf('52998224724')).toBe(false);
    expect(isValidCpf('11111111111')).toBe(false);
    expect(isValidCpf('529.982.247-25')).toBe(false);
  });

  test('the default CPF is a 32-hex-digit hash', () => {
    expect(randomCpfHash()).toMatch(/^[0-9a-f]{32}$/);
    expect(randomCpfHash()).not.toBe(randomCpfHash());
  });
});
