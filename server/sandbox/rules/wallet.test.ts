import { describe, expect, test } from 'vitest';
import { creditExpiresAt, creditValidity, nextLocalMidnight } from '#contract/rules/time';
import { remainingAfterDebits, walletAt, type Credit, type Debit } from './wallet';

const at = (iso: string): number => Date.parse(iso);

let nextId = 1;
function credit(iso: string, pontos: number, opts: { carencia?: boolean } = {}): Credit {
  const dataMs = at(iso);
  const dataValidade = creditValidity(dataMs);
  return {
    id: nextId++,
    pontos,
    dataMs,
    maturesAtMs: opts.carencia ? nextLocalMidnight(dataMs) : null,
    expiresAtMs: creditExpiresAt(dataValidade),
    dataValidade,
  };
}
const debit = (iso: string, pontos: number, id = nextId++): Debit => ({
  id,
  pontos,
  atMs: at(iso),
});

describe('FIFO debits', () => {
  test('a debit consumes the oldest credits first', () => {
    const a = credit('2026-01-10T10:00:00-03:00', 60);
    const b = credit('2026-03-10T10:00:00-03:00', 70);
    const c = credit('2026-05-10T10:00:00-03:00', 30);
    const left = remainingAfterDebits([c, a, b], [debit('2026-05-10T10:00:00-03:00', 100)]);
    expect(left.get(a.id)).toBe(0);
    expect(left.get(b.id)).toBe(30);
    expect(left.get(c.id)).toBe(30);
  });

  test('a debit never consumes credits still in carencia', () => {
    const old = credit('2026-05-01T10:00:00-03:00', 40, { carencia: true });
    const fresh = credit('2026-05-10T10:00:00-03:00', 80, { carencia: true });
    const left = remainingAfterDebits([old, fresh], [debit('2026-05-10T10:00:00-03:00', 50)]);
    expect(left.get(old.id)).toBe(0);
    expect(left.get(fresh.id)).toBe(80);
  });

  test('an expired credit is not consumed; the next valid one is', () => {
    const expired = credit('2025-01-05T10:00:00-03:00', 90); // valid through 2026-01-31
    const valid = credit('2026-01-20T10:00:00-03:00', 120);
    const left = remainingAfterDebits([expired, valid], [debit('2026-02-01T10:00:00-03:00', 100)]);
    expect(left.get(expired.id)).toBe(90);
    expect(left.get(valid.id)).toBe(20);
  });
});

