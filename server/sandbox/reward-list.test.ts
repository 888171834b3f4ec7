// The reward list's query plan and its answers against a plain reference query: every filter
// combination, at moments that make rewards expire, on records spread over many days.

import { beforeAll, describe, expect, test } from 'vitest';
import { MIGRATIONS, migrate, openDatabase, type Db } from './db';
import { CATEGORIES, STATUSES } from './rules/rewards';
import { DAY_MS, startOfLocalDay, startOfNextLocalDay } from '#contract/rules/time';
import type { RewardQuery } from '#contract/rules/reward-query';
import { seedDemoData } from './seed';
import { createStore, searchable, type Store } from './store';

const CREATED = Date.parse('2026-11-22T15:00:00Z');

/** The list as a plain query: every filter written out, every row read (the old way). */
function reference(db: Db, est: number, query: RewardQuery, nowMs: number) {
  const field =
    query.filtrar_por === 'data_conquista'
      ? 'data_conquista_ms'
      : {
          valido_ate: 'valido_ate_ms',
          data_resgate: 'data_resgate_ms',
          estornado_em: 'estornado_em_ms',
        }[query.filtrar_por];
  const rows = db
    .prepare(
      `SELECT pc.id, CASE WHEN pc.status = 'pendente_resgate' AND pc.valido_ate_ms + 1000 <= @now
                          THEN 'expirado' ELSE pc.status END AS st
       FROM premios_cliente pc JOIN premios p ON p.id = pc.premio_id
       WHERE pc.estabelecimento_id = @est
         AND (@cliente IS NULL OR pc.cliente_id = @cliente)
         AND (@categoria IS NULL OR p.categoria = @categoria)
         AND (@q IS NULL OR instr(p.nome_busca, @q) > 0)
         AND (@desde IS NULL OR pc.${field} >= @desde)
         AND (@ate IS NULL OR pc.${field} < @ate)
       ORDER BY pc.data_conquista_ms DESC, pc.id DESC`,
    )
    .all({
      est,
      now: nowMs,
      cliente: query.id_cliente ?? null,
      categoria: query.categoria ?? null,
      q: query.q === undefined ? null : searchable(query.q),
      desde: query.data_inicio === undefined ? null : startOfLocalDay(query.data_inicio),
      ate: query.data_fim === undefined ? null : startOfNextLocalDay(query.data_fim),
    }) as { id: number; st: string }[];
  const matching = rows.filter((r) => query.status === undefined || r.st === query.status);
  const from = (query.page - 1) * query.itens_por_pagina;
  return {
    total: matching.length,
    ids: matching.slice(from, from + query.itens_por_pagina).map((r) => r.id),
  };
}

function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let db: Db;
let store: Store;
const rand = prng(42);
const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;

beforeAll(() => {
  db = openDatabase(':memory:');
  migrate(db, (fresh) => seedDemoData(fresh, CREATED), CREATED);
  store = createStore(db);
  // Many more records over 120 days, at any hour (UTC and São Paulo days differ), some
  // redeemed or reversed later, some on the same instant (ties broken by id).
  const customers = db.prepare('SELECT id FROM clientes WHERE estabelecimento_id = 1').all() as {
    id: number;
  }[];
  for (let i = 0; i < 1500; i++) {
    const won = CREATED - Math.floor(rand() * 120 * DAY_MS);
    const at = i % 10 === 0 ? CREATED - 40 * DAY_MS : won;
    const id = store.grantReward(pick(customers).id, 1 + Math.floor(rand() * 6), at);
    const roll = rand();
    const later = at + Math.floor(rand() * 20 * DAY_MS);
    if (roll < 0.3 && later < CREATED) store.redeemReward(id, later);
    else if (roll < 0.4 && later < CREATED) store.reverseReward(id, later);
  }
});

