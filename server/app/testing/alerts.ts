/**
 * Vigilância's webhook tests: one alert as the wire carries it and the store's webhook secret,
 * the test files' clean-up, and a wait for a condition that a background sender makes true.
 */
import type { AlertWire } from '#contract/api/vigilancia';

/** Store 1's webhook secret in these tests. */
export const WEBHOOK_SECRET = 'segredo-do-webhook-da-loja-1';

/** Alert `id` of store `loja`: rule 5 (a high amount), open, undecided. */
export function alertWire(id: number, loja = 1): AlertWire {
  return {
    id,
    regra: 'valor_alto',
    regra_nome: 'Valor muito acima do usual',
    loja,
    terminal: '7',
    terminal_nome: null,
    cliente: '(11) 9••••-4321',
    dia: '2026-11-28',
    valor: 250_000,
    resumo: 'R$ 2.500,00, acima de 3 × o percentil 99',
    estado: 'aberto',
    nota: null,
    decidido_por: null,
    decidido_em: null,
    criado_em: '2026-11-28T15:00:00.000Z',
  };
}

/** Reads `read()` every 25 ms until `ok` holds of it or `ms` pass; the last reading. */
export async function until<T>(
  read: () => Promise<T>,
  ok: (v: T) => boolean,
  ms = 15_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
}
