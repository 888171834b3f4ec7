import { describe, expect, test } from 'vitest';
import { isCleanText } from './wire-fields';

describe('isCleanText', () => {
  test.each([
    'Maria da Silva',
    'José D’Ávila',
    "Joana D'Arc",
    'Zoë Ñúñez-Çağlar',
    'Nguyễn Thị Minh Khai',
    '山田太郎',
    'محمد',
    'Ana 😀',
    'Família 👩‍👩‍👧 Souza',
    'Bandeira 🇧🇷',
    'نامه‌ای',
    'Café ☕︎',
    'Rua 7 de Setembro, 100 – apto. 2',
    '\u200Bana',
    'a',
  ])('%j is clean', (s) => {
    expect(isCleanText(s)).toBe(true);
  });

  test.each([
    ['NUL', 'Ana\u0000Lima'],
    ['NUL alone', '\u0000'],
    ['a lone high surrogate', 'Ana \uD83D'],
    ['a lone low surrogate', '\uDE00Ana'],
    ['a pair in the wrong order', '\uDE00\uD83D'],
    ['zero-width characters only', '\u200B\u200C\u200D\u2060'],
    ['a bidi override and spaces only', ' \u202E '],
    ['a BOM only', '\uFEFF'],
    ['Hangul fillers only', '\u3164\u3164'],
    ['ESC (a terminal colour code)', 'Ana\u001B[31mLima'],
    ['BEL', 'Ana\u0007'],
    ['a tab', 'Ana\tLima'],
    ['a newline', 'Ana\nLima'],
    ['a carriage return', 'Ana\rLima'],
    ['DEL', 'Ana\u007F'],
    ['C1 NEL', 'Ana\u0085Lima'],
    ['C1 CSI', 'Ana\u009B31m'],
    ['a line separator', 'Ana\u2028Lima'],
    ['a paragraph separator', 'Ana\u2029Lima'],
    ['empty', ''],
    ['spaces only', '   '],
  ])('%s is not clean', (_name, s) => {
    expect(isCleanText(s)).toBe(false);
  });

  test('agrees with isWellFormed on every lone or paired surrogate', () => {
    const wellFormed = (s: string) => (s as unknown as { isWellFormed(): boolean }).isWellFormed();
    for (const s of ['a\uD800', '\uDBFFb', '\uD800\uDC00', '\uDFFF', 'x\uD83D\uDE00y']) {
      expect(isCleanText(s)).toBe(wellFormed(s));
    }
  });
});
