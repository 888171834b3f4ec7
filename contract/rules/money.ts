// Money is integer cents everywhere; it becomes reais only for `receita` and for messages.

/** Points earned for an amount: floor(valor_gasto / centavos_por_ponto). */
export function pointsFor(valorGastoCents: number, centsPerPoint: number): number {
  if (!Number.isSafeInteger(valorGastoCents) || valorGastoCents < 0) {
    throw new RangeError('valor_gasto must be a non-negative integer of cents');
  }
  if (!Number.isSafeInteger(centsPerPoint) || centsPerPoint <= 0) {
    throw new RangeError('centavos_por_ponto must be a positive integer');
  }
  return Math.floor(valorGastoCents / centsPerPoint);
}

/** Cents as a decimal number of reais (`receita`), e.g. 3250 → 32.5. */
export function centsToReais(cents: number): number {
  return cents / 100;
}

const reaisFormat = new Intl.NumberFormat('pt-BR', {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** `R$ 1.234,50` with a plain space, for messages a cashier reads. */
export function formatReais(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  return `${sign}R$ ${reaisFormat.format(Math.abs(cents) / 100)}`;
}
