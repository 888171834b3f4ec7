import { expect, test } from 'vitest';
import { expiryNote } from './rewards';

const pending = (valido_ate: string) => ({
  premio_status: 'pendente_resgate' as const,
  valido_ate,
});
const TODAY = '2026-11-23';

test.each([
  ['2026-11-23 23:59:59', 'vence hoje'],
  ['2026-11-24 23:59:59', 'vence amanhã'],
  ['2026-11-26 23:59:59', 'vence em 3 dias'],
  ['2026-11-30 23:59:59', 'vence em 7 dias'],
  ['2026-12-01 00:00:00', null], // 8 days
  ['2026-11-22 23:59:59', null], // already past (the service reads it as expired)
  ['2026-12-31', null],
])('a pending reward valid until %s: %s', (validUntil, note) => {
  expect(expiryNote(pending(validUntil), TODAY)).toBe(note);
});

test('counted across a month and a year end', () => {
  expect(expiryNote(pending('2027-01-02 23:59:59'), '2026-12-30')).toBe('vence em 3 dias');
});

test('only a pending reward expires: redeemed, expired or reversed ones say nothing', () => {
  for (const premio_status of ['resgatado', 'expirado', 'estornado'] as const)
    expect(expiryNote({ premio_status, valido_ate: '2026-11-24 23:59:59' }, TODAY)).toBeNull();
});

test('a malformed date says nothing', () => {
  expect(expiryNote(pending('amanhã'), TODAY)).toBeNull();
});
