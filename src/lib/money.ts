// Money is integer cents everywhere in code. It becomes text only through formatBRL.
// Kept here, not a library: a money library would add bytes to the counter's first load for
// integer cents that need no arithmetic beyond + and ×. Not Intl either (see formatInteger).

import { VALOR_GASTO_MAX } from '#contract/wire';
import { formatInteger } from './points';

/** Largest amount a cashier can type: R$ 100.000,00 (the service's valor_gasto limit). */
export const MAX_CENTS = VALOR_GASTO_MAX;

/**
 * 123456 → "R$ 1.234,56", -5 → "-R$ 0,05": Intl's pt-BR currency text, with a plain space
 * where Intl puts a non-breaking one (stable text).
 */
export function formatBRL(cents: number): string {
  const abs = Math.round(Math.abs(cents));
  const sign = cents < 0 && abs > 0 ? '-' : '';
  return `${sign}R$ ${formatInteger(Math.floor(abs / 100))},${String(abs % 100).padStart(2, '0')}`;
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
