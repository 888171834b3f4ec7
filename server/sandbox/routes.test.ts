import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { Sandbox } from './sandbox';
import { call, get, openTestSandbox, pontuarBody, post, expectRefusal } from '../testing/sandbox';

let sb: Sandbox;
beforeEach(() => {
  sb = openTestSandbox();
});
afterEach(() => sb.close());

const NEW_PHONE = '+5511912345678';

describe('authentication and establishment', () => {
  test('no tokens is a 401 with empty data', async () => {
    const r = await post(
      sb,
      '/clientes/buscar',
      { id_cliente: 1 },
      { token: null, appToken: null },
    );
    expectRefusal(r, 401, expect.stringContaining('não autorizado'));
  });

  test('a wrong app-token is a 401', async () => {
    const r = await post(sb, '/clientes/buscar', { id_cliente: 1 }, { appToken: 'other-app' });
    expect(r.status).toBe(401);
    expect(r.json.data).toEqual({});
  });

  test('an unknown access-token is a 401', async () => {
    const r = await get(sb, '/recompensas', { token: 'demo-access-token-9' });
    expect(r.status).toBe(401);
    expect(r.json.success).toBe(false);
  });

  test('tokens are checked before the establishment', async () => {
    const r = await get(sb, '/recompensas', { est: 99, token: null });
    expect(r.status).toBe(401);
  });

  test.each(['99', '0', '-1', 'abc', '1.5', '01', '99999999999999999999'])(
    'establishment %j is a 404',
    async (est) => {
      const r = await get(sb, '/recompensas', { est, token: 'demo-access-token-1' });
      expectRefusal(r, 404, 'Estabelecimento não encontrado');
    },
  );

  test("another establishment's token is a 403", async () => {
    const r = await post(
      sb,
      '/clientes/buscar',
      { id_cliente: 1 },
      { est: 1, token: 'demo-access-token-2' },
    );
    expect(r.status).toBe(403);
    expect(r.json.success).toBe(false);
    expect(r.json.message).toMatch(/estabelecimento/);
  });

  test('establishments() gives the demo tokens and attendant passwords', () => {
    expect(sb.establishments()).toEqual([
      {
        id: 1,
        nome: 'Loja Demo',
        accessToken: 'demo-access-token-1',
        appToken: 'demo-app-token',
        senhaAtendente: '1234',
      },
      {
        id: 2,
        nome: 'Café Carência',
        accessToken: 'demo-access-token-2',
        appToken: 'demo-app-token',
        senhaAtendente: '4321',
      },
    ]);
  });
});

describe('routes and methods', () => {
  test('an unknown route is a 404 envelope', async () => {
    const r = await get(sb, '/nada');
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ success: false, message: expect.any(String), data: {} });
    const root = await call(sb, 'GET', 'http://sandbox.test/');
    expect(root.status).toBe(404);
    expect(root.json.success).toBe(false);
  });

  test('a wrong method is a 405 envelope with Allow', async () => {
    const r = await get(sb, '/fidelidade/pontuar');
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('POST');
    expect(r.json.success).toBe(false);
    const del = await call(sb, 'DELETE', '/recompensas');
    expect(del.status).toBe(405);
  });

  test('HEAD on the reward list answers like GET, without a body', async () => {
    const r = await call(sb, 'HEAD', '/recompensas');
    expect(r.status).toBe(200);
  });

  test('responses are JSON', async () => {
    const r = await get(sb, '/recompensas');
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  });
});

