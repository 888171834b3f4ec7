import { expect, test } from 'vitest';
import { cepDigits, formatCepTyping } from './cep';
import { isUf, UF_SIGLAS, UFS } from './uf';

test('CEP digits and as-you-type format', () => {
  expect(cepDigits('01310-100')).toBe('01310100');
  expect(formatCepTyping('013101')).toBe('01310-1');
  expect(formatCepTyping('01310')).toBe('01310');
});

test('the 27 UFs, unique, with names', () => {
  expect(UFS.every((u) => u.nome.length > 0)).toBe(true);
  expect(UFS).toHaveLength(27);
  expect(new Set(UF_SIGLAS).size).toBe(27);
  expect(isUf('RJ')).toBe(true);
  expect(isUf('XX')).toBe(false);
});
