import Database from 'better-sqlite3';
import { describe, expect, test } from 'vitest';
import type { Sandbox } from './sandbox';
import { prng } from './seed';
import {
  call,
  get,
  openTestSandbox,
  openTestSandboxEach,
  pontuarBody,
  post,
} from '../testing/sandbox';

let dbPath: string;
let sb: Sandbox;
openTestSandboxEach('sandbox-junk', (opened, file) => {
  sb = opened;
  dbPath = file;
});

/** Row counts of every table, read through a second connection. */
function counts(): Record<string, number> {
  const db = new Database(dbPath, { readonly: true });
  try {
    const out: Record<string, number> = {};
    for (const t of ['clientes', 'pontos', 'cartela', 'premios_cliente', 'debitos']) {
      out[t] = (db.prepare(`SELECT COUNT(*) AS n FROM ${t}`).get() as { n: number }).n;
    }
    // A hand-over (resgatar-premio) adds no row: it changes a record's status.
    out.resgatados = (
      db.prepare("SELECT COUNT(*) AS n FROM premios_cliente WHERE status = 'resgatado'").get() as {
        n: number;
      }
    ).n;
    return out;
  } finally {
    db.close();
  }
}

const PHONE = '+5511944443333';
const huge = 'á'.repeat(200_000);

const junkBodies: (string | unknown)[] = [
  'não é json',
  '{"valor_gasto": 1000,',
  '{"a":1}{"b":2}',
  '\u0000',
  '[]',
  '[{"valor_gasto":1000}]',
  'null',
  'true',
  '123',
  '"+5511944443333"',
  {},
  { valor_gasto: null, senha_atendente: null, cliente: null, itens: null },
  { valor_gasto: '1000', senha_atendente: '1234', cliente: { celular: PHONE } },
  { valor_gasto: 1000.5, senha_atendente: '1234', cliente: { celular: PHONE } },
  { valor_gasto: 1e308, senha_atendente: '1234', cliente: { celular: PHONE } },
  { valor_gasto: -5, senha_atendente: '1234', cliente: { celular: PHONE } },
  { valor_gasto: [1000], senha_atendente: '1234', cliente: { celular: PHONE } },
  { valor_gasto: { v: 1000 }, senha_atendente: '1234', cliente: { celular: PHONE } },
  { valor_gasto: true, senha_atendente: '1234', cliente: { celular: PHONE } },
  { valor_gasto: 1000, senha_atendente: ['1234'], cliente: { celular: PHONE } },
  { valor_gasto: 1000, senha_atendente: { s: '1234' }, cliente: { celular: PHONE } },
  { valor_gasto: 1000, senha_atendente: huge, cliente: { celular: PHONE } },
  { valor_gasto: 1000, senha_atendente: '1234', cliente: [] },
  { valor_gasto: 1000, senha_atendente: '1234', cliente: 'x' },
  { valor_gasto: 1000, senha_atendente: '1234', cliente: 42 },
  { valor_gasto: 1000, senha_atendente: '1234', cliente: { celular: [PHONE] } },
  { valor_gasto: 1000, senha_atendente: '1234', cliente: { celular: { n: PHONE } } },
  {
    valor_gasto: 1000,
    senha_atendente: '1234',
    cliente: { celular: `${PHONE}${'1'.repeat(100)}` },
  },
  { valor_gasto: 1000, senha_atendente: '1234', cliente: { celular: PHONE, nome: huge } },
  {
    valor_gasto: 1000,
    senha_atendente: '1234',
    cliente: { celular: PHONE, email: `${huge}@x.com` },
  },
  { valor_gasto: 1000, senha_atendente: '1234', cliente: { celular: PHONE, cidade: huge } },
  { valor_gasto: 1000, senha_atendente: '1234', cliente: { celular: PHONE, cpf: 52998224725 } },
  {
    valor_gasto: 1000,
    senha_atendente: '1234',
    cliente: { celular: PHONE, data_nascimento: 19900101 },
  },
  { valor_gasto: 1000, senha_atendente: '1234', cliente: { celular: PHONE, cep: 1310100 } },
  { valor_gasto: 1000, senha_atendente: '1234', cliente: { celular: PHONE, genero: ['M'] } },
  {
    valor_gasto: 1000,
    senha_atendente: '1234',
    cliente: { celular: PHONE, nome: { deep: { deeper: [1, 2, 3] } } },
  },
  {
    valor_gasto: 1000,
    senha_atendente: '1234',
    cliente: { celular: PHONE },
    itens: 'refrigerante',
  },
  {
    valor_gasto: 1000,
    senha_atendente: '1234',
    cliente: { celular: PHONE },
    itens: { 0: { valor: 1000 } },
  },
  { valor_gasto: 1000, senha_atendente: '1234', cliente: { celular: PHONE }, itens: [null] },
  { valor_gasto: 1000, senha_atendente: '1234', cliente: { celular: PHONE }, itens: [[1000]] },
  {
    valor_gasto: 1000,
    senha_atendente: '1234',
    cliente: { celular: PHONE },
    itens: [{ valor: '1000' }],
  },
  '{"valor_gasto": 1000, "senha_atendente": "1234", "cliente": {"celular": "+5511944443333"}, "itens": [{"valor": 1e400}]}',
  '{"valor_gasto": 1e400, "senha_atendente": "1234", "cliente": {"celular": "+5511944443333"}}',
  {
    valor_gasto: 1000,
    senha_atendente: '1234',
    cliente: { celular: PHONE },
    itens: [{ valor: 1000, descricao: huge }],
  },
  {
    valor_gasto: 1000,
    senha_atendente: '1234',
    cliente: { celular: PHONE },
    itens: [{ valor: 1000, qtde: '2' }],
  },
  {
    valor_gasto: 1000,
    senha_atendente: '1234',
    cliente: { celular: PHONE },
    itens: [{ valor: 999 }],
  },
  { id_cliente: '1' },
  { id_cliente: [1] },
  { id_cliente: -1 },
  { id_cliente: Number.MAX_SAFE_INTEGER + 2 },
  { celular: null, cpf: null, id_cliente: null },
  { celular: huge },
  { cpf: { $ne: null } },
  { constructor: { prototype: { valor_gasto: 1000 } } },
  '{"__proto__": {"valor_gasto": 1000, "senha_atendente": "1234", "cliente": {"celular": "+5511944443333"}}}',
  `${'['.repeat(10_000)}${']'.repeat(10_000)}`,
  `{"a":${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}}`,
];

