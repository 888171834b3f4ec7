// The points wallet, derived: credits (one per posting) and debits (one per loyalty reward)
// are facts; balances, expirations and what each debit consumed are computed from them.
//
// A credit is usable at instant t when it has matured (no carencia, or t ≥ its maturity) and
// has not expired (t < its expiry). Debits are replayed in time order and consume the oldest
// usable credits first (FIFO). So, at any instant:
//   saldo = Σ remaining points of usable credits ≥ 0.

export interface Credit {
  id: number; // id_cartela_cliente
  pontos: number; // points originally credited
  dataMs: number; // posting instant
  maturesAtMs: number | null; // null: no carencia
  expiresAtMs: number; // first instant it is no longer valid
  dataValidade: string; // YYYY-MM-DD
}

export interface Debit {
  id: number;
  pontos: number;
  atMs: number;
}

export function isMatured(c: Credit, atMs: number): boolean {
  return c.maturesAtMs === null || atMs >= c.maturesAtMs;
}

export function isUsable(c: Credit, atMs: number): boolean {
  return isMatured(c, atMs) && atMs < c.expiresAtMs;
}

const oldestFirst = (a: Credit, b: Credit): number => a.dataMs - b.dataMs || a.id - b.id;

/**
 * Replays the debits (oldest first) over the credits and returns, per credit id, the points
 * not consumed. A debit consumes usable credits at its instant, oldest credit first; a debit
 * larger than what was usable consumes what there was (never below zero).
 *
 * One pass: debits come in time order, and a credit that is used up or expired at one
 * debit's instant stays so for every later debit, so the scan for each debit starts after
 * that leading run of spent credits. Only credits not yet matured at a debit (carencia, the
 * newest ones) are looked at again. Cost: credits + debits, not credits × debits.
 */
export function remainingAfterDebits(
  credits: readonly Credit[],
  debits: readonly Debit[],
): Map<number, number> {
  const fifo = [...credits].sort(oldestFirst);
  const left = fifo.map((c) => c.pontos);
  const ordered = [...debits].sort((a, b) => a.atMs - b.atMs || a.id - b.id);
  let head = 0;
  for (const debit of ordered) {
    while (head < fifo.length) {
      const c = fifo[head] as Credit;
      if ((left[head] as number) > 0 && debit.atMs < c.expiresAtMs) break;
      head++;
    }
    let due = debit.pontos;
    for (let i = head; i < fifo.length && due > 0; i++) {
      const c = fifo[i] as Credit;
      const have = left[i] as number;
      if (have <= 0 || !isUsable(c, debit.atMs)) continue;
      const take = Math.min(have, due);
      left[i] = have - take;
      due -= take;
    }
  }
  const remaining = new Map<number, number>();
  fifo.forEach((c, i) => remaining.set(c.id, left[i] as number));
  return remaining;
}

export interface WalletEntry {
  credit: Credit;
  pontos: number;
}

export interface WalletView {
  saldo: number;
  saldoCarencia: number;
  /** matured, unexpired credits with points left; soonest `data_validade` first */
  vencendo: WalletEntry[];
  /** expired credits that still had points left; most recent expiry first */
  vencidos: WalletEntry[];
  /** every credit with its original points; newest first */
  historico: WalletEntry[];
}

/** The wallet as seen at an instant. */
export function walletAt(
  credits: readonly Credit[],
  debits: readonly Debit[],
  nowMs: number,
): WalletView {
  const remaining = remainingAfterDebits(credits, debits);
  const left = (c: Credit): number => remaining.get(c.id) ?? 0;

  const vencendo = credits
    .filter((c) => isUsable(c, nowMs) && left(c) > 0)
    .sort((a, b) => a.expiresAtMs - b.expiresAtMs || oldestFirst(a, b))
    .map((credit) => ({ credit, pontos: left(credit) }));

  const vencidos = credits
    .filter((c) => nowMs >= c.expiresAtMs && left(c) > 0)
    .sort((a, b) => b.expiresAtMs - a.expiresAtMs || b.id - a.id)
    .map((credit) => ({ credit, pontos: left(credit) }));

  const historico = [...credits]
    .sort((a, b) => b.dataMs - a.dataMs || b.id - a.id)
    .map((credit) => ({ credit, pontos: credit.pontos }));

  const saldoCarencia = credits
    .filter((c) => !isMatured(c, nowMs) && nowMs < c.expiresAtMs)
    .reduce((sum, c) => sum + c.pontos, 0);

  const saldo = vencendo.reduce((sum, e) => sum + e.pontos, 0);
  return { saldo, saldoCarencia, vencendo, vencidos, historico };
}
