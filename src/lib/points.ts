// Points become text only through these two (pt-BR digit grouping; "1 ponto", "-1 ponto",
// "0 pontos", "2 pontos": only one, positive or negative, is singular).

/**
 * A whole number the pt-BR way, as `Intl.NumberFormat('pt-BR', { maximumFractionDigits: 0 })`
 * prints it: 1234567 → "1.234.567", -1234 → "-1.234", 2.5 → "3" (half away from zero).
 * Written by hand: a page's first Intl number or date formatter costs Chromium tens of
 * milliseconds (its locale data loads), which the first paint or the first search paid.
 */
export function formatInteger(n: number): string {
  const whole = Math.round(Math.abs(n));
  return `${n < 0 && whole > 0 ? '-' : ''}${String(whole).replace(/\B(?=(\d{3})+$)/g, '.')}`;
}

/** 1234 → "1.234". */
export const formatPoints = (n: number): string => formatInteger(n);

/** The word for `n` points: "ponto" for 1 and -1, "pontos" otherwise. */
export const pointsWord = (n: number): string => (Math.abs(n) === 1 ? 'ponto' : 'pontos');

/** 1234 → "1.234 pontos", 1 → "1 ponto". */
export const formatPointsLabel = (n: number): string => `${formatPoints(n)} ${pointsWord(n)}`;