/** Junk aimed at resgatar-premio (João, id 2, has two pending id_premio 1). */
const handOverJunk: (string | unknown)[] = [
  { id_premio: '1', id_cliente: 2, senha_atendente: '1234' },
  { id_premio: 1, id_cliente: '2', senha_atendente: '1234' },
  { id_premio: 1.5, id_cliente: 2, senha_atendente: '1234' },
  { id_premio: 1e308, id_cliente: 2, senha_atendente: '1234' },
  { id_premio: -1, id_cliente: 2, senha_atendente: '1234' },
  { id_premio: 0, id_cliente: 2, senha_atendente: '1234' },
  { id_premio: Number.MAX_SAFE_INTEGER + 2, id_cliente: 2, senha_atendente: '1234' },
  { id_premio: 1, id_cliente: Number.MAX_SAFE_INTEGER + 2, senha_atendente: '1234' },
  { id_premio: [1], id_cliente: [2], senha_atendente: ['1234'] },
  { id_premio: { $gt: 0 }, id_cliente: { $ne: null }, senha_atendente: '1234' },
  { id_premio: true, id_cliente: false, senha_atendente: true },
  { id_premio: 1, id_cliente: 2 },
  { id_premio: 1, id_cliente: 2, senha_atendente: null },
  { id_premio: 1, id_cliente: 2, senha_atendente: '' },
  { id_premio: 1, id_cliente: 2, senha_atendente: 1234 },
  { id_premio: 1, id_cliente: 2, senha_atendente: huge },
  { id_premio: 1, id_cliente: 2, senha_atendente: '0000' },
  { id_premio: 1, id_cliente: 2, senha_atendente: '4321' },
  { id_premio: 1, id_cliente: 2, senha_atendente: '1234\u0000' },
  { id_premio: 1, id_cliente: 999_999, senha_atendente: '1234' },
  { id_premio: 7, id_cliente: 2, senha_atendente: '1234' },
  { id_premio: 999_999, id_cliente: 2, senha_atendente: '1234' },
  { id_premio_cliente: 4, id_cliente: 2, senha_atendente: '1234' },
  { premio: { id_premio: 1 }, id_cliente: 2, senha_atendente: '1234' },
  '{"id_premio": 1e400, "id_cliente": 2, "senha_atendente": "1234"}',
  '{"id_premio": 1, "id_cliente": -0.0e0, "senha_atendente": "1234"}',
  '{"__proto__": {"id_premio": 1, "id_cliente": 2, "senha_atendente": "1234"}}',
  '{"id_premio": 1, "id_cliente": 2, "senha_atendente": "1234", "id_premio": "1"}',
];

