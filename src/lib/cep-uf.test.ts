import { expect, test } from 'vitest';
import { cepDigits, formatCep, formatCepTyping, isValidCep } from './cep';
import { isUf, UF_SIGLAS, UFS, ufName } from './uf';

test('CEP digits, format and validity', () => {
  expect(cepDigits('01310-100')).toBe('01310100');
  expect(formatCep('01310100')).toBe('01310-100');
  expect(formatCep('0131')).toBe('0131');
  expect(formatCepTyping('013101')).toBe('01310-1');
  expect(formatCepTyping('01310')).toBe('01310');
  expect(isValidCep('01310-100')).toBe(true);
  expect(isValidCep('01310100')).toBe(true);
  expect(isValidCep('0131010')).toBe(false);
  expect(isValidCep('01310-1000')).toBe(false);
});

test('the 27 UFs, unique, with names', () => {
  expect(UFS).toHaveLength(27);
  expect(new Set(UF_SIGLAS).size).toBe(27);
  expect(ufName('SP')).toBe('São Paulo');
  expect(ufName('df')).toBe('Distrito Federal');
  expect(ufName('XX')).toBeUndefined();
  expect(isUf('RJ')).toBe(true);
  expect(isUf('XX')).toBe(false);
});
