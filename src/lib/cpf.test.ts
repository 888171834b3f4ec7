import { describe, expect, test } from 'vitest';
import { cpfDigits, formatCpf, formatCpfTyping, isValidCpf } from './cpf';

describe('isValidCpf', () => {
  test.each(['529.982.247-25', '52998224725', '111.444.777-35', '123.456.789-09'])(
    '%s is valid',
    (cpf) => {
      expect(isValidCpf(cpf)).toBe(true);
    },
  );
  test.each([
    ['111.111.111-11', 'all same digits'],
    ['000.000.000-00', 'all zeros'],
    ['529.982.247-24', 'wrong second check digit'],
    ['529.982.247-15', 'wrong first check digit'],
    ['5299822472', 'ten digits'],
    ['529982247250', 'twelve digits'],
    ['', 'empty'],
    ['abc.def.ghi-jk', 'letters'],
  ])('%s is invalid (%s)', (cpf) => {
    expect(isValidCpf(cpf)).toBe(false);
  });
});

test('cpfDigits keeps at most 11 digits', () => {
  expect(cpfDigits('529.982.247-25')).toBe('52998224725');
  expect(cpfDigits('529.982.247-2599')).toBe('52998224725');
});

test('formatCpf punctuates 11 digits and leaves anything else alone', () => {
  expect(formatCpf('52998224725')).toBe('529.982.247-25');
  expect(formatCpf('529.982.247-25')).toBe('529.982.247-25');
  expect(formatCpf('123')).toBe('123');
});

test('formatCpfTyping punctuates progressively', () => {
  expect(formatCpfTyping('529')).toBe('529');
  expect(formatCpfTyping('5299')).toBe('529.9');
  expect(formatCpfTyping('5299822')).toBe('529.982.2');
  expect(formatCpfTyping('5299822472')).toBe('529.982.247-2');
  expect(formatCpfTyping('529982247255')).toBe('529.982.247-25');
});
