// A posting answers saldo_atual/saldo_carencia without reading the wallet twice: the figures
// must be what a lookup at the same moment shows, also when x-sandbox-now goes back in time
// before debits already made, and with carencia.

import { afterEach, beforeEach, expect, test } from 'vitest';
import { migrate, openDatabase } from './db';
import { remainingAfterDebits } from './rules/wallet';
import type { Sandbox } from './sandbox';
import { seedDemoData } from './seed';
import { createStore } from './store';
import { openTestSandbox, pontuarBody, post } from '../testing/sandbox';

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

test('the points left kept per credit always equal a full replay, and postings answer the replayed balance', () => {
  const db = openDatabase(':memory:');
  const start = Date.parse('2026-01-05T13:00:00Z');
  migrate(db, (fresh) => seedDemoData(fresh, start), start);
  const store = createStore(db);
  let seed = 11;
  const rand = (): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const phones = ['+5511955550001', '+5511955550002', '+5511955550003'];
  let clock = start;
  let slow = 0;
  for (let i = 0; i < 400; i++) {
    const est = store.establishment(i % 5 === 0 ? 2 : 1)!;
    // Mostly forward in time; now and then back before debits already made.
    const back = rand() < 0.08;
    const at = back
      ? clock - Math.floor(rand() * 200 * 86_400_000)
      : (clock += Math.floor(rand() * 3 * 86_400_000));
    if (back) slow++;
    const celular = phones[i % phones.length]!;
    const r = store.postPoints(
      est,
      { valor_gasto: 500 + Math.floor(rand() * 9000), cliente: { celular }, itens: [] },
      at,
    );
    const looked = store.customer(r.id_cliente, at, { historico: false })!;
    expect({ saldo: r.saldo_atual, carencia: r.saldo_carencia }).toEqual({
      saldo: looked.carteira.saldo,
      carencia: looked.carteira.saldo_carencia,
    });
  }
  const clientes = db.prepare('SELECT DISTINCT cliente_id AS id FROM cartela').all() as {
    id: number;
  }[];
  let checked = 0;
  for (const { id } of clientes) {
    const credits = db.prepare('SELECT * FROM cartela WHERE cliente_id = ?').all(id) as {
      id: number;
      pontos: number;
      data_ms: number;
      matura_ms: number | null;
      expira_ms: number;
      data_validade: string;
      restante: number | null;
    }[];
    const debits = (
      db.prepare('SELECT id, pontos, momento_ms FROM debitos WHERE cliente_id = ?').all(id) as {
        id: number;
        pontos: number;
        momento_ms: number;
      }[]
    ).map((d) => ({ id: d.id, pontos: d.pontos, atMs: d.momento_ms }));
    const left = remainingAfterDebits(
      credits.map((c) => ({
        id: c.id,
        pontos: c.pontos,
        dataMs: c.data_ms,
        maturesAtMs: c.matura_ms,
        expiresAtMs: c.expira_ms,
        dataValidade: c.data_validade,
      })),
      debits,
    );
    for (const c of credits) {
      // Seeded customers not posted to since keep NULL until their next posting.
      if (c.restante === null) continue;
      expect(c.restante, `credit ${c.id}`).toBe(left.get(c.id));
      checked++;
    }
  }
  const debitCount = (db.prepare('SELECT COUNT(*) AS n FROM debitos').get() as { n: number }).n;
  console.log(
    `points left: ${checked} credits checked, ${debitCount} debits, ${slow} postings back in time`,
  );
  expect(checked).toBeGreaterThan(350);
  expect(debitCount).toBeGreaterThan(50);
  db.close();
});
