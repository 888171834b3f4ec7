import { expect, test } from 'vitest';
import { formatPointsLabel } from './points';

test('points are grouped the Brazilian way and only ±1 is singular', () => {
  expect(formatPointsLabel(1234567)).toBe('1.234.567 pontos');
  expect(formatPointsLabel(1)).toBe('1 ponto');
  expect(formatPointsLabel(-1)).toBe('-1 ponto');
  expect(formatPointsLabel(0)).toBe('0 pontos');
  expect(formatPointsLabel(-12)).toBe('-12 pontos');
});