describe('junk never breaks the sandbox', () => {
  test('every junk body to every POST route is a 4xx envelope and writes nothing', async () => {
    const before = counts();
    const routes = [
      '/fidelidade/pontuar',
      '/clientes/cadastrar',
      '/clientes/buscar',
      '/fidelidade/resgatar-premio',
    ];
    let checked = 0;
    for (const route of routes) {
      for (const junk of junkBodies) {
        const r = await call(
          sb,
          'POST',
          route,
          typeof junk === 'string' ? { rawBody: junk } : { body: junk },
        );
        const label = `${route} ${typeof junk === 'string' ? junk.slice(0, 40) : JSON.stringify(junk).slice(0, 80)}`;
        expect([400, 404, 413, 422], label).toContain(r.status);
        expect(r.json.success, label).toBe(false);
        expect(typeof r.json.message, label).toBe('string');
        expect(r.json.data, label).toEqual({});
        if (r.status === 422) {
          expect(Object.keys(r.json.errors).length, label).toBeGreaterThan(0);
          expect(r.json.message, label).toBe(
            Object.values(r.json.errors as Record<string, string[]>)[0]?.[0],
          );
        }
        checked++;
      }
    }
    expect(checked).toBe(routes.length * junkBodies.length);
    expect(counts()).toEqual(before);
  });

  test('junk aimed at resgatar-premio is a 4xx envelope with field errors and hands nothing over', async () => {
    const before = counts();
    for (const junk of handOverJunk) {
      const r = await call(
        sb,
        'POST',
        '/fidelidade/resgatar-premio',
        typeof junk === 'string' ? { rawBody: junk } : { body: junk },
      );
      const label =
        typeof junk === 'string' ? junk.slice(0, 80) : JSON.stringify(junk).slice(0, 80);
      expect([404, 422], label).toContain(r.status);
      expect(r.json.success, label).toBe(false);
      expect(r.json.data, label).toEqual({});
      if (r.status === 422) {
        expect(Object.keys(r.json.errors).length, label).toBeGreaterThan(0);
        expect(r.json.message, label).toBe(
          Object.values(r.json.errors as Record<string, string[]>)[0]?.[0],
        );
      }
    }
    expect(counts()).toEqual(before);
  });

  test('junk in headers, paths and queries is never a 5xx', async () => {
    const cases: [string, string, Record<string, string>][] = [
      ['GET', '/recompensas?page=%E0%A4%A', {}],
      ['GET', '/recompensas?itens_por_pagina=99999999999999999999999', {}],
      ['GET', '/recompensas?data_inicio=0000-00-00', {}],
      ['GET', '/recompensas?id_cliente=1e3', {}],
      ['GET', '/recompensas/../recompensas', {}],
      ['GET', '/recompensas', { 'x-sandbox-now': '9999-99-99T99:99:99Z' }],
      ['GET', '/recompensas', { 'x-sandbox-now': '0001-01-01T00:00:00Z' }],
      ['POST', '/clientes/buscar', { 'content-type': 'application/json; charset=latin1' }],
      ['PUT', '/clientes/buscar', {}],
      ['OPTIONS', '/fidelidade/pontuar', {}],
      ['PUT', '/fidelidade/resgatar-premio', {}],
      ['POST', '/fidelidade/resgatar-premio', { 'x-sandbox-now': '2026-02-30T10:00:00Z' }],
      ['POST', '/fidelidade/resgatar-premio/../resgatar-premio', {}],
      ['POST', '/fidelidade/resgatar-premio?id_premio=1&id_cliente=2', {}],
      ['PATCH', '/nada/mais', {}],
    ];
    for (const [method, path, headers] of cases) {
      const r = await call(sb, method, path, { headers, body: method === 'GET' ? undefined : {} });
      expect(r.status, `${method} ${path}`).toBeLessThan(500);
      expect(typeof r.json.success, `${method} ${path}`).toBe('boolean');
      expect(typeof r.json.message, `${method} ${path}`).toBe('string');
    }
  });

  test('a 422 after the customer data was valid leaves no customer behind', async () => {
    const before = counts();
    const r = await post(sb, '/fidelidade/pontuar', {
      ...pontuarBody(PHONE, 1000),
      cliente: { celular: PHONE, nome: 'Nova Cliente' },
      itens: [{ descricao: 'Refrigerante', valor: 999 }],
    });
    expect(r.status).toBe(422);
    expect(counts()).toEqual(before);
  });
});