describe('wallet at an instant', () => {
  test('saldo is the unconsumed, matured, unexpired points and equals the sum of pontos_vencendo', () => {
    const a = credit('2026-01-10T10:00:00-03:00', 120);
    const b = credit('2026-06-10T10:00:00-03:00', 45);
    const w = walletAt(
      [a, b],
      [debit('2026-01-10T10:00:00-03:00', 100)],
      at('2026-11-22T12:00:00-03:00'),
    );
    expect(w.saldo).toBe(65);
    expect(w.vencendo.map((e) => [e.credit.id, e.pontos])).toEqual([
      [a.id, 20],
      [b.id, 45],
    ]);
    expect(w.vencendo.reduce((s, e) => s + e.pontos, 0)).toBe(w.saldo);
    expect(w.historico.map((e) => [e.credit.id, e.pontos])).toEqual([
      [b.id, 45],
      [a.id, 120],
    ]);
    expect(w.vencidos).toEqual([]);
  });

  test('points leave saldo for pontos_vencidos after data_validade, only what was left', () => {
    const a = credit('2025-10-15T10:00:00-03:00', 150); // valid through 2026-10-31
    const b = credit('2026-02-15T10:00:00-03:00', 30);
    const debits = [debit('2025-12-01T10:00:00-03:00', 100)];
    const lastValidDay = walletAt([a, b], debits, at('2026-10-31T23:59:59-03:00'));
    expect(lastValidDay.saldo).toBe(80);
    const dayAfter = walletAt([a, b], debits, at('2026-11-01T00:00:00-03:00'));
    expect(dayAfter.saldo).toBe(30);
    expect(dayAfter.vencidos.map((e) => [e.credit.id, e.pontos, e.credit.dataValidade])).toEqual([
      [a.id, 50, '2026-10-31'],
    ]);
  });

  test('pontos_vencidos lists the most recent expiry first and skips fully used credits', () => {
    const a = credit('2024-03-01T10:00:00-03:00', 10);
    const b = credit('2024-06-01T10:00:00-03:00', 20);
    const used = credit('2024-07-01T10:00:00-03:00', 5);
    const w = walletAt(
      [a, b, used],
      [debit('2024-07-01T10:00:00-03:00', 35)],
      at('2026-01-01T10:00:00-03:00'),
    );
    expect(w.vencidos).toEqual([]);
    const w2 = walletAt([a, b, used], [], at('2026-01-01T10:00:00-03:00'));
    expect(w2.vencidos.map((e) => e.credit.id)).toEqual([used.id, b.id, a.id]);
  });

  test('pontos_vencendo lists the soonest data_validade first', () => {
    const late = credit('2026-09-01T10:00:00-03:00', 5);
    const early = credit('2026-02-01T10:00:00-03:00', 7);
    const w = walletAt([late, early], [], at('2026-11-22T10:00:00-03:00'));
    expect(w.vencendo.map((e) => e.credit.dataValidade)).toEqual(['2027-02-28', '2027-09-30']);
  });

  test('carencia points are in saldo_carencia until the next São Paulo midnight', () => {
    const c = credit('2026-11-22T22:30:00-03:00', 5, { carencia: true });
    const before = walletAt([c], [], at('2026-11-22T23:59:59-03:00'));
    expect([before.saldo, before.saldoCarencia]).toEqual([0, 5]);
    expect(before.vencendo).toEqual([]);
    expect(before.historico).toHaveLength(1);
    const after = walletAt([c], [], at('2026-11-23T00:00:00-03:00'));
    expect([after.saldo, after.saldoCarencia]).toEqual([5, 0]);
  });

  test('a debit larger than the balance never makes saldo negative', () => {
    const a = credit('2026-01-10T10:00:00-03:00', 10);
    const w = walletAt(
      [a],
      [debit('2026-01-10T10:00:00-03:00', 50)],
      at('2026-02-01T10:00:00-03:00'),
    );
    expect(w.saldo).toBe(0);
  });
});

describe('one-pass replay', () => {
  /** The replay as first written: every debit looks at every credit. */
  function quadratic(credits: readonly Credit[], debits: readonly Debit[]): Map<number, number> {
    const remaining = new Map<number, number>(credits.map((c) => [c.id, c.pontos]));
    const fifo = [...credits].sort((a, b) => a.dataMs - b.dataMs || a.id - b.id);
    const ordered = [...debits].sort((a, b) => a.atMs - b.atMs || a.id - b.id);
    for (const d of ordered) {
      let due = d.pontos;
      for (const c of fifo) {
        if (due <= 0) break;
        const usable =
          (c.maturesAtMs === null || d.atMs >= c.maturesAtMs) && d.atMs < c.expiresAtMs;
        const left = remaining.get(c.id) ?? 0;
        if (!usable || left <= 0) continue;
        const take = Math.min(left, due);
        remaining.set(c.id, left - take);
        due -= take;
      }
    }
    return remaining;
  }

  test('gives what the credits × debits replay gives, with carencia, expiry and debits out of order', () => {
    let seed = 7;
    const rand = (): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const start = at('2022-01-01T00:00:00-03:00');
    const span = 4 * 365 * 86_400_000;
    let debitsSeen = 0;
    for (let round = 0; round < 200; round++) {
      const credits: Credit[] = [];
      const debits: Debit[] = [];
      const carencia = rand() < 0.5;
      for (let i = 0; i < 1 + Math.floor(rand() * 40); i++) {
        const iso = new Date(start + Math.floor(rand() * span)).toISOString();
        credits.push(credit(iso, Math.floor(rand() * 90), { carencia }));
      }
      for (let i = 0; i < Math.floor(rand() * 30); i++) {
        // Some debits at the same instant as a credit (same-day carencia), some anywhere.
        const base =
          rand() < 0.3 ? (credits[i % credits.length]?.dataMs ?? start) : start + rand() * span;
        debits.push(debit(new Date(Math.floor(base)).toISOString(), 1 + Math.floor(rand() * 150)));
      }
      debitsSeen += debits.length;
      expect(remainingAfterDebits(credits, debits)).toEqual(quadratic(credits, debits));
    }
    expect(debitsSeen).toBeGreaterThan(1000);
  });
});