describe('request bodies', () => {
  test('a missing content type is a 400', async () => {
    const r = await call(sb, 'POST', '/clientes/buscar', {
      body: { id_cliente: 1 },
      contentType: null,
    });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ success: false, message: expect.stringContaining('JSON'), data: {} });
  });

  test('a wrong content type is a 400', async () => {
    const r = await call(sb, 'POST', '/clientes/buscar', {
      body: { id_cliente: 1 },
      contentType: 'text/plain',
    });
    expect(r.status).toBe(400);
  });

  test('application/json with a charset is accepted', async () => {
    const r = await call(sb, 'POST', '/clientes/buscar', {
      body: { id_cliente: 1 },
      contentType: 'Application/JSON; charset=utf-8',
    });
    expect(r.status).toBe(200);
  });

  test.each([
    ['not JSON', '{valor_gasto: 10'],
    ['empty', ''],
    ['an array', '[1,2]'],
    ['null', 'null'],
    ['a number', '42'],
    ['a string', '"texto"'],
  ])('a body that is %s is a 400', async (_name, rawBody) => {
    const r = await call(sb, 'POST', '/fidelidade/pontuar', { rawBody });
    expect(r.status).toBe(400);
    expect(r.json.success).toBe(false);
    expect(r.json.data).toEqual({});
  });

  test('invalid UTF-8 is a 400', async () => {
    const r = await call(sb, 'POST', '/clientes/buscar', {
      rawBody: new Uint8Array([0x7b, 0xff, 0x7d]),
    });
    expect(r.status).toBe(400);
  });

  test('a body over 1 MB is a 413', async () => {
    const big = JSON.stringify({ celular: NEW_PHONE, nome: 'x'.repeat(1024 * 1024) });
    const r = await call(sb, 'POST', '/clientes/cadastrar', { rawBody: big });
    expect(r.status).toBe(413);
    expect(r.json.success).toBe(false);
    const buscar = await post(sb, '/clientes/buscar', { celular: NEW_PHONE });
    expect(buscar.status).toBe(404);
  });

  test('a body just under 1 MB is read (and its huge field refused)', async () => {
    const body = JSON.stringify({ celular: NEW_PHONE, nome: 'x'.repeat(1024 * 1024 - 100) });
    const r = await call(sb, 'POST', '/clientes/cadastrar', { rawBody: body });
    expect(r.status).toBe(422);
    expect(Object.keys(r.json.errors)).toEqual(['nome']);
  });
});

describe('cadastrar', () => {
  test('registers a customer in its initial state (201)', async () => {
    const r = await post(sb, '/clientes/cadastrar', {
      celular: NEW_PHONE,
      cpf: '12345678909',
      nome: 'Paula Andrade',
      estado: 'SP',
      genero: 'F',
      data_nascimento: '1990-05-17',
    });
    expect(r.status).toBe(201);
    expect(r.json.success).toBe(true);
    expect(r.json.message).toBe('Cliente cadastrado com sucesso.');
    const c = r.json.data;
    expect(c).toMatchObject({
      nome: 'Paula Andrade',
      email: 'invalido@invalido.com.br',
      data_cadastro: '2026-11-22 12:00:00',
      celular: NEW_PHONE,
      cpf: '12345678909',
      data_nascimento: '1990-05-17',
      genero: 'F',
      cep: null,
      endereco: null,
      bairro: null,
      cidade: null,
      uf: 'SP',
      carteira: { saldo: 0, saldo_carencia: 0, pontos_vencidos: [], pontos_vencendo: [] },
      receita: 0,
      compras: 0,
      primeira_compra: null,
      ultima_compra: null,
    });
    expect(c.carteira).not.toHaveProperty('historico');
    const counters = Object.entries(c).filter(([k]) =>
      /^(conquistados|pendente_resgate|resgatado|expirado)_/.test(k),
    );
    expect(counters).toHaveLength(20);
    expect(counters.every(([, v]) => v === 0)).toBe(true);
    expect(Number.isInteger(c.id_cliente)).toBe(true);
  });

  test('defaults: CLIENTE DESCONHECIDO, invalid e-mail, genero NA, nulls', async () => {
    const r = await post(sb, '/clientes/cadastrar', { celular: NEW_PHONE, nome: '', cep: null });
    expect(r.status).toBe(201);
    expect(r.json.data.cpf).toMatch(/^[0-9a-f]{32}$/);
    expect(r.json.data).toMatchObject({
      nome: 'CLIENTE DESCONHECIDO',
      email: 'invalido@invalido.com.br',
      genero: 'NA',
      data_nascimento: null,
      cep: null,
      uf: null,
    });
  });

  test('the same celular again is a 409 with the existing id', async () => {
    const first = await post(sb, '/clientes/cadastrar', { celular: NEW_PHONE });
    const again = await post(sb, '/clientes/cadastrar', { celular: NEW_PHONE, nome: 'Outro' });
    expect(again.status).toBe(409);
    expect(again.json).toEqual({
      success: false,
      message: 'Cliente já cadastrado.',
      data: { id_cliente: first.json.data.id_cliente },
    });
  });

  test('an existing cpf with another celular is a 409 with that id', async () => {
    const r = await post(sb, '/clientes/cadastrar', { celular: NEW_PHONE, cpf: '52998224725' });
    expect(r.status).toBe(409);
    expect(r.json.data).toEqual({ id_cliente: 1 });
  });

  test('the same phone in two establishments is two customers', async () => {
    const r = await post(sb, '/clientes/cadastrar', { celular: '+5511987654321' }, { est: 2 });
    expect(r.status).toBe(201);
    expect(r.json.data.id_cliente).not.toBe(1);
    const one = await post(sb, '/clientes/buscar', { celular: '+5511987654321' }, { est: 1 });
    const two = await post(sb, '/clientes/buscar', { celular: '+5511987654321' }, { est: 2 });
    expect(one.json.data.id_cliente).toBe(1);
    expect(two.json.data.id_cliente).toBe(r.json.data.id_cliente);
    expect(two.json.data.nome).toBe('CLIENTE DESCONHECIDO');
  });
});

