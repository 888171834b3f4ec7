import { describe, expect, test } from 'vitest';
import { classifyLookup, LOOKUP_REASONS } from './lookup';
import { PHONE_REASONS } from './phone';

/** A CPF as the lookup keys it; what every typing of the same mobile, and CPF, classifies as. */
const MOBILE = { kind: 'phone', celular: '+5511987654321', display: '(11) 98765-4321' };
const cpfKey = (cpf: string, display: string) => ({ kind: 'cpf', cpf, display });
const CPF = cpfKey('52998224725', '529.982.247-25');

describe('customer id', () => {
  test.each(['#123', 'id 123', 'id:123', 'ID: 123', ' # 123 '])('%s', (input) => {
    expect(classifyLookup(input)).toEqual({ kind: 'id', id_cliente: 123, display: '#123' });
  });
  test('#0 is not a customer', () => {
    expect(classifyLookup('#0')).toEqual({ kind: 'invalid', reason: LOOKUP_REASONS.badId });
  });
});

describe('phone', () => {
  test.each([
    '(11) 98765-4321',
    '11987654321',
    '+55 11 98765-4321',
    '+5511987654321',
    '11 98765-4321',
  ])('%s', (input) => {
    expect(classifyLookup(input)).toEqual(MOBILE);
  });
  test('a landline gets the phone reason', () => {
    expect(classifyLookup('(11) 3456-7890')).toEqual({
      kind: 'invalid',
      reason: PHONE_REASONS.landline,
    });
  });
  test('a mobile without DDD asks for it', () => {
    expect(classifyLookup('98765-4321')).toEqual({ kind: 'invalid', reason: PHONE_REASONS.noDdd });
  });
});

describe('CPF', () => {
  test.each(['529.982.247-25', '52998224725', '529982247-25'])('%s', (input) => {
    expect(classifyLookup(input)).toEqual(CPF);
  });
  test('punctuated CPF with wrong check digits', () => {
    expect(classifyLookup('529.982.247-24')).toEqual({
      kind: 'invalid',
      reason: LOOKUP_REASONS.cpfCheck,
    });
    expect(LOOKUP_REASONS.cpfCheck).toBe('CPF inválido: dígitos verificadores não conferem');
  });
  test('all-same digits with CPF punctuation', () => {
    expect(classifyLookup('111.111.111-11')).toEqual({
      kind: 'invalid',
      reason: LOOKUP_REASONS.cpfCheck,
    });
  });
  test('punctuated but short', () => {
    expect(classifyLookup('529.982.247')).toEqual({
      kind: 'invalid',
      reason: LOOKUP_REASONS.cpfLength,
    });
  });
});

describe('11 plain digits: mobile or CPF', () => {
  test('valid mobile and valid CPF at once: the phone wins', () => {
    // 11987654374 passes the CPF check digits and is (11) 98765-4374.
    expect(classifyLookup('11987654374')).toMatchObject({
      kind: 'phone',
      celular: '+5511987654374',
    });
  });
  test('the same digits with CPF punctuation are a CPF', () => {
    expect(classifyLookup('119.876.543-74')).toEqual(cpfKey('11987654374', '119.876.543-74'));
  });
  test('valid CPF that is not a mobile is a CPF', () => {
    expect(classifyLookup('11144477735')).toEqual(cpfKey('11144477735', '111.444.777-35'));
  });
  test('neither a mobile nor a valid CPF', () => {
    expect(classifyLookup('52998224724')).toEqual({
      kind: 'invalid',
      reason: 'CPF inválido: dígitos verificadores não conferem',
    });
    expect(classifyLookup('11111111111')).toEqual({
      kind: 'invalid',
      reason: LOOKUP_REASONS.cpfCheck,
    });
  });
});

describe('invalid input', () => {
  test('empty', () => {
    expect(classifyLookup('')).toEqual({ kind: 'invalid', reason: LOOKUP_REASONS.empty });
    expect(classifyLookup('   ')).toEqual({ kind: 'invalid', reason: LOOKUP_REASONS.empty });
  });
  test('letters', () => {
    expect(classifyLookup('maria')).toEqual({ kind: 'invalid', reason: LOOKUP_REASONS.letters });
    expect(classifyLookup('1198765432a')).toEqual({
      kind: 'invalid',
      reason: LOOKUP_REASONS.letters,
    });
    expect(classifyLookup('#12a')).toEqual({ kind: 'invalid', reason: LOOKUP_REASONS.letters });
  });
  test('a short number hints at # for ids', () => {
    expect(classifyLookup('123')).toEqual({ kind: 'invalid', reason: LOOKUP_REASONS.tooShort });
  });
});
