import { describe, expect, test } from 'vitest';
import {
  campaignWins,
  countersFor,
  effectiveStatus,
  emptyCounters,
  loyaltyWins,
  rewardToHandOver,
  type HandOverCandidate,
} from './rewards';
import { rewardValidUntil } from '#contract/rules/time';

describe('loyalty rewards', () => {
  test('nothing is won below the cheapest cost', () => {
    expect(loyaltyWins(99, [{ id: 1, custo: 100 }])).toEqual({ won: [], saldo: 99 });
  });

  test('one posting can win several times, and the cost is paid each time', () => {
    const r = loyaltyWins(250, [{ id: 1, custo: 100 }]);
    expect(r.won.map((w) => w.id)).toEqual([1, 1]);
    expect(r.saldo).toBe(50);
  });

  test('the cheapest reward is the one won', () => {
    const r = loyaltyWins(130, [
      { id: 1, custo: 100 },
      { id: 2, custo: 60 },
    ]);
    expect(r.won.map((w) => w.id)).toEqual([2, 2]);
    expect(r.saldo).toBe(10);
  });

  test('an establishment without loyalty rewards wins nothing', () => {
    expect(loyaltyWins(1000, [])).toEqual({ won: [], saldo: 1000 });
  });
});

describe('campaign rewards', () => {
  const campaigns = [{ id: 7, termo: 'refrigerante' }];

  test('an item whose description contains the term, in any case, wins once', () => {
    const itens = [
      { descricao: 'REFRIGERANTE cola 2 L' },
      { descricao: 'Refrigerante guaraná' },
      { descricao: 'Pão' },
    ];
    expect(campaignWins(campaigns, itens).map((c) => c.id)).toEqual([7]);
  });

  test('a basket without the term, or without descriptions, wins nothing', () => {
    expect(campaignWins(campaigns, [{ descricao: 'Suco de laranja' }, {}])).toEqual([]);
    expect(campaignWins(campaigns, [])).toEqual([]);
  });
});

describe('reward status and counters', () => {
  const won = Date.parse('2026-10-01T10:00:00-03:00');
  const until = rewardValidUntil(won); // 2026-10-31 23:59:59

  test('a pendente_resgate reward past valido_ate reads as expirado', () => {
    expect(
      effectiveStatus('pendente_resgate', until, Date.parse('2026-10-31T23:59:59-03:00')),
    ).toBe('pendente_resgate');
    expect(
      effectiveStatus('pendente_resgate', until, Date.parse('2026-11-01T00:00:00-03:00')),
    ).toBe('expirado');
  });

  test('redeemed and reversed rewards keep their status after valido_ate', () => {
    const later = Date.parse('2027-01-01T00:00:00-03:00');
    expect(effectiveStatus('resgatado', until, later)).toBe('resgatado');
    expect(effectiveStatus('estornado', until, later)).toBe('estornado');
  });

  test('counters come from the records; conquistados counts every status, estornado included', () => {
    const c = countersFor([
      { categoria: 'premio_fidelidade', status: 'pendente_resgate' },
      { categoria: 'premio_fidelidade', status: 'resgatado' },
      { categoria: 'premio_fidelidade', status: 'expirado' },
      { categoria: 'premio_campanha', status: 'estornado' },
      { categoria: 'premio_game', status: 'resgatado' },
    ]);
    expect(c).toEqual({
      ...emptyCounters(),
      conquistados_premio_fidelidade: 3,
      pendente_resgate_premio_fidelidade: 1,
      resgatado_premio_fidelidade: 1,
      expirado_premio_fidelidade: 1,
      conquistados_premio_campanha: 1,
      conquistados_premio_game: 1,
      resgatado_premio_game: 1,
    });
  });

  test('there are 20 counters, all zero for a new customer', () => {
    const c = emptyCounters();
    expect(Object.keys(c)).toHaveLength(20);
    expect(Object.values(c).every((v) => v === 0)).toBe(true);
  });
});

describe('the record a hand-over takes', () => {
  const won = Date.parse('2026-10-01T10:00:00-03:00');
  const until = rewardValidUntil(won); // 2026-10-31 23:59:59
  const now = Date.parse('2026-10-15T12:00:00-03:00');
  const rec = (id: number, over: Partial<HandOverCandidate> = {}): HandOverCandidate => ({
    id,
    status: 'pendente_resgate',
    wonAtMs: won,
    validUntilMs: until,
    ...over,
  });

  test('none: nothing was won', () => {
    expect(rewardToHandOver([], now)).toBeNull();
  });

  test('the oldest pending record, by the moment it was won', () => {
    const newer = rec(1, { wonAtMs: won + 60_000, validUntilMs: until });
    const older = rec(2);
    expect(rewardToHandOver([newer, older], now)?.id).toBe(2);
  });

  test('records won at the same instant: the lowest id first, whatever their order', () => {
    expect(rewardToHandOver([rec(9), rec(4), rec(7)], now)?.id).toBe(4);
  });

  test('resgatado and estornado records are never taken', () => {
    expect(rewardToHandOver([rec(1, { status: 'resgatado' })], now)).toBeNull();
    expect(rewardToHandOver([rec(1, { status: 'estornado' })], now)).toBeNull();
    expect(
      rewardToHandOver([rec(1, { status: 'resgatado' }), rec(2, { wonAtMs: won + 1 })], now)?.id,
    ).toBe(2);
  });

  test('valid through the last second of valido_ate, expired from the next', () => {
    const lastSecond = Date.parse('2026-10-31T23:59:59.999-03:00');
    const nextSecond = Date.parse('2026-11-01T00:00:00-03:00');
    expect(rewardToHandOver([rec(1)], lastSecond)?.id).toBe(1);
    expect(rewardToHandOver([rec(1)], nextSecond)).toBeNull();
  });

  test('an expired older record is skipped for a newer one still valid', () => {
    const old = rec(1, { wonAtMs: won - 40 * 86_400_000, validUntilMs: until - 40 * 86_400_000 });
    expect(rewardToHandOver([old, rec(2)], now)?.id).toBe(2);
    expect(rewardToHandOver([old], now)).toBeNull();
  });

  test('a record not yet won at that moment (x-sandbox-now before it) is not taken', () => {
    expect(rewardToHandOver([rec(1)], won - 1)).toBeNull();
    expect(rewardToHandOver([rec(1)], won)?.id).toBe(1);
    const later = rec(2, { wonAtMs: won + 1000 });
    expect(rewardToHandOver([later, rec(1)], won)?.id).toBe(1);
  });
});