describe('cadastrar validation', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['celular missing', {}, 'celular'],
    ['celular without +', { celular: '11987654321' }, 'celular'],
    ['celular starting with 0', { celular: '+0511987654321' }, 'celular'],
    ['celular too short', { celular: '+5511987' }, 'celular'],
    ['celular too long', { celular: '+5511987654321123' }, 'celular'],
    ['celular as a number', { celular: 5511987654321 }, 'celular'],
    ['cpf with bad check digits', { celular: NEW_PHONE, cpf: '52998224724' }, 'cpf'],
    ['cpf with punctuation', { celular: NEW_PHONE, cpf: '529.982.247-25' }, 'cpf'],
    ['cpf as a number', { celular: NEW_PHONE, cpf: 52998224725 }, 'cpf'],
    ['genero lower case', { celular: NEW_PHONE, genero: 'm' }, 'genero'],
    ['genero X', { celular: NEW_PHONE, genero: 'X' }, 'genero'],
    [
      'data_nascimento not a real date',
      { celular: NEW_PHONE, data_nascimento: '1990-02-30' },
      'data_nascimento',
    ],
    [
      'data_nascimento in another format',
      { celular: NEW_PHONE, data_nascimento: '17/05/1990' },
      'data_nascimento',
    ],
    [
      'data_nascimento in the future',
      { celular: NEW_PHONE, data_nascimento: '2026-11-23' },
      'data_nascimento',
    ],
    ['endereco over 100', { celular: NEW_PHONE, endereco: 'a'.repeat(101) }, 'endereco'],
    ['bairro over 50', { celular: NEW_PHONE, bairro: 'b'.repeat(51) }, 'bairro'],
    ['nome over 120', { celular: NEW_PHONE, nome: 'n'.repeat(121) }, 'nome'],
    ['cidade over 60', { celular: NEW_PHONE, cidade: 'c'.repeat(61) }, 'cidade'],
    ['estado over 50', { celular: NEW_PHONE, estado: 'e'.repeat(51) }, 'estado'],
    ['email malformed', { celular: NEW_PHONE, email: 'maria@' }, 'email'],
    ['email over 120', { celular: NEW_PHONE, email: `${'m'.repeat(120)}@x.com` }, 'email'],
    ['cep with a dash', { celular: NEW_PHONE, cep: '01310-100' }, 'cep'],
    ['cep with 7 digits', { celular: NEW_PHONE, cep: '0131010' }, 'cep'],
    ['nome as an object', { celular: NEW_PHONE, nome: { a: 1 } }, 'nome'],
  ];
  test.each(cases)('%s is a 422 on that field', async (_name, body, path) => {
    const r = await post(sb, '/clientes/cadastrar', body);
    expect(r.status).toBe(422);
    expect(r.json.success).toBe(false);
    expect(Object.keys(r.json.errors)).toEqual([path]);
    expect(r.json.message).toBe(r.json.errors[path][0]);
    expect(r.json.data).toEqual({});
  });

  test('limits are inclusive: 100-character endereco and 50-character bairro are accepted', async () => {
    const r = await post(sb, '/clientes/cadastrar', {
      celular: NEW_PHONE,
      endereco: 'a'.repeat(100),
      bairro: 'b'.repeat(50),
      data_nascimento: '2026-11-22',
    });
    expect(r.status).toBe(201);
    expect(r.json.data.endereco).toHaveLength(100);
  });

  test('all field errors come at once, the first as the message', async () => {
    const r = await post(sb, '/clientes/cadastrar', { celular: 'x', cpf: '1', genero: 'Z' });
    expect(r.status).toBe(422);
    expect(Object.keys(r.json.errors)).toEqual(['celular', 'cpf', 'genero']);
    expect(r.json.message).toBe(r.json.errors.celular[0]);
  });

  test('unknown fields are ignored', async () => {
    const r = await post(sb, '/clientes/cadastrar', {
      celular: NEW_PHONE,
      apelido: 'Pat',
      __proto__: { x: 1 },
    });
    expect(r.status).toBe(201);
    expect(r.json.data).not.toHaveProperty('apelido');
  });
});

