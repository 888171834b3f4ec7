import { describe, expect, test } from 'vitest';
import { cpfDigits, formatCpf, formatCpfTyping, isValidCpf } from './cpf';
import { testEachTable } from '@/testing/cases';

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

testEachTable([
  [
    'cpfDigits keeps at most 11 digits',
    cpfDigits,
    [
      ['529.982.247-25', '52998224725'],
      ['529.982.247-2599', '52998224725'],
    ],
  ],
  [
    'formatCpf punctuates 11 digits and leaves anything else alone',
    formatCpf,
    [
      ['52998224725', '529.982.247-25'],
      ['529.982.247-25', '529.982.247-25'],
      ['123', '123'],
    ],
  ],
  [
    'formatCpfTyping punctuates progressively',
    formatCpfTyping,
    [
      ['529', '529'],
      ['5299', '529.9'],
      ['5299822', '529.982.2'],
      ['5299822472', '529.982.247-2'],
      ['529982247255', '529.982.247-25'],
    ],
  ],
]);
