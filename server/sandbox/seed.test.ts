import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { migrate, openDatabase, type Db } from './db';
import { isValidCpfDigits as isValidCpf } from '#contract/wire';
import { CATEGORIES, STATUSES, effectiveStatus, type StoredStatus } from './rules/rewards';
import { formatTimestamp } from '#contract/rules/time';
import { DEMO_CUSTOMERS, seedDemoData } from './seed';
import { createStore, type Store } from './store';

const NOW = Date.parse('2026-11-22T12:00:00-03:00');

function seeded(now = NOW): { db: Db; store: Store } {
  const db = openDatabase(':memory:');
  migrate(db, (d) => seedDemoData(d, now), now);
  return { db, store: createStore(db) };
}

let db: Db;
let store: Store;
beforeAll(() => {
  ({ db, store } = seeded());
});
afterAll(() => db.close());

const rows = <T>(sql: string, ...params: unknown[]): T[] => db.prepare(sql).all(...params) as T[];

describe('demo data', () => {
  test('two establishments with the documented rules', () => {
    expect(
      rows(
        'SELECT id, nome, app_token, access_token, senha_atendente, centavos_por_ponto, carencia FROM estabelecimentos ORDER BY id',
      ),
    ).toEqual([
      {
        id: 1,
        nome: 'Loja Demo',
        app_token: 'demo-app-token',
        access_token: 'demo-access-token-1',
        senha_atendente: '1234',
        centavos_por_ponto: 100,
        carencia: 0,
      },
      {
        id: 2,
        nome: 'Café Carência',
        app_token: 'demo-app-token',
        access_token: 'demo-access-token-2',
        senha_atendente: '4321',
        centavos_por_ponto: 500,
        carencia: 1,
      },
    ]);
  });

  test('loyalty rewards cost 100 and 50 points; only establishment 1 runs the refrigerante campaign', () => {
    expect(
      rows(
        "SELECT estabelecimento_id AS est, nome, custo_pontos FROM premios WHERE categoria = 'premio_fidelidade' ORDER BY est",
      ),
    ).toEqual([
      { est: 1, nome: 'Vale-compras de R$ 10,00', custo_pontos: 100 },
      { est: 2, nome: 'Café expresso grátis', custo_pontos: 50 },
    ]);
    expect(
      rows(
        "SELECT estabelecimento_id AS est, nome, termo_campanha FROM premios WHERE categoria = 'premio_campanha'",
      ),
    ).toEqual([{ est: 1, nome: 'Refrigerante lata grátis', termo_campanha: 'refrigerante' }]);
  });

  test('establishment 1 has at least 40 customers with valid mobiles and CPFs; establishment 2 none', () => {
    const clientes = rows<{ celular: string; cpf: string; nome: string }>(
      'SELECT celular, cpf, nome FROM clientes WHERE estabelecimento_id = 1',
    );
    expect(clientes.length).toBeGreaterThanOrEqual(40);
    for (const c of clientes) {
      expect(c.celular).toMatch(/^\+55[1-9][1-9]9\d{8}$/);
      expect(isValidCpf(c.cpf), c.cpf).toBe(true);
      expect(c.nome.split(' ').length).toBeGreaterThanOrEqual(2);
    }
    expect(new Set(clientes.map((c) => c.cpf)).size).toBe(clientes.length);
    expect(rows('SELECT id FROM clientes WHERE estabelecimento_id = 2')).toEqual([]);
  });

  test('at least 60 reward records covering every category and status, over the past 12 months', () => {
    const recs = rows<{
      categoria: string;
      status: StoredStatus;
      valido_ate_ms: number;
      data_conquista_ms: number;
    }>(
      `SELECT p.categoria, pc.status, pc.valido_ate_ms, pc.data_conquista_ms
       FROM premios_cliente pc JOIN premios p ON p.id = pc.premio_id WHERE pc.estabelecimento_id = 1`,
    );
    expect(recs.length).toBeGreaterThanOrEqual(60);
    expect(new Set(recs.map((r) => r.categoria))).toEqual(new Set(CATEGORIES));
    const statuses = recs.map((r) => effectiveStatus(r.status, r.valido_ate_ms, NOW));
    expect(new Set(statuses)).toEqual(new Set(STATUSES));
    for (const s of STATUSES)
      expect(statuses.filter((x) => x === s).length, s).toBeGreaterThanOrEqual(3);
    const yearAgo = NOW - 366 * 86_400_000;
    expect(recs.every((r) => r.data_conquista_ms > yearAgo && r.data_conquista_ms < NOW)).toBe(
      true,
    );
    const months = new Set(recs.map((r) => formatTimestamp(r.data_conquista_ms).slice(0, 7)));
    expect(months.size).toBeGreaterThanOrEqual(11);
  });

  test('redeemed and reversed records carry their dates, inside validity', () => {
    const bad = rows(
      `SELECT id FROM premios_cliente WHERE
         (status = 'resgatado' AND (data_resgate_ms IS NULL OR data_resgate_ms < data_conquista_ms OR data_resgate_ms > valido_ate_ms OR data_resgate_ms > ?))
      OR (status = 'estornado' AND (estornado_em_ms IS NULL OR estornado_em_ms < data_conquista_ms OR estornado_em_ms > ?))
      OR (status = 'pendente_resgate' AND (data_resgate_ms IS NOT NULL OR estornado_em_ms IS NOT NULL))`,
      NOW,
      NOW,
    );
    expect(bad).toEqual([]);
  });

  test('Maria da Silva is customer 1 with the documented facts', () => {
    const maria = store.customer(DEMO_CUSTOMERS.maria.id, NOW, { historico: true });
    expect(maria).toMatchObject({
      id_cliente: 1,
      nome: 'Maria da Silva',
      celular: '+5511987654321',
      genero: 'F',
      uf: 'SP',
      receita: 176.2,
      compras: 3,
      carteira: { saldo: 75, saldo_carencia: 0, pontos_vencidos: [] },
      conquistados_premio_fidelidade: 1,
      resgatado_premio_fidelidade: 1,
      expirado_premio_campanha: 1,
      pendente_resgate_brinde_roleta: 1,
    });
    expect(rows('SELECT cpf FROM clientes WHERE id = 1')).toEqual([{ cpf: '52998224725' }]);
  });

  test('João and Carlos have the documented balances', () => {
    expect(store.customer(2, NOW, { historico: false })).toMatchObject({
      celular: DEMO_CUSTOMERS.joao.celular,
      carteira: { saldo: 50 },
      pendente_resgate_premio_fidelidade: 2,
    });
    const carlos = store.customer(3, NOW, { historico: false });
    expect(carlos).toMatchObject({
      celular: DEMO_CUSTOMERS.carlos.celular,
      carteira: { saldo: 42 },
    });
    expect(carlos?.carteira.pontos_vencidos.map((e) => e.pontos)).toEqual([80]);
  });

  test('every seeded wallet keeps the invariant saldo = Σ pontos_vencendo ≥ 0', () => {
    const ids = rows<{ id: number }>('SELECT id FROM clientes').map((r) => r.id);
    for (const id of ids) {
      const c = store.customer(id, NOW, { historico: true });
      const sum = c?.carteira.pontos_vencendo.reduce((s, e) => s + e.pontos, 0);
      expect(c?.carteira.saldo, `cliente ${id}`).toBe(sum);
      expect(c?.carteira.saldo).toBeGreaterThanOrEqual(0);
      expect(c?.carteira.saldo).toBeLessThan(100); // every reachable loyalty reward was won
    }
  });

  test('the seed is deterministic for a given creation moment', () => {
    const again = seeded();
    try {
      for (const table of ['clientes', 'pontos', 'cartela', 'premios_cliente', 'debitos']) {
        const a = rows(`SELECT * FROM ${table} ORDER BY id`);
        const b = again.db.prepare(`SELECT * FROM ${table} ORDER BY id`).all();
        expect(b, table).toEqual(a);
      }
    } finally {
      again.db.close();
    }
  });
});