describe('pontuar', () => {
  test('a new celular with a CPF already in the establishment posts to that customer', async () => {
    const r = await post(sb, '/fidelidade/pontuar', {
      ...pontuarBody(NEW_PHONE, 4550),
      cliente: { celular: NEW_PHONE, nome: 'Rita Lopes', cpf: '39053344705' },
    });
    expect(r.status).toBe(200);
    expect(r.json.success).toBe(true);
    expect(r.json.message).toBe('Pontos lançados com sucesso.');
    // João Pereira (seed, id 2, saldo 50) has this CPF in establishment 1.
    expect(r.json.data).toEqual({
      id_cliente: 2,
      id_ponto: expect.any(Number),
      saldo_atual: 95,
      saldo_carencia: 0,
    });
    const joao = await post(sb, '/clientes/buscar', { id_cliente: 2 });
    expect(joao.json.data).toMatchObject({ nome: 'João Pereira', celular: '+5521998765432' });
  });

  test('a new phone registers the customer (200); a second posting goes to the same customer', async () => {
    const first = await post(sb, '/fidelidade/pontuar', {
      ...pontuarBody(NEW_PHONE, 4550),
      cliente: { celular: NEW_PHONE, nome: 'Rita Lopes', email: 'rita@exemplo.com.br' },
    });
    expect(first.status).toBe(200);
    expect(first.json.data.saldo_atual).toBe(45);
    const second = await post(sb, '/fidelidade/pontuar', {
      ...pontuarBody(NEW_PHONE, 3000),
      cliente: { celular: NEW_PHONE, nome: 'Outro Nome', email: 'outro@exemplo.com.br' },
    });
    expect(second.status).toBe(200);
    expect(second.json.data.id_cliente).toBe(first.json.data.id_cliente);
    expect(second.json.data.id_ponto).not.toBe(first.json.data.id_ponto);
    expect(second.json.data.saldo_atual).toBe(75);

    const c = await post(sb, '/clientes/buscar', { id_cliente: first.json.data.id_cliente });
    expect(c.json.data).toMatchObject({
      nome: 'Rita Lopes',
      email: 'rita@exemplo.com.br',
      receita: 75.5,
      compras: 2,
      primeira_compra: '2026-11-22 12:00:00',
      ultima_compra: '2026-11-22 12:00:00',
    });
    expect(c.json.data.carteira.historico.map((e: { pontos: number }) => e.pontos)).toEqual([
      30, 45,
    ]);
  });

  test('an existing customer is found by celular before cpf', async () => {
    const r = await post(sb, '/fidelidade/pontuar', {
      ...pontuarBody('+5511987654321', 1000),
      cliente: { celular: '+5511987654321', cpf: '39053344705' },
    });
    expect(r.json.data).toMatchObject({ id_cliente: 1, saldo_atual: 85 });
  });

  test('points are floor(valor_gasto / 100) in establishment 1', async () => {
    const r = await post(sb, '/fidelidade/pontuar', pontuarBody(NEW_PHONE, 1099));
    expect(r.json.data.saldo_atual).toBe(10);
  });

  test('a posting that reaches 100 points wins the loyalty reward and pays 100', async () => {
    const r = await post(sb, '/fidelidade/pontuar', pontuarBody('+5511987654321', 2500)); // 75 + 25
    expect(r.json.data.saldo_atual).toBe(0);
    const list = await get(
      sb,
      '/recompensas?id_cliente=1&status=pendente_resgate&categoria=premio_fidelidade',
    );
    expect(list.json.data.total).toBe(1);
    expect(list.json.data.data[0]).toMatchObject({
      id_cliente: 1,
      id_premio: 1,
      nome: 'Vale-compras de R$ 10,00',
      premio_status: 'pendente_resgate',
      data_conquista: '2026-11-22 12:00:00',
      valido_ate: '2026-12-22 23:59:59',
      data_resgate: null,
      estornado_em: null,
    });
  });

  test('one posting can win the loyalty reward several times', async () => {
    const r = await post(sb, '/fidelidade/pontuar', pontuarBody(NEW_PHONE, 35_099)); // 350 points
    expect(r.json.data.saldo_atual).toBe(50);
    const c = await post(sb, '/clientes/buscar', { celular: NEW_PHONE });
    expect(c.json.data.conquistados_premio_fidelidade).toBe(3);
    expect(c.json.data.pendente_resgate_premio_fidelidade).toBe(3);
    expect(c.json.data.carteira.saldo).toBe(50);
    expect(c.json.data.carteira.pontos_vencendo).toEqual([
      expect.objectContaining({ pontos: 50, tipo: 'credito', data_validade: '2027-11-30' }),
    ]);
    expect(c.json.data.carteira.historico).toEqual([
      expect.objectContaining({ pontos: 350, data: '2026-11-22 12:00:00' }),
    ]);
  });

  test('a basket with a refrigerante item wins the campaign reward once', async () => {
    const r = await post(sb, '/fidelidade/pontuar', {
      ...pontuarBody(NEW_PHONE, 2048),
      itens: [
        { descricao: 'REFRIGERANTE Cola 2 L', qtde: 1, valor: 999 },
        { descricao: 'Refrigerante guaraná lata', qtde: 1, valor: 549, complemento: 'gelado' },
        { descricao: 'Pão de forma', valor: 500 },
      ],
    });
    expect(r.status).toBe(200);
    expect(r.json.data.saldo_atual).toBe(20);
    const c = await post(sb, '/clientes/buscar', { celular: NEW_PHONE });
    expect(c.json.data.conquistados_premio_campanha).toBe(1);
    expect(c.json.data.pendente_resgate_premio_campanha).toBe(1);
  });

  test('no campaign in establishment 2', async () => {
    const r = await post(
      sb,
      '/fidelidade/pontuar',
      {
        ...pontuarBody(NEW_PHONE, 1000, {}, 2),
        itens: [{ descricao: 'Refrigerante', valor: 1000 }],
      },
      { est: 2 },
    );
    expect(r.status).toBe(200);
    const c = await post(sb, '/clientes/buscar', { celular: NEW_PHONE }, { est: 2 });
    expect(c.json.data.conquistados_premio_campanha).toBe(0);
  });

  test('establishment 2: 500 cents per point, held in carencia', async () => {
    const r = await post(sb, '/fidelidade/pontuar', pontuarBody(NEW_PHONE, 2600, {}, 2), {
      est: 2,
    });
    expect(r.status).toBe(200);
    expect(r.json.data).toMatchObject({ saldo_atual: 0, saldo_carencia: 5 });
  });

  test('ids are unique across the whole service', async () => {
    const a = await post(sb, '/fidelidade/pontuar', pontuarBody(NEW_PHONE, 1000), { est: 1 });
    const b = await post(sb, '/fidelidade/pontuar', pontuarBody(NEW_PHONE, 1000, {}, 2), {
      est: 2,
    });
    expect(b.json.data.id_cliente).not.toBe(a.json.data.id_cliente);
    expect(b.json.data.id_ponto).toBe(a.json.data.id_ponto + 1);
  });

  test('a customer of another establishment is not reachable by id', async () => {
    const b = await post(sb, '/fidelidade/pontuar', pontuarBody(NEW_PHONE, 1000, {}, 2), {
      est: 2,
    });
    const r = await post(
      sb,
      '/clientes/buscar',
      { id_cliente: b.json.data.id_cliente },
      { est: 1 },
    );
    expect(r.status).toBe(404);
    expect(r.json.message).toBe('Cliente não encontrado');
  });
});

