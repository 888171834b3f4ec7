// resgatar-premio (decisions.md, "Handing a reward over"): a won reward handed over at the
// counter. Seed facts used (figures of the creation day, TEST_NOW 2026-11-22 12:00 São Paulo):
// João (2) has two "Vale-compras de R$ 10,00" (id_premio 1) pending, won 2026-11-12 19:05 and
// valid until 2026-12-12 23:59:59; Maria (1) has her Vale resgatado, a "Refrigerante lata
// grátis" (2) expirado and a "Chaveiro da Loja Demo" (3, brinde_roleta) pending until
// 2026-12-17 23:59:59.

import Database from 'better-sqlite3';
import { describe, expect, test } from 'vitest';
import { COUNTER_PREFIXES, CATEGORIES } from './rules/rewards';
import type { Sandbox } from './sandbox';
import {
  call,
  get,
  openTestSandbox,
  openTestSandboxEach,
  pontuarBody,
  post,
  type CallOptions,
  expectRefusal,
} from '../testing/sandbox';

const PATH = '/fidelidade/resgatar-premio';
const NONE = 'O cliente não tem este prêmio para resgatar';
const VALE = 1;
const REFRIGERANTE = 2;
const CHAVEIRO = 3;
const CAFE = 7; // establishment 2's loyalty reward

let dbPath: string;
let sb: Sandbox;
openTestSandboxEach('sandbox-resgate', (opened, file) => {
  sb = opened;
  dbPath = file;
});

const body = (id_premio: unknown, id_cliente: unknown, senha_atendente: unknown = '1234') => ({
  id_premio,
  id_cliente,
  senha_atendente,
});
const resgatar = (id_premio: unknown, id_cliente: unknown, opts: CallOptions = {}) =>
  post(sb, PATH, body(id_premio, id_cliente, opts.est === 2 ? '4321' : '1234'), opts);

interface Row {
  id: number;
  cliente_id: number;
  premio_id: number;
  status: string;
  data_resgate_ms: number | null;
}

/** The reward records as stored, read through a second connection. */
function stored(): Row[] {
  const db = new Database(dbPath, { readonly: true });
  try {
    return db
      .prepare(
        'SELECT id, cliente_id, premio_id, status, data_resgate_ms FROM premios_cliente ORDER BY id',
      )
      .all() as Row[];
  } finally {
    db.close();
  }
}

/** A customer's reward records through the list, newest first. */
async function recordsOf(id: number, opts: CallOptions & { query?: string } = {}) {
  const r = await get(
    sb,
    `/recompensas?id_cliente=${id}&itens_por_pagina=100${opts.query ?? ''}`,
    opts,
  );
  expect(r.status).toBe(200);
  return r.json.data.data as {
    id_premio_cliente: number;
    id_premio: number;
    premio_status: string;
    data_resgate: string | null;
    categoria_premio: string;
  }[];
}

const customer = async (id: number, opts: CallOptions = {}) =>
  (await post(sb, '/clientes/buscar', { id_cliente: id }, opts)).json.data;

/** The 20 counters of a customer resource. */
const countersOf = (c: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(c).filter(([k]) =>
      /^(conquistados|pendente_resgate|resgatado|expirado)_/.test(k),
    ),
  );

