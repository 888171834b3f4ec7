import { describe, expect, test } from 'vitest';
import {
  formatPhoneDisplay,
  formatPhoneTyping,
  maskPhone,
  parsePhoneBR,
  PHONE_REASONS,
} from './phone';

describe('parsePhoneBR accepts a BR mobile in every usual form', () => {
  test.each([
    '(11) 98765-4321',
    '11987654321',
    '11 98765-4321',
    '+55 11 98765-4321',
    '+5511987654321',
    '+55 (11) 98765-4321',
    '011 98765 4321',
    '55 11 98765-4321',
    '5511987654321',
    '  (11) 98765-4321  ',
    '11.98765.4321',
  ])('%s', (input) => {
    expect(parsePhoneBR(input)).toEqual({
      ok: true,
      e164: '+5511987654321',
      national: '(11) 98765-4321',
    });
  });

  test('other DDDs', () => {
    expect(parsePhoneBR('(21) 99999-0000')).toEqual({
      ok: true,
      e164: '+5521999990000',
      national: '(21) 99999-0000',
    });
    expect(parsePhoneBR('(85) 98888-7777')).toMatchObject({ ok: true, e164: '+5585988887777' });
  });
});

describe('parsePhoneBR rejects with a reason', () => {
  test.each([
    ['', PHONE_REASONS.empty],
    ['   ', PHONE_REASONS.empty],
    ['(11) 3456-7890', PHONE_REASONS.landline],
    ['1134567890', PHONE_REASONS.landline],
    ['(11) 8765-4321', PHONE_REASONS.missingNine],
    ['98765-4321', PHONE_REASONS.noDdd],
    ['+1 202 555 0100', PHONE_REASONS.foreign],
    ['+351 912 345 678', PHONE_REASONS.foreign],
    ['11 98765-43210000', PHONE_REASONS.tooLong],
    ['(10) 98765-4321', PHONE_REASONS.invalid],
    ['abc', PHONE_REASONS.letters],
    ['11 9876x-4321', PHONE_REASONS.letters],
  ])('%s', (input, reason) => {
    expect(parsePhoneBR(input)).toEqual({ ok: false, reason });
  });
});

test('formatPhoneTyping formats progressively', () => {
  expect(formatPhoneTyping('11')).toBe('(11)');
  expect(formatPhoneTyping('1198765')).toBe('(11) 98765');
  expect(formatPhoneTyping('11987654321')).toBe('(11) 98765-4321');
  expect(formatPhoneTyping('+5511987654321')).toBe('+55 11 98765-4321');
});

test('formatPhoneTyping: landlines split 4-4, trunk 0 dropped, foreign left as digits', () => {
  expect(formatPhoneTyping('')).toBe('');
  expect(formatPhoneTyping('1')).toBe('(1');
  expect(formatPhoneTyping('113456')).toBe('(11) 3456');
  expect(formatPhoneTyping('1134567890')).toBe('(11) 3456-7890');
  expect(formatPhoneTyping('(11) 98765-4321')).toBe('(11) 98765-4321');
  expect(formatPhoneTyping('011987654321')).toBe('(11) 98765-4321');
  expect(formatPhoneTyping('119876543210000')).toBe('(11) 98765-4321');
  expect(formatPhoneTyping('+55')).toBe('+55');
  expect(formatPhoneTyping('+5511')).toBe('+55 11');
  expect(formatPhoneTyping('+1 202 555 0100')).toBe('+12025550100');
});

test('formatPhoneDisplay shows the national form', () => {
  expect(formatPhoneDisplay('+5511987654321')).toBe('(11) 98765-4321');
  expect(formatPhoneDisplay('+12025550100')).toBe('+12025550100');
  expect(formatPhoneDisplay('lixo')).toBe('lixo');
});

test('maskPhone keeps DDD and last 4 digits only', () => {
  expect(maskPhone('+5511987654321')).toBe('(11) *****-4321');
  expect(maskPhone('+551134567890')).toBe('(11) ****-7890');
  expect(maskPhone('+12025550100')).toBe('*******0100');
  expect(maskPhone('11987654321')).toBe('(11) *****-4321');
});
