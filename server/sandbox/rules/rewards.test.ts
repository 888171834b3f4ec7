import { describe, expect, test } from 'vitest';
import { campaignWins, countersFor, effectiveStatus, emptyCounters, loyaltyWins } from './rewards';
import { rewardValidUntil } from './time';

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