describe('pontuar validation', () => {
  test('a basket that does not add up is a 422 on itens showing both amounts', async () => {
    const r = await post(sb, '/fidelidade/pontuar', {
      ...pontuarBody(NEW_PHONE, 1050),
      itens: [
        { descricao: 'Café', valor: 700 },
        { descricao: 'Pão', valor: 500 },
      ],
    });
    expect(r.status).toBe(422);
    expect(r.json.errors).toEqual({
      itens: ['A soma dos itens (R$ 12,00) difere do valor gasto (R$ 10,50).'],
    });
    expect(r.json.message).toBe('A soma dos itens (R$ 12,00) difere do valor gasto (R$ 10,50).');
    const c = await post(sb, '/clientes/buscar', { celular: NEW_PHONE });
    expect(c.status).toBe(404);
  });

  test('a wrong attendant password is a 422 on senha_atendente and writes nothing', async () => {
    const r = await post(sb, '/fidelidade/pontuar', {
      ...pontuarBody(NEW_PHONE, 1000),
      senha_atendente: '4321',
    });
    expect(r.status).toBe(422);
    expect(r.json.errors).toEqual({ senha_atendente: ['Senha do atendente incorreta.'] });
    expect(r.json.message).toBe('Senha do atendente incorreta.');
    expect((await post(sb, '/clientes/buscar', { celular: NEW_PHONE })).status).toBe(404);
  });

  const base = (): Record<string, unknown> => pontuarBody(NEW_PHONE, 1000);
  const cases: [string, Record<string, unknown>, string[]][] = [
    ['valor_gasto missing', { ...base(), valor_gasto: undefined }, ['valor_gasto']],
    ['valor_gasto as a string', { ...base(), valor_gasto: '1000' }, ['valor_gasto']],
    ['valor_gasto with cents fraction', { ...base(), valor_gasto: 10.5 }, ['valor_gasto']],
    ['valor_gasto zero', { ...base(), valor_gasto: 0 }, ['valor_gasto']],
    ['valor_gasto over 10 000 000', { ...base(), valor_gasto: 10_000_001 }, ['valor_gasto']],
    ['senha_atendente missing', { ...base(), senha_atendente: undefined }, ['senha_atendente']],
    ['senha_atendente empty', { ...base(), senha_atendente: '' }, ['senha_atendente']],
    ['senha_atendente as a number', { ...base(), senha_atendente: 1234 }, ['senha_atendente']],
    ['cliente missing', { ...base(), cliente: undefined }, ['cliente']],
    ['cliente an array', { ...base(), cliente: [NEW_PHONE] }, ['cliente']],
    ['cliente a string', { ...base(), cliente: NEW_PHONE }, ['cliente']],
    ['cliente.celular missing', { ...base(), cliente: { nome: 'Ana' } }, ['cliente.celular']],
    [
      'cliente.cpf invalid',
      { ...base(), cliente: { celular: NEW_PHONE, cpf: '12345678900' } },
      ['cliente.cpf'],
    ],
    [
      'cliente.bairro too long',
      { ...base(), cliente: { celular: NEW_PHONE, bairro: 'b'.repeat(51) } },
      ['cliente.bairro'],
    ],
    [
      'cliente.endereco too long',
      { ...base(), cliente: { celular: NEW_PHONE, endereco: 'e'.repeat(101) } },
      ['cliente.endereco'],
    ],
    [
      'cliente.genero invalid',
      { ...base(), cliente: { celular: NEW_PHONE, genero: 'NA' } },
      ['cliente.genero'],
    ],
    ['itens not an array', { ...base(), itens: { descricao: 'x', valor: 1000 } }, ['itens']],
    [
      'itens over 200',
      { ...base(), itens: Array.from({ length: 201 }, () => ({ valor: 0 })) },
      ['itens'],
    ],
    ['an item not an object', { ...base(), itens: [{ valor: 1000 }, 'x'] }, ['itens.1']],
    [
      'an item valor as a string',
      { ...base(), itens: [{ valor: 500 }, { valor: 500 }, { valor: '0' }] },
      ['itens.2.valor'],
    ],
    [
      'an item valor negative',
      { ...base(), itens: [{ valor: 1100 }, { valor: -100 }] },
      ['itens.1.valor'],
    ],
    ['an item qtde zero', { ...base(), itens: [{ valor: 1000, qtde: 0 }] }, ['itens.0.qtde']],
    [
      'an item qtde fractional',
      { ...base(), itens: [{ valor: 1000, qtde: 1.5 }] },
      ['itens.0.qtde'],
    ],
    [
      'an item descricao too long',
      { ...base(), itens: [{ valor: 1000, descricao: 'd'.repeat(201) }] },
      ['itens.0.descricao'],
    ],
    [
      'an item complemento a number',
      { ...base(), itens: [{ valor: 1000, complemento: 7 }] },
      ['itens.0.complemento'],
    ],
  ];
  test.each(cases)('%s is a 422 on exactly that path', async (_name, body, paths) => {
    const r = await post(sb, '/fidelidade/pontuar', body);
    expect(r.status).toBe(422);
    expect(Object.keys(r.json.errors)).toEqual(paths);
    expect(r.json.message).toBe(r.json.errors[paths[0] as string][0]);
  });

  test('several errors at once, in field order', async () => {
    const r = await post(sb, '/fidelidade/pontuar', {
      valor_gasto: '10',
      senha_atendente: 'errada',
      cliente: { celular: '123', cep: 'abc' },
      itens: [{ valor: 1 }, { qtde: 0 }],
    });
    expect(r.status).toBe(422);
    expect(Object.keys(r.json.errors)).toEqual([
      'valor_gasto',
      'senha_atendente',
      'cliente.celular',
      'cliente.cep',
      'itens.1.qtde',
    ]);
    expect(r.json.message).toBe(r.json.errors.valor_gasto[0]);
  });

  test('a basket that adds up is accepted, items with valor 0 included', async () => {
    const r = await post(sb, '/fidelidade/pontuar', {
      ...base(),
      itens: [
        { descricao: 'Sacola', valor: 0, qtde: 1 },
        { descricao: 'Arroz', valor: 1000, qtde: 2 },
      ],
    });
    expect(r.status).toBe(200);
  });

  test('an empty itens list counts as no basket; null optionals count as omitted', async () => {
    const r = await post(sb, '/fidelidade/pontuar', {
      ...base(),
      itens: [],
      cliente: { celular: NEW_PHONE, cpf: null, nome: null, email: '', genero: null },
    });
    expect(r.status).toBe(200);
    const c = await post(sb, '/clientes/buscar', { celular: NEW_PHONE });
    expect(c.json.data).toMatchObject({
      nome: 'CLIENTE DESCONHECIDO',
      email: 'invalido@invalido.com.br',
      genero: 'NA',
    });
  });
});

