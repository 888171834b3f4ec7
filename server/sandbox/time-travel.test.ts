import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { Sandbox } from './sandbox';
import { get, openTestSandbox, pontuarBody, post, expectRefusal } from '../testing/sandbox';

let sb: Sandbox;
beforeEach(() => {
  sb = openTestSandbox();
});
afterEach(() => sb.close());

const PHONE = '+5511955554444';

const buscar = async (now: string, est = 1) =>
  (await post(sb, '/clientes/buscar', { celular: PHONE }, { est, now })).json.data;

describe('x-sandbox-now', () => {
  test('the far ends of the allowed range work for writes', async () => {
    for (const now of ['2999-12-31T23:59:59-03:00', '1970-01-01T00:00:00Z']) {
      const r = await post(sb, '/fidelidade/pontuar', pontuarBody(PHONE, 1000), { now });
      expect(r.status, now).toBe(200);
    }
    const c = await buscar('2999-12-31T23:59:59-03:00');
    expect(c.carteira.historico[0]).toMatchObject({
      data: '2999-12-31 23:59:59',
      data_validade: '3000-12-31',
    });
  });

  test('what a request writes is stamped with that moment', async () => {
    const r = await post(
      sb,
      '/clientes/cadastrar',
      { celular: PHONE },
      { now: '2026-12-05T08:30:00Z' },
    );
    expect(r.status).toBe(201);
    expect(r.json.data.data_cadastro).toBe('2026-12-05 05:30:00');
    await post(sb, '/fidelidade/pontuar', pontuarBody(PHONE, 1000), {
      now: '2026-12-24T18:15:00-03:00',
    });
    const c = await buscar('2026-12-25T10:00:00-03:00');
    expect(c.primeira_compra).toBe('2026-12-24 18:15:00');
    expect(c.carteira.historico[0]).toMatchObject({
      data: '2026-12-24 18:15:00',
      data_validade: '2027-12-31',
    });
  });

  test.each([
    'ontem',
    '2026-11-23',
    '2026-11-23T09:00:00',
    '2026-13-01T00:00:00Z',
    '9999-12-31T23:59:59Z',
    '1969-12-31T23:59:59Z',
  ])('an unparsable value %j is a 400', async (now) => {
    const r = await get(sb, '/recompensas', { now });
    expectRefusal(r, 400, expect.stringContaining('x-sandbox-now'));
  });

  test('carencia points mature at the next midnight in São Paulo', async () => {
    const r = await post(sb, '/fidelidade/pontuar', pontuarBody(PHONE, 26_000, {}, 2), {
      est: 2,
      now: '2026-11-23T09:00:00-03:00',
    });
    expect(r.json.data).toMatchObject({ saldo_atual: 0, saldo_carencia: 52 });

    const lateEvening = await buscar('2026-11-23T23:59:59-03:00', 2);
    expect(lateEvening.carteira).toMatchObject({
      saldo: 0,
      saldo_carencia: 52,
      pontos_vencendo: [],
    });

    const utcNextDay = await buscar('2026-11-24T01:00:00Z', 2); // still 23 Nov in São Paulo
    expect(utcNextDay.carteira.saldo).toBe(0);

    const midnight = await buscar('2026-11-24T00:00:00-03:00', 2);
    expect(midnight.carteira).toMatchObject({ saldo: 52, saldo_carencia: 0 });
    expect(midnight.carteira.pontos_vencendo).toEqual([
      expect.objectContaining({
        pontos: 52,
        data: '2026-11-23 09:00:00',
        data_validade: '2027-11-30',
      }),
    ]);
  });

  test('carencia points count for rewards only from the first posting after they mature', async () => {
    const first = await post(sb, '/fidelidade/pontuar', pontuarBody(PHONE, 26_000, {}, 2), {
      est: 2,
      now: '2026-11-23T09:00:00-03:00',
    });
    expect(first.json.data).toMatchObject({ saldo_atual: 0, saldo_carencia: 52 });
    const sameDay = await post(sb, '/fidelidade/pontuar', pontuarBody(PHONE, 500, {}, 2), {
      est: 2,
      now: '2026-11-23T15:00:00-03:00',
    });
    expect(sameDay.json.data).toMatchObject({ saldo_atual: 0, saldo_carencia: 53 });

    // The next day, 53 points have matured; waiting alone wins nothing...
    const waiting = await buscar('2026-11-24T10:00:00-03:00', 2);
    expect(waiting.carteira.saldo).toBe(53);
    expect(waiting.conquistados_premio_fidelidade).toBe(0);

    // ...the next posting does: 53 ≥ 50, so the reward is won and 50 points are paid.
    const next = await post(sb, '/fidelidade/pontuar', pontuarBody(PHONE, 1000, {}, 2), {
      est: 2,
      now: '2026-11-24T10:00:00-03:00',
    });
    expect(next.json.data).toMatchObject({ saldo_atual: 3, saldo_carencia: 2 });
    const after = await buscar('2026-11-24T10:00:00-03:00', 2);
    expect(after).toMatchObject({
      conquistados_premio_fidelidade: 1,
      pendente_resgate_premio_fidelidade: 1,
      carteira: { saldo: 3, saldo_carencia: 2 },
    });
    // FIFO: the oldest credit paid the whole cost.
    expect(after.carteira.pontos_vencendo).toEqual([
      expect.objectContaining({ pontos: 2, data: '2026-11-23 09:00:00' }),
      expect.objectContaining({ pontos: 1, data: '2026-11-23 15:00:00' }),
    ]);
    const list = await get(sb, '/recompensas', { est: 2, now: '2026-11-24T10:00:00-03:00' });
    expect(list.json.data.data[0]).toMatchObject({
      nome: 'Café expresso grátis',
      categoria_premio: 'premio_fidelidade',
      data_conquista: '2026-11-24 10:00:00',
      valido_ate: '2026-12-24 23:59:59',
    });
  });

  test('points expire after data_validade and move to pontos_vencidos', async () => {
    await post(sb, '/fidelidade/pontuar', pontuarBody(PHONE, 8_000), {
      now: '2026-11-23T10:00:00-03:00',
    });
    const lastDay = await buscar('2027-11-30T23:59:59-03:00');
    expect(lastDay.carteira).toMatchObject({ saldo: 80, pontos_vencidos: [] });
    const dayAfter = await buscar('2027-12-01T00:00:00-03:00');
    expect(dayAfter.carteira.saldo).toBe(0);
    expect(dayAfter.carteira.pontos_vencendo).toEqual([]);
    expect(dayAfter.carteira.pontos_vencidos).toEqual([
      expect.objectContaining({ pontos: 80, tipo: 'credito', data_validade: '2027-11-30' }),
    ]);
    expect(dayAfter.carteira.historico).toHaveLength(1);
  });

  test('expired points are not counted toward a reward', async () => {
    await post(sb, '/fidelidade/pontuar', pontuarBody(PHONE, 8_000), {
      now: '2026-11-23T10:00:00-03:00',
    });
    const r = await post(sb, '/fidelidade/pontuar', pontuarBody(PHONE, 3_000), {
      now: '2027-12-02T10:00:00-03:00',
    });
    expect(r.json.data.saldo_atual).toBe(30);
    const c = await buscar('2027-12-02T10:00:00-03:00');
    expect(c.conquistados_premio_fidelidade).toBe(0);
    expect(c.carteira.pontos_vencidos.map((e: { pontos: number }) => e.pontos)).toEqual([80]);
  });

  test('a pendente_resgate reward reads as expirado after its 30 days, everywhere', async () => {
    const won = await post(sb, '/fidelidade/pontuar', pontuarBody(PHONE, 10_000), {
      now: '2026-11-23T10:00:00-03:00',
    });
    const id = won.json.data.id_cliente;
    const at = async (now: string) => {
      const list = await get(sb, `/recompensas?id_cliente=${id}`, { now });
      const expired = await get(sb, `/recompensas?id_cliente=${id}&status=expirado`, { now });
      const pending = await get(sb, `/recompensas?id_cliente=${id}&status=pendente_resgate`, {
        now,
      });
      return {
        list: list.json.data,
        expired: expired.json.data.total,
        pending: pending.json.data.total,
        customer: await buscar(now),
      };
    };

    const lastSecond = await at('2026-12-23T23:59:59-03:00');
    expect(lastSecond.list.data[0]).toMatchObject({
      premio_status: 'pendente_resgate',
      valido_ate: '2026-12-23 23:59:59',
    });
    expect([lastSecond.pending, lastSecond.expired]).toEqual([1, 0]);
    expect(lastSecond.customer).toMatchObject({
      pendente_resgate_premio_fidelidade: 1,
      expirado_premio_fidelidade: 0,
    });

    const nextDay = await at('2026-12-24T00:00:00-03:00');
    expect(nextDay.list.data[0]).toMatchObject({ premio_status: 'expirado' });
    expect([nextDay.pending, nextDay.expired]).toEqual([0, 1]);
    expect(nextDay.customer).toMatchObject({
      conquistados_premio_fidelidade: 1,
      pendente_resgate_premio_fidelidade: 0,
      expirado_premio_fidelidade: 1,
    });
  });

  test('the seeded data looks current whatever day the database is created', async () => {
    const later = openTestSandbox(':memory:', '2030-03-10T15:00:00-03:00');
    try {
      const maria = await post(later, '/clientes/buscar', { id_cliente: 1 });
      expect(maria.json.data.carteira.saldo).toBe(75);
      expect(maria.json.data.ultima_compra.slice(0, 10)).toBe('2030-03-05');
      const newest = await get(later, '/recompensas?itens_por_pagina=1');
      expect(newest.json.data.data[0].data_conquista.slice(0, 7)).toMatch(/^2030-0[23]/);
    } finally {
      later.close();
    }
  });
});