function randomQuery(): RewardQuery {
  const date = (): string => new Date(CREATED - rand() * 150 * DAY_MS).toISOString().slice(0, 10);
  const range = rand() < 0.5 ? [date(), date()].sort() : [];
  const q: RewardQuery = {
    filtrar_por: pick(['data_conquista', 'valido_ate', 'data_resgate', 'estornado_em'] as const),
    itens_por_pagina: pick([1, 7, 15, 100]),
    page: 1,
  };
  if (rand() < 0.5) q.status = pick(STATUSES);
  if (rand() < 0.3) q.categoria = pick(CATEGORIES);
  if (rand() < 0.2) q.q = pick(['CANECA', 'vale', 'ã', 'grátis', 'nada disso']);
  if (rand() < 0.1) q.id_cliente = 1 + Math.floor(rand() * 45);
  if (range.length === 2) {
    if (rand() < 0.8) q.data_inicio = range[0];
    if (rand() < 0.8) q.data_fim = range[1];
  }
  return q;
}

describe('reward list against the plain reference query', () => {
  test('250 random filter combinations, pages and moments give the same total and page', () => {
    let compared = 0;
    let nonEmpty = 0;
    for (let i = 0; i < 250; i++) {
      const query = randomQuery();
      // Moments around the validity ends of recent rewards, and far before and after.
      const now = CREATED + Math.floor((rand() - 0.7) * 200 * DAY_MS);
      const ref = reference(db, 1, query, now);
      const lastPage = Math.max(1, Math.ceil(ref.total / query.itens_por_pagina));
      for (const page of [1, lastPage, 1 + Math.floor(rand() * lastPage), lastPage + 1]) {
        const q = { ...query, page };
        const want = reference(db, 1, q, now);
        const got = store.listRewards(1, q, now);
        expect({ total: got.total, ids: got.records.map((r) => r.id_premio_cliente) }).toEqual(
          want,
        );
        compared++;
        if (want.ids.length > 0) nonEmpty++;
      }
    }
    console.log(`reward list: ${compared} pages compared, ${nonEmpty} non-empty`);
    expect(nonEmpty).toBeGreaterThan(compared / 2);
  }, 60_000);

  test('a status change moves a record between the counts at once', () => {
    const q: RewardQuery = { filtrar_por: 'data_conquista', itens_por_pagina: 15, page: 1 };
    const count = (status: RewardQuery['status']) =>
      store.listRewards(1, { ...q, status }, CREATED).total;
    const before = { p: count('pendente_resgate'), r: count('resgatado') };
    const id = store.grantReward(1, 3, CREATED - 1000);
    expect(count('pendente_resgate')).toBe(before.p + 1);
    store.redeemReward(id, CREATED);
    expect(count('pendente_resgate')).toBe(before.p);
    expect(count('resgatado')).toBe(before.r + 1);
  });
});

describe('a database made before the per-day counts', () => {
  test('migrating fills them from the records already there, and the lists agree', () => {
    const old = openDatabase(':memory:');
    old.exec(
      'CREATE TABLE schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at_ms INTEGER NOT NULL)',
    );
    // Version 1's schema with data: the seed needs today's store, so the later columns are
    // added for it and dropped again before migrating.
    const [first, , third] = MIGRATIONS;
    old.exec(first!.sql);
    old.exec(third!.sql);
    old.prepare('INSERT INTO schema_version VALUES (?, ?, ?)').run(1, first!.name, CREATED);
    seedDemoData(old, CREATED);
    old.exec(`DROP INDEX cartela_aberta; DROP INDEX cartela_sem_restante;
              DROP INDEX debitos_cliente_momento; ALTER TABLE cartela DROP COLUMN restante;`);
    const before = (old.prepare('SELECT COUNT(*) AS n FROM premios_cliente').get() as { n: number })
      .n;
    expect(before).toBeGreaterThan(10);
    expect(migrate(old, () => {}, CREATED)).toBe(1);
    const oldStore = createStore(old);
    for (let i = 0; i < 60; i++) {
      const query = randomQuery();
      const now = CREATED + Math.floor((rand() - 0.7) * 200 * DAY_MS);
      const got = oldStore.listRewards(1, query, now);
      expect({ total: got.total, ids: got.records.map((r) => r.id_premio_cliente) }).toEqual(
        reference(old, 1, query, now),
      );
    }
    // Migration 3 on the same data: a seeded customer's next posting replays the wallet once
    // and stores every credit's points left.
    const maria = oldStore.postPoints(
      oldStore.establishment(1)!,
      { valor_gasto: 20_000, cliente: { celular: '+5511987654321' }, itens: [] },
      CREATED,
    );
    expect(maria.saldo_atual).toBe(
      oldStore.customer(maria.id_cliente, CREATED, { historico: false })!.carteira.saldo,
    );
    const unknown = old
      .prepare('SELECT COUNT(*) AS n FROM cartela WHERE cliente_id = ? AND restante IS NULL')
      .get(maria.id_cliente);
    expect(unknown).toEqual({ n: 0 });
    old.close();
  });
});