describe('odd text in names and other free text', () => {
  const ODD_NAMES: [string, string][] = [
    ['NUL', 'Ana\u0000Lima'],
    ['a lone high surrogate', 'Ana \uD83D'],
    ['a lone low surrogate', '\uDE00Ana'],
    ['zero-width characters only', '\u200B\u200C\u200D\u2060'],
    ['a C0 control character (ESC)', 'Ana\u001B[2JLima'],
    ['a C1 control character', 'Ana\u0085Lima'],
  ];
  const NOME_INVALID = 'O nome tem caracteres inválidos.';

  test.each(ODD_NAMES)(
    'cadastrar refuses a nome with %s (422) and stores nothing',
    async (_n, nome) => {
      const r = await post(sb, '/clientes/cadastrar', { celular: NEW_PHONE, nome });
      expectRefusal(r, 422, NOME_INVALID, { nome: [NOME_INVALID] });
      expect((await post(sb, '/clientes/buscar', { celular: NEW_PHONE })).status).toBe(404);
    },
  );

  test.each(ODD_NAMES)(
    'pontuar refuses a cliente.nome with %s (422) and posts nothing',
    async (_n, nome) => {
      const r = await post(sb, '/fidelidade/pontuar', {
        ...pontuarBody(NEW_PHONE, 1000),
        cliente: { celular: NEW_PHONE, nome },
      });
      expect(r.status).toBe(422);
      expect(r.json.errors).toEqual({ 'cliente.nome': [NOME_INVALID] });
      expect(r.json.message).toBe(NOME_INVALID);
      expect((await post(sb, '/clientes/buscar', { celular: NEW_PHONE })).status).toBe(404);
    },
  );

  const NAMES = [
    'José D’Ávila',
    "Joana D'Arc O'Neil",
    'Zoë Ñúñez-Çağlar',
    'Nguyễn Thị Minh Khai',
    'Ana 😀 Família 👩‍👩‍👧',
    'نامه‌ای',
  ];
  test.each(NAMES)('cadastrar and pontuar keep the name %j as sent', async (nome) => {
    const r = await post(sb, '/clientes/cadastrar', { celular: NEW_PHONE, nome: ` ${nome} ` });
    expect(r.status).toBe(201);
    expect(r.json.data.nome).toBe(nome);
    const p = await post(sb, '/fidelidade/pontuar', {
      ...pontuarBody('+5511912345679', 1000),
      cliente: { celular: '+5511912345679', nome },
    });
    expect(p.status).toBe(200);
    const c = await post(sb, '/clientes/buscar', { celular: '+5511912345679' });
    expect(c.json.data.nome).toBe(nome);
  });

  test('a nome of spaces, a tab and a BOM is blank: the default name', async () => {
    const r = await post(sb, '/clientes/cadastrar', { celular: NEW_PHONE, nome: ' \uFEFF\t ' });
    expect(r.status).toBe(201);
    expect(r.json.data.nome).toBe('CLIENTE DESCONHECIDO');
  });

  test.each([
    ['email', 'ana\u0000@exemplo.com.br', 'O e-mail tem caracteres inválidos.'],
    ['endereco', 'Rua A\u0000, 10', 'O endereço tem caracteres inválidos.'],
    ['bairro', '\u200B', 'O bairro tem caracteres inválidos.'],
    ['cidade', 'São\u0007Paulo', 'A cidade tem caracteres inválidos.'],
    ['estado', 'S\uD800P', 'O estado tem caracteres inválidos.'],
  ])('cadastrar refuses odd text in %s with its own message', async (field, value, message) => {
    const r = await post(sb, '/clientes/cadastrar', { celular: NEW_PHONE, [field]: value });
    expect(r.status).toBe(422);
    expect(r.json.errors).toEqual({ [field]: [message] });
  });

  test('pontuar refuses odd text in an item descricao or complemento', async () => {
    const r = await post(sb, '/fidelidade/pontuar', {
      ...pontuarBody(NEW_PHONE, 1000),
      cliente: { celular: NEW_PHONE, cidade: '\u202E' },
      itens: [
        { descricao: 'Café ☕', complemento: 'sem açúcar', valor: 400 },
        { descricao: 'Pão\u0000', valor: 300 },
        { descricao: 'Bolo', complemento: '\u200D\u200D', valor: 300 },
      ],
    });
    expect(r.status).toBe(422);
    expect(r.json.errors).toEqual({
      'cliente.cidade': ['A cidade tem caracteres inválidos.'],
      'itens.1.descricao': ['A descrição do item tem caracteres inválidos.'],
      'itens.2.complemento': ['O complemento do item tem caracteres inválidos.'],
    });
    expect((await post(sb, '/clientes/buscar', { celular: NEW_PHONE })).status).toBe(404);
  });
});

