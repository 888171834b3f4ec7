import { expect, test } from 'vitest';
import { formatInteger, formatPointsLabel } from './points';

test('points are grouped the Brazilian way and only ±1 is singular', () => {
  expect(formatPointsLabel(1234567)).toBe('1.234.567 pontos');
  expect(formatPointsLabel(1)).toBe('1 ponto');
  expect(formatPointsLabel(-1)).toBe('-1 ponto');
  expect(formatPointsLabel(0)).toBe('0 pontos');
  expect(formatPointsLabel(-12)).toBe('-12 pontos');
});

test("whole numbers print as Intl's pt-BR format prints them (written by hand, no Intl)", () => {
  const intl = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 0 });
  const samples = [0, 1, 12, 123, 999, 1000, 1001, 99_999, 100_000, 2.5, 1.4999, 0.5, 999.5];
  for (let n = 1; n < 1e15; n = n * 3 + 1) samples.push(n);
  // Negatives that round to 0: Intl prints "-0", this "0".
  for (const n of [...samples, ...samples.filter((x) => x >= 0.5).map((x) => -x)]) {
    expect(formatInteger(n)).toBe(intl.format(n));
  }
  expect(formatInteger(-0.4)).toBe('0');
});
