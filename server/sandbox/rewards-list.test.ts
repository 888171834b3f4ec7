import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Sandbox } from './sandbox';
import type { RewardRecord } from './store';
import { get, openTestSandbox, ORIGIN, pontuarBody, post } from '../testing/sandbox';

/** A reward record as the list answers it. */
type Rec = RewardRecord;

const LIST = `${ORIGIN}/api/v4/estabelecimentos/1/recompensas`;

let sb: Sandbox;
let all: Rec[];

/** Every record of establishment 1, walking the pages. */
async function everything(query = ''): Promise<Rec[]> {
  const out: Rec[] = [];
  for (let page = 1; ; page++) {
    const r = await get(sb, `/recompensas?itens_por_pagina=100&page=${page}${query}`);
    expect(r.status).toBe(200);
    out.push(...(r.json.data.data as Rec[]));
    if (r.json.data.next_page_url === null) return out;
  }
}

beforeAll(async () => {
  sb = openTestSandbox();
  all = await everything();
});
afterAll(() => sb.close());

describe('reward list', () => {
  test('the default page has 15 records, newest first, and a complete page envelope', async () => {
    const r = await get(sb, '/recompensas');
    expect(r.status).toBe(200);
    expect(r.json.success).toBe(true);
    const d = r.json.data;
    const lastPage = Math.ceil(all.length / 15);
    expect(d).toEqual({
      current_page: 1,
      data: all.slice(0, 15),
      first_page_url: `${LIST}?page=1`,
      last_page_url: `${LIST}?page=${lastPage}`,
      next_page_url: `${LIST}?page=2`,
      prev_page_url: null,
      from: 1,
      to: 15,
      per_page: 15,
      last_page: lastPage,
      total: all.length,
    });
  });

  test('records carry every field of the spec', () => {
    const first = all[0];
    expect(Object.keys(first ?? {}).sort()).toEqual(
      [
        'id_premio_cliente',
        'id_cliente',
        'id_premio',
        'valido_ate',
        'data_resgate',
        'data_conquista',
        'estornado_em',
        'premio_status',
        'categoria_premio',
        'nome',
      ].sort(),
    );
  });

  test('order: data_conquista descending, then id_premio_cliente descending', () => {
    for (let i = 1; i < all.length; i++) {
      const a = all[i - 1] as Rec;
      const b = all[i] as Rec;
      const ok =
        a.data_conquista > b.data_conquista ||
        (a.data_conquista === b.data_conquista && a.id_premio_cliente > b.id_premio_cliente);
      expect(ok, `${a.id_premio_cliente} before ${b.id_premio_cliente}`).toBe(true);
    }
  });

  test('ties on data_conquista are ordered by id descending', async () => {
    // 350 points at one moment: three loyalty rewards with the same data_conquista.
    const local = openTestSandbox();
    try {
      await post(local, '/fidelidade/pontuar', pontuarBody('+5511912345678', 35_000));
      const r = await get(local, '/recompensas?itens_por_pagina=3');
      const ids = r.json.data.data.map((x: Rec) => x.id_premio_cliente);
      expect(new Set(r.json.data.data.map((x: Rec) => x.data_conquista)).size).toBe(1);
      expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));
    } finally {
      local.close();
    }
  });

  test('pages are consecutive slices; from and to are positions', async () => {
    const r = await get(sb, '/recompensas?itens_por_pagina=7&page=3');
    expect(r.json.data).toMatchObject({ current_page: 3, from: 15, to: 21, per_page: 7 });
    expect(r.json.data.data).toEqual(all.slice(14, 21));
  });

  test('page URLs are absolute and keep every filter, changing only page', async () => {
    const q =
      'status=resgatado&categoria=premio_fidelidade&itens_por_pagina=2&q=vale&page=2&data_inicio=2025-11-01&data_fim=2026-11-22&filtrar_por=data_conquista';
    const r = await get(sb, `/recompensas?${q}`);
    expect(r.status).toBe(200);
    const d = r.json.data;
    expect(d.last_page).toBeGreaterThan(2);
    const expected = (page: number) => `${LIST}?${q.replace('page=2', `page=${page}`)}`;
    expect(d.first_page_url).toBe(expected(1));
    expect(d.prev_page_url).toBe(expected(1));
    expect(d.next_page_url).toBe(expected(3));
    expect(d.last_page_url).toBe(expected(d.last_page));
  });

  test('the last page has no next_page_url', async () => {
    const first = await get(sb, '/recompensas?itens_por_pagina=10');
    const last = first.json.data.last_page;
    const r = await get(sb, `/recompensas?itens_por_pagina=10&page=${last}`);
    expect(r.json.data.next_page_url).toBeNull();
    expect(r.json.data.to).toBe(all.length);
  });

  test('a page past the end: empty data, from/to null, the rest still true', async () => {
    const r = await get(sb, '/recompensas?page=999');
    expect(r.status).toBe(200);
    const lastPage = Math.ceil(all.length / 15);
    expect(r.json.data).toEqual({
      current_page: 999,
      data: [],
      first_page_url: `${LIST}?page=1`,
      last_page_url: `${LIST}?page=${lastPage}`,
      next_page_url: null,
      prev_page_url: `${LIST}?page=998`,
      from: null,
      to: null,
      per_page: 15,
      last_page: lastPage,
      total: all.length,
    });
  });

  test.each(['expirado', 'pendente_resgate', 'resgatado', 'estornado'])(
    'status=%s',
    async (status) => {
      const got = await everything(`&status=${status}`);
      expect(got.length).toBeGreaterThan(0);
      expect(got.every((r) => r.premio_status === status)).toBe(true);
      expect(got).toEqual(all.filter((r) => r.premio_status === status));
    },
  );

  test('status fields agree with dates', () => {
    for (const r of all) {
      if (r.premio_status === 'resgatado') expect(r.data_resgate).not.toBeNull();
      if (r.premio_status === 'estornado') expect(r.estornado_em).not.toBeNull();
      if (r.premio_status === 'expirado') expect(r.valido_ate < '2026-11-22 12:00:00').toBe(true);
      if (r.premio_status === 'pendente_resgate')
        expect(r.valido_ate >= '2026-11-22 12:00:00').toBe(true);
    }
  });

  test.each([
    'premio_fidelidade',
    'brinde_roleta',
    'premio_surpresa',
    'premio_campanha',
    'premio_game',
  ])('categoria=%s', async (categoria) => {
    const got = await everything(`&categoria=${categoria}`);
    expect(got.length).toBeGreaterThan(0);
    expect(got).toEqual(all.filter((r) => r.categoria_premio === categoria));
  });

  test('q is a case-insensitive substring of the name', async () => {
    const got = await everything('&q=VALE-COMPRAS');
    expect(got.length).toBeGreaterThan(0);
    expect(got).toEqual(all.filter((r) => r.nome.toLowerCase().includes('vale-compras')));
    const accented = await everything(`&q=${encodeURIComponent('BOMBONS SURPRESA')}`);
    expect(accented.map((r) => r.nome)).toEqual(accented.map(() => 'Caixa de bombons surpresa'));
    expect(accented.length).toBeGreaterThan(0);
    const none = await get(sb, '/recompensas?q=inexistente');
    expect(none.json.data).toMatchObject({
      total: 0,
      data: [],
      from: null,
      to: null,
      last_page: 1,
    });
  });

  test('id_cliente restricts to one customer', async () => {
    const got = await everything('&id_cliente=1');
    expect(got.map((r) => [r.nome, r.premio_status])).toEqual([
      ['Chaveiro da Loja Demo', 'pendente_resgate'],
      ['Refrigerante lata grátis', 'expirado'],
      ['Vale-compras de R$ 10,00', 'resgatado'],
    ]);
  });

  test('dates without filtrar_por filter data_conquista, whole days inclusive', async () => {
    const day = (all[20] as Rec).data_conquista.slice(0, 10);
    const got = await everything(`&data_inicio=${day}&data_fim=${day}`);
    expect(got.length).toBeGreaterThan(0);
    expect(got).toEqual(all.filter((r) => r.data_conquista.startsWith(day)));
  });

  test('a date range on data_conquista', async () => {
    const got = await everything('&data_inicio=2026-06-01&data_fim=2026-08-31');
    expect(got).toEqual(
      all.filter((r) => r.data_conquista >= '2026-06-01' && r.data_conquista < '2026-09-01'),
    );
    expect(got.length).toBeGreaterThan(0);
  });

  test.each([
    ['data_resgate', (r: Rec) => r.data_resgate],
    ['estornado_em', (r: Rec) => r.estornado_em],
    ['valido_ate', (r: Rec) => r.valido_ate],
  ] as const)('filtrar_por=%s filters that field (nulls never match)', async (campo, pick) => {
    const got = await everything(
      `&filtrar_por=${campo}&data_inicio=2026-01-01&data_fim=2026-10-31`,
    );
    const expected = all.filter((r) => {
      const v = pick(r);
      return v !== null && v >= '2026-01-01' && v < '2026-11-01';
    });
    expect(expected.length).toBeGreaterThan(0);
    expect(got).toEqual(expected);
  });

  test('only data_fim: everything up to the end of that day', async () => {
    const got = await everything('&data_fim=2026-03-15');
    expect(got).toEqual(all.filter((r) => r.data_conquista < '2026-03-16'));
  });

  test('filters combine', async () => {
    const got = await everything(
      '&status=resgatado&categoria=premio_fidelidade&data_inicio=2026-01-01',
    );
    expect(got).toEqual(
      all.filter(
        (r) =>
          r.premio_status === 'resgatado' &&
          r.categoria_premio === 'premio_fidelidade' &&
          r.data_conquista >= '2026-01-01',
      ),
    );
  });

  test('empty parameters count as not sent', async () => {
    const r = await get(sb, '/recompensas?status=&categoria=&q=&page=');
    expect(r.status).toBe(200);
    expect(r.json.data.total).toBe(all.length);
  });

  test('only the establishment’s own records', async () => {
    const r = await get(sb, '/recompensas', { est: 2 });
    expect(r.json.data).toMatchObject({
      total: 0,
      data: [],
      current_page: 1,
      last_page: 1,
      from: null,
      to: null,
    });
    const other = await get(sb, '/recompensas?id_cliente=1', { est: 2 });
    expect(other.json.data.total).toBe(0);
  });

  const bad: [string, string][] = [
    ['itens_por_pagina=0', 'itens_por_pagina'],
    ['itens_por_pagina=101', 'itens_por_pagina'],
    ['itens_por_pagina=abc', 'itens_por_pagina'],
    ['itens_por_pagina=1.5', 'itens_por_pagina'],
    ['page=0', 'page'],
    ['page=-1', 'page'],
    ['page=dois', 'page'],
    ['status=vencido', 'status'],
    ['categoria=premio', 'categoria'],
    ['filtrar_por=criado_em', 'filtrar_por'],
    ['data_inicio=2026-02-30', 'data_inicio'],
    ['data_fim=22/11/2026', 'data_fim'],
    ['data_inicio=2026-11-02&data_fim=2026-11-01', 'data_fim'],
    ['id_cliente=um', 'id_cliente'],
    ['id_cliente=0', 'id_cliente'],
    [`q=${'x'.repeat(101)}`, 'q'],
  ];
  test.each(bad)('%s is a 422 on that parameter', async (query, path) => {
    const r = await get(sb, `/recompensas?${query}`);
    expect(r.status).toBe(422);
    expect(r.json.success).toBe(false);
    expect(Object.keys(r.json.errors)).toEqual([path]);
    expect(r.json.message).toBe(r.json.errors[path][0]);
  });

  test('a repeated parameter counts by its last value', async () => {
    const r = await get(sb, '/recompensas?status=foo&status=expirado');
    expect(r.status).toBe(200);
    expect(r.json.data.total).toBe(all.filter((x) => x.premio_status === 'expirado').length);
    expect((await get(sb, '/recompensas?status=expirado&status=foo')).status).toBe(422);
  });

  test('extreme but real dates are accepted', async () => {
    const wide = await get(sb, '/recompensas?data_inicio=0001-01-01&data_fim=9999-12-31');
    expect(wide.status).toBe(200);
    expect(wide.json.data.total).toBe(all.length);
    const none = await get(sb, '/recompensas?data_inicio=9999-12-31');
    expect(none.json.data.total).toBe(0);
    const old = await get(sb, '/recompensas?data_fim=0050-01-01');
    expect(old.json.data.total).toBe(0);
  });

  test('itens_por_pagina 1 and 100 are allowed', async () => {
    expect((await get(sb, '/recompensas?itens_por_pagina=1')).json.data.data).toHaveLength(1);
    expect((await get(sb, '/recompensas?itens_por_pagina=100')).json.data.per_page).toBe(100);
  });
});