describe('buscar', () => {
  test('finds Maria by celular with her wallet and history', async () => {
    const r = await post(sb, '/clientes/buscar', { celular: '+5511987654321' });
    expect(r.status).toBe(200);
    expect(r.json.success).toBe(true);
    expect(r.json.data).toMatchObject({
      id_cliente: 1,
      nome: 'Maria da Silva',
      celular: '+5511987654321',
      carteira: { saldo: 75, saldo_carencia: 0, pontos_vencidos: [] },
      receita: 176.2,
      compras: 3,
    });
    expect(r.json.data.carteira.historico).toHaveLength(3);
    expect(r.json.data.cpf).toBe('52998224725');
  });

  test('precedence: id_cliente over cpf over celular', async () => {
    const all = await post(sb, '/clientes/buscar', {
      id_cliente: 3,
      cpf: '39053344705',
      celular: '+5511987654321',
    });
    expect(all.json.data.id_cliente).toBe(3);
    const cpfAndCelular = await post(sb, '/clientes/buscar', {
      cpf: '39053344705',
      celular: '+5511987654321',
    });
    expect(cpfAndCelular.json.data.id_cliente).toBe(2);
    const celular = await post(sb, '/clientes/buscar', {
      celular: '+5511987654321',
      id_cliente: null,
      cpf: '',
    });
    expect(celular.json.data.id_cliente).toBe(1);
  });

  test('an id that matches nothing is a 404 even when celular would match', async () => {
    const r = await post(sb, '/clientes/buscar', {
      id_cliente: 999_999,
      celular: '+5511987654321',
    });
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ success: false, message: 'Cliente não encontrado', data: {} });
  });

  test('no key is a 422', async () => {
    const r = await post(sb, '/clientes/buscar', {});
    expect(r.status).toBe(422);
    expect(Object.keys(r.json.errors)).toEqual(['id_cliente', 'cpf', 'celular']);
  });

  test.each([
    [{ id_cliente: '1' }, 'id_cliente'],
    [{ id_cliente: 1.5 }, 'id_cliente'],
    [{ id_cliente: 0 }, 'id_cliente'],
    [{ cpf: '123' }, 'cpf'],
    [{ celular: '11987654321' }, 'celular'],
  ])('%j is a 422 on %s', async (body, path) => {
    const r = await post(sb, '/clientes/buscar', body);
    expect(r.status).toBe(422);
    expect(Object.keys(r.json.errors)).toEqual([path]);
  });
});

describe('unexpected errors', () => {
  test('are a 500 envelope that leaks nothing', async () => {
    const errors: unknown[] = [];
    const { openSandbox } = await import('./sandbox');
    const broken = openSandbox({ dbPath: ':memory:', onError: (e) => errors.push(e) });
    broken.close();
    const r = await post(broken, '/clientes/buscar', { id_cliente: 1 });
    expectRefusal(r, 500, 'Erro interno do serviço. Tente novamente em instantes.');
    expect(JSON.stringify(r.json)).not.toMatch(/sqlite|database|Error/i);
    expect(errors).toHaveLength(1);
  });
});
