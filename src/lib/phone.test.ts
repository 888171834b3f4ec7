import { describe, expect, test } from 'vitest';
import {
  formatPhoneDisplay,
  formatPhoneTyping,
  maskPhone,
  parsePhoneBR,
  PHONE_REASONS,
} from './phone';
import { testEachTable } from '@/testing/cases';

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

testEachTable([
  [
    'formatPhoneTyping formats progressively',
    formatPhoneTyping,
    [
      ['11', '(11)'],
      ['1198765', '(11) 98765'],
      ['11987654321', '(11) 98765-4321'],
      ['+5511987654321', '+55 11 98765-4321'],
    ],
  ],
  [
    'formatPhoneTyping: landlines split 4-4, trunk 0 dropped, foreign left as digits',
    formatPhoneTyping,
    [
      ['', ''],
      ['1', '(1'],
      ['113456', '(11) 3456'],
      ['1134567890', '(11) 3456-7890'],
      ['(11) 98765-4321', '(11) 98765-4321'],
      ['011987654321', '(11) 98765-4321'],
      ['119876543210000', '(11) 98765-4321'],
      ['+55', '+55'],
      ['+5511', '+55 11'],
      ['+1 202 555 0100', '+12025550100'],
    ],
  ],
  [
    'formatPhoneDisplay shows the national form',
    formatPhoneDisplay,
    [
      ['+5511987654321', '(11) 98765-4321'],
      ['+12025550100', '+12025550100'],
      ['lixo', 'lixo'],
    ],
  ],
  [
    'maskPhone keeps DDD and last 4 digits only',
    maskPhone,
    [
      ['+5511987654321', '(11) *****-4321'],
      ['+551134567890', '(11) ****-7890'],
      ['+12025550100', '*******0100'],
      ['11987654321', '(11) *****-4321'],
    ],
  ],
]);
