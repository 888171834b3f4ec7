// Money is integer cents everywhere in code. It becomes text only through formatBRL.
// Kept here, not a library: Intl.NumberFormat formats R$; a money library would add bytes to
// the counter's first load for integer cents that need no arithmetic beyond + and ×.

import { VALOR_GASTO_MAX } from '@/api/wire';

/** Largest amount a cashier can type: R$ 100.000,00 (the service's valor_gasto limit). */
export const MAX_CENTS = VALOR_GASTO_MAX;

const brl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });

/** 123456 → "R$ 1.234,56". Intl's non-breaking spaces become plain spaces (stable text). */
export function formatBRL(cents: number): string {
  return brl.format(cents / 100).replace(/\s/g, ' ');
}

/**
 * POS-style entry: the typed digits are cents. "1050" → 1050, "R$ 10,50" → 1050.
 * Non-digits are ignored; the result never exceeds `max`.
 */
export function centsFromDigits(digits: string, max: number = MAX_CENTS): number {
  const only = digits.replace(/\D/g, '').replace(/^0+/, '');
  if (only === '') return 0;
  if (only.length > String(max).length) return max;
  return Math.min(Number(only), max);
}

/**
 * Decimal reais (the service's `receita`, e.g. 32.5) → integer cents (3250).
 * Rounds half away from zero on the decimal value a person sees: 0.1 + 0.2 → 30, 1.005 → 101.
 */
export function reaisToCents(reais: number): number {
  if (!Number.isFinite(reais)) throw new RangeError(`reaisToCents: not a finite number: ${reais}`);
  // toPrecision(12) drops binary noise (30.000000000000004, 100.49999999999999) first.
  const scaled = Number((Math.abs(reais) * 100).toPrecision(12));
  const cents = Math.round(scaled);
  return reais < 0 && cents !== 0 ? -cents : cents;
}