describe('a valid hand-over', () => {
  test('answers 200 with the customer and the record it handed over', async () => {
    const before = await recordsOf(2);
    const oldest = Math.min(...before.map((r) => r.id_premio_cliente));
    const r = await resgatar(VALE, 2);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      success: true,
      message: 'Prêmio resgatado com sucesso.',
      data: { id_cliente: 2, id_premio_cliente: oldest },
    });
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  });

  test('the record reads resgatado with data_resgate = now; the other stays pending', async () => {
    const r = await resgatar(VALE, 2);
    const id = r.json.data.id_premio_cliente;
    const after = await recordsOf(2);
    expect(after.find((x) => x.id_premio_cliente === id)).toMatchObject({
      premio_status: 'resgatado',
      data_resgate: '2026-11-22 12:00:00',
    });
    expect(after.filter((x) => x.id_premio_cliente !== id)).toEqual([
      expect.objectContaining({ premio_status: 'pendente_resgate', data_resgate: null }),
    ]);
    // What a caller that lost the answer reads to decide (decisions.md).
    const handed = await recordsOf(2, { query: '&status=resgatado' });
    expect(handed.map((x) => x.id_premio_cliente)).toEqual([id]);
    const byDay = await get(
      sb,
      '/recompensas?filtrar_por=data_resgate&data_inicio=2026-11-22&data_fim=2026-11-22',
    );
    expect(
      byDay.json.data.data.map((x: { id_premio_cliente: number }) => x.id_premio_cliente),
    ).toContain(id);
  });

  test("the customer's counters follow; points, purchases and history do not move", async () => {
    const before = await customer(2);
    expect(before).toMatchObject({
      conquistados_premio_fidelidade: 2,
      pendente_resgate_premio_fidelidade: 2,
      resgatado_premio_fidelidade: 0,
    });
    await resgatar(VALE, 2);
    const after = await customer(2);
    expect(countersOf(after)).toEqual({
      ...countersOf(before),
      pendente_resgate_premio_fidelidade: 1,
      resgatado_premio_fidelidade: 1,
    });
    expect(after.carteira).toEqual(before.carteira);
    expect([after.receita, after.compras, after.ultima_compra]).toEqual([
      before.receita,
      before.compras,
      before.ultima_compra,
    ]);
  });

  test('any category: a brinde_roleta moves its own counters', async () => {
    const before = await customer(1);
    const r = await resgatar(CHAVEIRO, 1);
    expect(r.status).toBe(200);
    const after = await customer(1);
    expect(countersOf(after)).toEqual({
      ...countersOf(before),
      pendente_resgate_brinde_roleta: before.pendente_resgate_brinde_roleta - 1,
      resgatado_brinde_roleta: before.resgatado_brinde_roleta + 1,
    });
  });

  test('a reward just won by a posting can be handed over at once', async () => {
    const phone = '+5511977776666';
    const p = await post(sb, '/fidelidade/pontuar', {
      ...pontuarBody(phone, 12_000),
      itens: [{ descricao: 'Refrigerante lata', valor: 12_000 }],
    });
    expect(p.status).toBe(200);
    const id = p.json.data.id_cliente;
    const vale = await resgatar(VALE, id);
    const campanha = await resgatar(REFRIGERANTE, id);
    expect([vale.status, campanha.status]).toEqual([200, 200]);
    const c = await customer(id);
    expect(c).toMatchObject({
      resgatado_premio_fidelidade: 1,
      resgatado_premio_campanha: 1,
      pendente_resgate_premio_fidelidade: 0,
      pendente_resgate_premio_campanha: 0,
      carteira: { saldo: 20 },
    });
  });

  test('establishment 2 hands over its own rewards, with its own password', async () => {
    const phone = '+5511966665555';
    await post(sb, '/fidelidade/pontuar', pontuarBody(phone, 26_000, {}, 2), {
      est: 2,
      now: '2026-11-23T09:00:00-03:00',
    });
    const won = await post(sb, '/fidelidade/pontuar', pontuarBody(phone, 500, {}, 2), {
      est: 2,
      now: '2026-11-24T09:00:00-03:00',
    });
    const id = won.json.data.id_cliente;
    const wrong = await post(sb, PATH, body(CAFE, id, '1234'), { est: 2 });
    expect(wrong.status).toBe(422);
    expect(wrong.json.errors).toEqual({ senha_atendente: ['Senha do atendente incorreta.'] });
    const r = await resgatar(CAFE, id, { est: 2, now: '2026-11-24T10:00:00-03:00' });
    expect(r.status).toBe(200);
    expect(r.json.data.id_cliente).toBe(id);
  });
});