describe('concurrency', () => {
  test('concurrent first postings of one new phone create one customer', async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, () => post(sb, '/fidelidade/pontuar', pontuarBody(PHONE, 1000))),
    );
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(new Set(results.map((r) => r.json.data.id_cliente)).size).toBe(1);
    expect(results.map((r) => r.json.data.saldo_atual).sort((a, b) => a - b)).toEqual([
      10, 20, 30, 40, 50, 60, 70, 80,
    ]);
  });

  test('two sandboxes sharing one database file see one customer per phone', async () => {
    const other = openTestSandbox(dbPath);
    try {
      const a = await post(sb, '/fidelidade/pontuar', pontuarBody(PHONE, 1000));
      const b = await post(other, '/fidelidade/pontuar', pontuarBody(PHONE, 2000));
      expect(b.json.data.id_cliente).toBe(a.json.data.id_cliente);
      expect(b.json.data.saldo_atual).toBe(30);
      const seen = await post(sb, '/clientes/buscar', { celular: PHONE });
      expect(seen.json.data.compras).toBe(2);
    } finally {
      other.close();
    }
  });
});

describe('random bodies and queries (fixed seed)', () => {
  test('are always answered in the envelope, never with a 5xx', async () => {
    const rand = prng(7);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
    const fields = [
      'valor_gasto',
      'senha_atendente',
      'cliente',
      'itens',
      'celular',
      'cpf',
      'nome',
      'email',
      'data_nascimento',
      'genero',
      'cep',
      'endereco',
      'bairro',
      'cidade',
      'estado',
      'id_cliente',
      'descricao',
      'complemento',
      'qtde',
      'valor',
    ];
    const scalars: unknown[] = [
      null,
      true,
      false,
      0,
      -1,
      1,
      1000,
      10.5,
      1e21,
      -0,
      '',
      ' ',
      '1234',
      '4321',
      'M',
      'F',
      '+5511987654321',
      '+5511912340000',
      '52998224725',
      '1990-01-01',
      '2026-02-30',
      'refrigerante',
      '\u0000',
      '😀'.repeat(60),
      'x'.repeat(300),
    ];
    const value = (depth: number): unknown => {
      const r = rand();
      if (depth > 2 || r < 0.55) return pick(scalars);
      if (r < 0.8) {
        const o: Record<string, unknown> = {};
        for (let i = 0; i < 1 + Math.floor(rand() * 5); i++) o[pick(fields)] = value(depth + 1);
        return o;
      }
      return Array.from({ length: Math.floor(rand() * 4) }, () => value(depth + 1));
    };
    const routes = ['/fidelidade/pontuar', '/clientes/cadastrar', '/clientes/buscar'];
    for (let i = 0; i < 400; i++) {
      const body: Record<string, unknown> = {};
      for (let k = 0; k < 1 + Math.floor(rand() * 6); k++) body[pick(fields)] = value(0);
      const r = await post(sb, pick(routes), body);
      expect(r.status, JSON.stringify(body).slice(0, 200)).toBeLessThan(500);
      expect(typeof r.json.success).toBe('boolean');
      expect(typeof r.json.message).toBe('string');
    }
    const params = [
      'filtrar_por',
      'status',
      'categoria',
      'data_inicio',
      'data_fim',
      'q',
      'itens_por_pagina',
      'id_cliente',
      'page',
    ];
    const qvalues = [
      '',
      '0',
      '1',
      '2',
      '-1',
      '100',
      '101',
      'abc',
      '2026-01-01',
      '2026-13-01',
      'expirado',
      'valido_ate',
      'premio_game',
      '%',
      '%25',
      '1e2',
      ' 1',
    ];
    for (let i = 0; i < 200; i++) {
      const q = new URLSearchParams();
      for (let k = 0; k < Math.floor(rand() * 5); k++) q.append(pick(params), pick(qvalues));
      const r = await get(sb, `/recompensas?${q.toString()}`);
      expect(r.status, q.toString()).toBeLessThan(500);
      expect([200, 422]).toContain(r.status);
    }
  });

  test('resgatar-premio: random bodies and moments, never a 5xx, each record handed over once', async () => {
    const rand = prng(29);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
    const values: unknown[] = [
      ...[1, 2, 3, 4, 5, 6, 7, 1, 2, 3],
      ...[0, -1, 1.5, 1e21, 999_999, '1', '', null, true, [1], { id: 1 }, '\u0000'],
    ];
    const senhas: unknown[] = ['1234', '1234', '1234', '4321', '', null, 1234, 'x'.repeat(300)];
    const moments = [
      undefined,
      '2026-11-22T12:00:00-03:00',
      '2026-10-01T10:00:00-03:00',
      '2026-12-13T00:00:00-03:00',
      '2027-06-01T00:00:00Z',
    ];
    const taken: number[] = [];
    for (let i = 0; i < 300; i++) {
      const body: Record<string, unknown> = {};
      if (rand() < 0.2) {
        // Aimed at the seed's pending pairs (Maria's Chaveiro 3, João's two Vale 1).
        Object.assign(body, { id_premio: pick([1, 3]), id_cliente: pick([1, 2]) });
        body.senha_atendente = '1234';
      } else {
        for (const field of ['id_premio', 'id_cliente', 'senha_atendente']) {
          if (rand() < 0.9) body[field] = field === 'senha_atendente' ? pick(senhas) : pick(values);
        }
      }
      const now = pick(moments);
      const r = await post(sb, '/fidelidade/resgatar-premio', body, now ? { now } : {});
      expect([200, 404, 422], JSON.stringify(body).slice(0, 200)).toContain(r.status);
      expect(typeof r.json.message).toBe('string');
      if (r.status === 200) taken.push(r.json.data.id_premio_cliente as number);
    }
    // The three pending records aimed at were all taken, and any the random ids hit.
    expect(taken.length).toBeGreaterThanOrEqual(3);
    expect(new Set(taken).size).toBe(taken.length);
    const db = new Database(dbPath, { readonly: true });
    try {
      const redeemed = db
        .prepare(
          "SELECT id FROM premios_cliente WHERE status = 'resgatado' AND id IN (SELECT value FROM json_each(?))",
        )
        .all(JSON.stringify(taken));
      expect(redeemed).toHaveLength(taken.length);
    } finally {
      db.close();
    }
  });
});
