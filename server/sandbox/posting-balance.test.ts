// A posting answers saldo_atual/saldo_carencia without reading the wallet twice: the figures
// must be what a lookup at the same moment shows, also when x-sandbox-now goes back in time
// before debits already made, and with carencia.

import { afterEach, beforeEach, expect, test } from 'vitest';
import type { Sandbox } from './sandbox';
import { openTestSandbox, pontuarBody, post } from './testing';

let sb: Sandbox;
beforeEach(() => {
  sb = openTestSandbox();
});
afterEach(() => sb.close());

async function postAndLook(celular: string, valor: number, now: string, est = 1) {
  const p = await post(sb, '/fidelidade/pontuar', pontuarBody(celular, valor, {}, est), {
    now,
    est,
  });
  expect(p.status).toBe(200);
  const l = await post(sb, '/clientes/buscar', { celular }, { now, est });
  expect(l.status).toBe(200);
  return {
    posted: { saldo: p.json.data.saldo_atual, carencia: p.json.data.saldo_carencia },
    looked: { saldo: l.json.data.carteira.saldo, carencia: l.json.data.carteira.saldo_carencia },
  };
}

test('each posting answers the balance a lookup at that moment shows', async () => {
  const moments = [
    ['2026-06-10T10:00:00-03:00', 15_000], // wins a 100-point reward
    ['2026-09-10T10:00:00-03:00', 9_000],
    ['2026-03-01T10:00:00-03:00', 12_000], // before the debits above
    ['2026-01-01T10:00:00-03:00', 30_000],
    ['2026-11-01T10:00:00-03:00', 25_000],
    ['2026-08-01T10:00:00-03:00', 5_000],
  ] as const;
  let wins = 0;
  for (const [now, valor] of moments) {
    const r = await postAndLook('+5511911112222', valor, now);
    expect(r.posted).toEqual(r.looked);
    if (valor >= 10_000) wins++;
  }
  expect(wins).toBeGreaterThan(2);
});

test('with carencia the balance in carencia is answered too', async () => {
  for (const now of [
    '2026-06-10T10:00:00-03:00',
    '2026-06-10T15:00:00-03:00',
    '2026-06-12T09:00:00-03:00',
    '2026-06-01T09:00:00-03:00',
  ]) {
    const r = await postAndLook('+5511933334444', 30_000, now, 2);
    expect(r.posted).toEqual(r.looked);
  }
});