describe('nothing to hand over: 422 on id_premio', () => {
  const refused = (r: { status: number; json: unknown }) => {
    expectRefusal(r, 422, NONE, { id_premio: [NONE] });
  };

  test('already handed over: the second hand-over of the last pending record is refused', async () => {
    expect((await resgatar(CHAVEIRO, 1)).status).toBe(200);
    const before = stored();
    refused(await resgatar(CHAVEIRO, 1));
    expect(stored()).toEqual(before);
    // A seeded one, handed over long ago, too.
    refused(await resgatar(VALE, 1));
  });

  test('no idempotency: sent again, a request takes the next pending record, then is refused', async () => {
    const opts = { headers: { 'idempotency-key': 'mesma-chave' } };
    const first = await resgatar(VALE, 2, opts);
    const second = await resgatar(VALE, 2, opts);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.json.data.id_premio_cliente).not.toBe(first.json.data.id_premio_cliente);
    refused(await resgatar(VALE, 2, opts));
    expect(stored().filter((r) => r.cliente_id === 2 && r.status === 'resgatado')).toHaveLength(2);
  });

  test('expired: refused with the service message, and the record still reads expirado', async () => {
    const before = stored();
    refused(await resgatar(REFRIGERANTE, 1));
    expect(stored()).toEqual(before);
    const rec = (await recordsOf(1)).find((r) => r.id_premio === REFRIGERANTE);
    expect(rec).toMatchObject({ premio_status: 'expirado', data_resgate: null });
  });

  test('never won, or no such reward definition', async () => {
    refused(await resgatar(5, 1));
    refused(await resgatar(999_999, 1));
    refused(await resgatar(Number.MAX_SAFE_INTEGER, 1));
  });

  test("another customer's reward is not reachable: João's Vale asked for Maria", async () => {
    const before = stored();
    refused(await resgatar(VALE, 1));
    refused(await resgatar(CHAVEIRO, 2));
    expect(stored()).toEqual(before);
  });

  test("another establishment's reward definition is never won here", async () => {
    refused(await resgatar(CAFE, 2));
  });

  test('a reversed (estornado) record is never handed over', async () => {
    const estornado = stored().find((r) => r.status === 'estornado');
    expect(estornado).toBeDefined();
    const { id, cliente_id, premio_id } = estornado!;
    // Hand over whatever else of that reward the customer has pending, until refused.
    for (let i = 0; i < 10; i++) {
      const r = await resgatar(premio_id, cliente_id, { now: '2026-11-22T12:00:00-03:00' });
      if (r.status !== 200) {
        refused(r);
        break;
      }
      expect(r.json.data.id_premio_cliente).not.toBe(id);
    }
    expect(stored().find((x) => x.id === id)?.status).toBe('estornado');
  });
});

describe('customers and establishments', () => {
  test('an unknown customer is a 404, as buscar', async () => {
    const r = await resgatar(VALE, 999_999);
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ success: false, message: 'Cliente não encontrado', data: {} });
  });

  test('a customer of another establishment is a 404, and their reward is untouched', async () => {
    const phone = '+5511955551111';
    await post(sb, '/fidelidade/pontuar', pontuarBody(phone, 26_000, {}, 2), {
      est: 2,
      now: '2026-11-20T09:00:00-03:00',
    });
    const won = await post(sb, '/fidelidade/pontuar', pontuarBody(phone, 500, {}, 2), { est: 2 });
    const id = won.json.data.id_cliente;
    const before = stored();
    expect(
      before.filter((x) => x.cliente_id === id && x.status === 'pendente_resgate'),
    ).toHaveLength(1);
    const r = await resgatar(CAFE, id, { est: 1 });
    expect(r.status).toBe(404);
    expect(r.json.message).toBe('Cliente não encontrado');
    expect(stored()).toEqual(before);
  });

  test('the password is checked before the customer: an unknown one with a wrong password is a 422', async () => {
    const r = await post(sb, PATH, body(VALE, 999_999, '0000'));
    expect(r.status).toBe(422);
    expect(r.json.errors).toEqual({ senha_atendente: ['Senha do atendente incorreta.'] });
  });

  test('a wrong attendant password is a 422 on senha_atendente and hands nothing over', async () => {
    const before = stored();
    for (const senha of ['0000', '4321', ' 1234', '1234 ']) {
      const r = await post(sb, PATH, body(VALE, 2, senha));
      expect(r.status, senha).toBe(422);
      expect(r.json).toEqual({
        success: false,
        message: 'Senha do atendente incorreta.',
        data: {},
        errors: { senha_atendente: ['Senha do atendente incorreta.'] },
      });
    }
    expect(stored()).toEqual(before);
  });

  test.each<[string, number, CallOptions]>([
    ['no tokens', 401, { token: null, appToken: null }],
    ['no access-token', 401, { token: null }],
    ['no app-token', 401, { appToken: null }],
    ['a wrong app-token', 401, { appToken: 'outro-app' }],
    ['an unknown access-token', 401, { token: 'demo-access-token-9' }],
    ["another establishment's token", 403, { token: 'demo-access-token-2' }],
    ['an unknown establishment', 404, { est: 99, token: 'demo-access-token-1' }],
    ['an establishment id that is not a number', 404, { est: 'abc', token: 'demo-access-token-1' }],
  ])('%s is a %i, nothing handed over', async (_name, status, opts) => {
    const before = stored();
    const r = await post(sb, PATH, body(VALE, 2), opts);
    expect(r.status).toBe(status);
    expect(r.json).toEqual({ success: false, message: expect.any(String), data: {} });
    expect(stored()).toEqual(before);
  });
});