describe('reward list query plans', () => {
  const variants: [string, Partial<RewardQuery>][] = [
    ['no filter', {}],
    ...STATUSES.map((s): [string, Partial<RewardQuery>] => [`status ${s}`, { status: s }]),
    ['categoria', { categoria: 'brinde_roleta' }],
    ['q', { q: 'caneca' }],
    ['customer', { id_cliente: 1 }],
    ['customer + status', { id_cliente: 1, status: 'expirado' }],
    ['data_conquista range', { data_inicio: '2026-09-01', data_fim: '2026-10-15' }],
    ['valido_ate from', { filtrar_por: 'valido_ate', data_inicio: '2026-10-01' }],
    ['data_resgate until', { filtrar_por: 'data_resgate', data_fim: '2026-10-01' }],
    [
      'data_resgate range + status',
      {
        filtrar_por: 'data_resgate',
        data_inicio: '2026-09-10',
        data_fim: '2026-10-20',
        status: 'resgatado',
      },
    ],
    [
      'data_resgate from + q',
      { filtrar_por: 'data_resgate', data_inicio: '2026-10-01', q: 'vale' },
    ],
    [
      'estornado_em range + categoria + status',
      {
        filtrar_por: 'estornado_em',
        data_inicio: '2026-08-01',
        data_fim: '2026-11-01',
        categoria: 'premio_game',
        status: 'estornado',
      },
    ],
  ];
  test.each(variants)('%s: no full scan, no sort, deep pages included', (label, extra) => {
    for (const page of [1, 5, 40]) {
      const query: RewardQuery = {
        filtrar_por: 'data_conquista',
        itens_por_pagina: 15,
        page,
        ...extra,
      };
      const plans = store.rewardListPlans(1, query, CREATED);
      expect(plans.length).toBeGreaterThan(0);
      for (const { sql, plan } of plans) {
        const text = plan.join('\n');
        expect(text).not.toMatch(/\bSCAN\b/);
        expect(text).not.toMatch(/TEMP B-TREE/);
        expect(text).toMatch(
          /SEARCH (premios_cliente|premios_cliente_resumo|premios_cliente_resgate) USING/,
        );
        // One lower and one upper bound per date column: with two, the planner may bound
        // the index range by the wider pair and read a whole date range to reach a page.
        for (const column of ['data_conquista_ms', 'valido_ate_ms', 'data_resgate_ms']) {
          expect(sql.split(`${column} >=`).length, sql).toBeLessThanOrEqual(2);
          expect(sql.split(`${column} <`).length, sql).toBeLessThanOrEqual(2);
        }
      }
      if (label.startsWith('data_resgate')) {
        // The days a redemption range cuts through are counted from the per-day-redeemed
        // table, never record by record.
        expect(plans.some((s) => s.sql.includes('premios_cliente_resgate'))).toBe(true);
        expect(plans.filter((s) => s.sql.includes('COUNT(*)'))).toEqual([]);
      }
    }
  });
});