describe('bad requests', () => {
  const ID = 'O id do prêmio deve ser um número inteiro positivo.';
  const CLIENTE = 'O id do cliente deve ser um número inteiro positivo.';
  const huge = 'á'.repeat(200_000);
  const cases: [string, unknown, Record<string, string[]>][] = [
    [
      'an empty object',
      {},
      {
        id_premio: ['Informe o prêmio a resgatar.'],
        id_cliente: ['Informe o cliente do prêmio.'],
        senha_atendente: ['Informe a senha do atendente.'],
      },
    ],
    ['id_premio as a string', body('1', 2), { id_premio: [ID] }],
    ['id_premio fractional', body(1.5, 2), { id_premio: [ID] }],
    ['id_premio zero', body(0, 2), { id_premio: [ID] }],
    ['id_premio negative', body(-1, 2), { id_premio: [ID] }],
    ['id_premio 1e308', body(1e308, 2), { id_premio: [ID] }],
    ['id_premio past safe integers', body(Number.MAX_SAFE_INTEGER + 2, 2), { id_premio: [ID] }],
    ['id_premio a list', body([1], 2), { id_premio: [ID] }],
    ['id_premio an object', body({ $gt: 0 }, 2), { id_premio: [ID] }],
    ['id_premio true', body(true, 2), { id_premio: [ID] }],
    ['id_cliente as a string', body(1, '2'), { id_cliente: [CLIENTE] }],
    ['id_cliente fractional', body(1, 2.5), { id_cliente: [CLIENTE] }],
    ['id_cliente zero', body(1, 0), { id_cliente: [CLIENTE] }],
    [
      'id_cliente missing',
      { id_premio: 1, senha_atendente: '1234' },
      { id_cliente: ['Informe o cliente do prêmio.'] },
    ],
    [
      'senha_atendente missing',
      { id_premio: 1, id_cliente: 2 },
      { senha_atendente: ['Informe a senha do atendente.'] },
    ],
    [
      'senha_atendente a number',
      body(1, 2, 1234),
      { senha_atendente: ['A senha do atendente deve ser um texto.'] },
    ],
    [
      'senha_atendente a list',
      body(1, 2, ['1234']),
      { senha_atendente: ['A senha do atendente deve ser um texto.'] },
    ],
    [
      'senha_atendente huge',
      body(1, 2, huge),
      { senha_atendente: ['A senha do atendente pode ter no máximo 100 caracteres.'] },
    ],
    [
      'senha_atendente with a NUL',
      body(1, 2, '12\u000034'),
      { senha_atendente: ['Senha do atendente incorreta.'] },
    ],
    [
      'everything wrong at once, in field order',
      { id_premio: '1', id_cliente: -2, senha_atendente: {} },
      {
        id_premio: [ID],
        id_cliente: [CLIENTE],
        senha_atendente: ['A senha do atendente deve ser um texto.'],
      },
    ],
  ];
  test.each(cases)('%s is a 422 with exactly those field errors', async (_name, b, errors) => {
    const before = stored();
    const r = await post(sb, PATH, b);
    expectRefusal(r, 422, Object.values(errors)[0]![0], errors);
    expect(stored()).toEqual(before);
  });

  test.each([
    [
      'a number too large for a double',
      '{"id_premio": 1e400, "id_cliente": 2, "senha_atendente": "1234"}',
      'id_premio',
    ],
    [
      '__proto__ carrying the fields',
      '{"__proto__": {"id_premio": 1, "id_cliente": 2, "senha_atendente": "1234"}}',
      'id_premio',
    ],
    [
      'a duplicated key, the last a string',
      '{"id_premio": 1, "id_premio": "1", "id_cliente": 2, "senha_atendente": "1234"}',
      'id_premio',
    ],
  ])('raw JSON with %s is a 422 on %s', async (_name, rawBody, field) => {
    const r = await call(sb, 'POST', PATH, { rawBody });
    expect(r.status).toBe(422);
    expect(Object.keys(r.json.errors)[0]).toBe(field);
  });

  test.each([
    ['not JSON', '{id_premio: 1'],
    ['empty', ''],
    ['an array', '[{"id_premio":1,"id_cliente":2,"senha_atendente":"1234"}]'],
    ['null', 'null'],
    ['a number', '1'],
  ])('a body that is %s is a 400', async (_name, rawBody) => {
    const r = await call(sb, 'POST', PATH, { rawBody });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ success: false, message: expect.any(String), data: {} });
  });

  test('a wrong content type is a 400; over 1 MB is a 413', async () => {
    const plain = await call(sb, 'POST', PATH, { body: body(VALE, 2), contentType: 'text/plain' });
    expect(plain.status).toBe(400);
    const big = JSON.stringify({ ...body(VALE, 2), extra: 'x'.repeat(1024 * 1024) });
    const large = await call(sb, 'POST', PATH, { rawBody: big });
    expect(large.status).toBe(413);
    expect(stored().filter((r) => r.cliente_id === 2 && r.status === 'resgatado')).toHaveLength(0);
  });

  test.each(['GET', 'PUT', 'PATCH', 'DELETE'])('%s is a 405 with Allow: POST', async (method) => {
    const r = await call(sb, method, PATH, { body: method === 'GET' ? undefined : body(VALE, 2) });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('POST');
    expect(r.json.success).toBe(false);
  });

  test('neighbouring paths are not the operation', async () => {
    for (const path of [
      '/fidelidade/resgatar-premio/1',
      '/fidelidade/resgatar',
      '/resgatar-premio',
    ]) {
      const r = await post(sb, path, body(VALE, 2));
      expect(r.status, path).toBe(404);
    }
  });
});

describe('x-sandbox-now', () => {
  test('data_resgate is the moment asked', async () => {
    const r = await resgatar(VALE, 2, { now: '2026-11-30T08:15:30Z' });
    expect(r.status).toBe(200);
    const rec = (await recordsOf(2)).find(
      (x) => x.id_premio_cliente === r.json.data.id_premio_cliente,
    );
    expect(rec?.data_resgate).toBe('2026-11-30 05:15:30');
  });

  test('through the last second of valido_ate; refused as expired from the next', async () => {
    const late = await resgatar(VALE, 2, { now: '2026-12-12T23:59:59-03:00' });
    expect(late.status).toBe(200);
    const tooLate = await resgatar(VALE, 2, { now: '2026-12-13T00:00:00-03:00' });
    expect(tooLate.status).toBe(422);
    expect(tooLate.json.message).toBe(NONE);
    // Read at that moment: one resgatado, one expirado; counters agree.
    const c = await customer(2, { now: '2026-12-13T00:00:00-03:00' });
    expect(c).toMatchObject({
      conquistados_premio_fidelidade: 2,
      pendente_resgate_premio_fidelidade: 0,
      resgatado_premio_fidelidade: 1,
      expirado_premio_fidelidade: 1,
    });
  });

  test('a moment before the reward was won hands nothing over', async () => {
    const r = await resgatar(VALE, 2, { now: '2026-11-12T19:04:59-03:00' });
    expect(r.status).toBe(422);
    expect(r.json.message).toBe(NONE);
    const at = await resgatar(VALE, 2, { now: '2026-11-12T19:05:00-03:00' });
    expect(at.status).toBe(200);
  });

  test('an expired older record is passed over for a newer one still valid', async () => {
    const phone = '+5511944442222';
    const first = await post(sb, '/fidelidade/pontuar', pontuarBody(phone, 10_000), {
      now: '2026-09-01T10:00:00-03:00',
    });
    await post(sb, '/fidelidade/pontuar', pontuarBody(phone, 10_000), {
      now: '2026-11-20T10:00:00-03:00',
    });
    const id = first.json.data.id_cliente;
    const records = await recordsOf(id);
    const newer = records.find((x) => x.premio_status === 'pendente_resgate');
    expect(records.map((x) => x.premio_status).sort()).toEqual(['expirado', 'pendente_resgate']);
    const r = await resgatar(VALE, id);
    expect(r.json.data.id_premio_cliente).toBe(newer?.id_premio_cliente);
  });

  test('an unparsable x-sandbox-now is a 400 and hands nothing over', async () => {
    const r = await resgatar(VALE, 2, { now: 'amanhã' });
    expect(r.status).toBe(400);
    expect(r.json.message).toContain('x-sandbox-now');
    expect(stored().filter((x) => x.status === 'resgatado' && x.cliente_id === 2)).toEqual([]);
  });
});

describe('exactly once under concurrency', () => {
  test('eight simultaneous hand-overs of the last pending record: one 200, seven 422', async () => {
    const results = await Promise.all(Array.from({ length: 8 }, () => resgatar(CHAVEIRO, 1)));
    expect(results.map((r) => r.status).sort()).toEqual([200, ...Array(7).fill(422)]);
    expect(results.filter((r) => r.status === 422).every((r) => r.json.message === NONE)).toBe(
      true,
    );
    expect(stored().filter((r) => r.cliente_id === 1 && r.premio_id === CHAVEIRO)).toEqual([
      expect.objectContaining({ status: 'resgatado' }),
    ]);
  });

  test('two sandboxes on one database file: one takes it, the other is refused', async () => {
    const other = openTestSandbox(dbPath);
    try {
      const [a, b] = await Promise.all([
        resgatar(CHAVEIRO, 1),
        post(other, PATH, body(CHAVEIRO, 1)),
      ]);
      expect([a.status, b.status].sort()).toEqual([200, 422]);
      const handed = stored().filter(
        (r) => r.cliente_id === 1 && r.premio_id === CHAVEIRO && r.status === 'resgatado',
      );
      expect(handed).toHaveLength(1);
      // João's two: each sandbox takes one, never the same one.
      const [c, d] = await Promise.all([resgatar(VALE, 2), post(other, PATH, body(VALE, 2))]);
      expect([c.status, d.status]).toEqual([200, 200]);
      expect(c.json.data.id_premio_cliente).not.toBe(d.json.data.id_premio_cliente);
    } finally {
      other.close();
    }
  });
});

describe('counters are derived from the records', () => {
  /** The 20 counters computed here from a customer's listed records. */
  async function fromRecords(id: number, now?: string) {
    const out: Record<string, number> = {};
    for (const p of COUNTER_PREFIXES) for (const c of CATEGORIES) out[`${p}_${c}`] = 0;
    for (const r of await recordsOf(id, now === undefined ? {} : { now })) {
      const add = (key: string) => (out[key] = (out[key] ?? 0) + 1);
      add(`conquistados_${r.categoria_premio}`);
      if (r.premio_status !== 'estornado') add(`${r.premio_status}_${r.categoria_premio}`);
    }
    return out;
  }

  test('after every pending record of the seed is handed over, and at later moments', async () => {
    const pending = stored().filter((r) => r.status === 'pendente_resgate');
    const ids = [...new Set(pending.map((r) => r.cliente_id))];
    let handed = 0;
    for (const r of pending) {
      const res = await resgatar(r.premio_id, r.cliente_id);
      if (res.status === 200) handed++;
      else expect(res.json.message).toBe(NONE); // expired at TEST_NOW
    }
    expect(handed).toBe(10); // the seed's pendente_resgate at creation (README)
    expect(stored().filter((r) => r.status === 'resgatado')).toHaveLength(94 + handed);
    for (const now of [undefined, '2027-06-01T12:00:00-03:00']) {
      for (const id of ids) {
        const c = await customer(id, now === undefined ? {} : { now });
        expect(countersOf(c), `cliente ${id} at ${now ?? 'now'}`).toEqual(
          await fromRecords(id, now),
        );
        const pendentes = Object.entries(countersOf(c)).filter(([k]) => k.startsWith('pendente_'));
        expect(pendentes.every(([, n]) => n === 0)).toBe(true);
      }
    }
  });

  test('a record changed behind the API shows in the counters at once (nothing kept apart)', async () => {
    const db = new Database(dbPath);
    try {
      db.prepare(
        "UPDATE premios_cliente SET status = 'resgatado', data_resgate_ms = ? WHERE cliente_id = 2 AND premio_id = 1",
      ).run(Date.parse('2026-11-22T11:00:00-03:00'));
    } finally {
      db.close();
    }
    const c = await customer(2);
    expect(c).toMatchObject({
      pendente_resgate_premio_fidelidade: 0,
      resgatado_premio_fidelidade: 2,
    });
    expect(countersOf(c)).toEqual(await fromRecords(2));
    const r = await resgatar(VALE, 2);
    expect(r.json.message).toBe(NONE);
  });
});
