// A chain's stores from one deployment: three stores (the sandbox's establishments 1, 3 and 4,
// each with its own token, program and customers) behind one dispatcher, on both engines.
// Every call that reaches the sandbox is counted by establishment: a request naming another
// store is refused before the service is called, and each store answers only for itself.
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { addIntegration } from '../store';
import type { Store } from '../store';
import type { StoreOptions } from '../store/store';
import { setChainStoreToken } from './domain/stores';
import { CHAIN, CHAIN_METRICS_TOKEN, chainEachTest, makeChain } from '../testing/chain-harness';
import type { Chain } from '../testing/chain-harness';
import { describeEngines } from '../testing/pg-cluster';
import { storeFixture } from '../testing/store-fixture';
import { TEST_SECRET } from '../testing/app-harness';
import { enrollWithCode, op, post, type Requester } from './testing/requests';

const stores = storeFixture('chain-test');

const json = async (res: Response) =>
  (await res.json()) as { success: boolean; message: string; data: Record<string, unknown> };
/** A customer of the sandbox's chain store `id` (chain-seed.ts): the first one's phone. */
const phoneAt = (id: number) => `+55119${String(id).padStart(4, '0')}0001`;
/** The dashboard of the last 7 days up to today (São Paulo). */
const painelPath = () => {
  const day = (ms: number) => new Date(ms - 3 * 3_600_000).toISOString().slice(0, 10);
  return `/api/painel?de=${day(Date.now() - 6 * 86_400_000)}&ate=${day(Date.now())}`;
};
/** A terminal (or the chain's app itself) looking up the customer of phone `celular` at store `id`. */
const buscar = (t: Requester, id: number, celular: string) =>
  t.request(op(id, 'clientes/buscar'), post({ celular }));
const sale = (phone: string, valor = 1_000) => ({
  valor_gasto: valor,
  senha_atendente: '1234',
  cliente: { celular: phone },
});

describeEngines('a chain of three stores on %s', (engine) => {
  let store: Store;
  let where: StoreOptions;
  let c: Chain;

  chainEachTest(stores, engine, (opened) => ({ store, where, chain: c } = opened));

  test('each store is served with its own name, its own token and its own customers', async () => {
    for (const [id, name] of [
      [CHAIN.a, 'Loja Demo'],
      [CHAIN.b, 'Loja Centro'],
      [CHAIN.c, 'Loja Norte'],
    ] as const) {
      const t = await c.terminal(id, 'caixa');
      const config = await json(await t.request('/api/config'));
      expect(config.data).toMatchObject({ establishmentId: id, establishmentName: name });
      const found = await buscar(t, id, phoneAt(id));
      // Store 1's seed has no such phone; the chain's stores each have their own first customer.
      expect(found.status).toBe(id === CHAIN.a ? 404 : 200);
    }
    // The same phone at another store is another store's business: not found there.
    const b = await c.terminal(CHAIN.b, 'caixa');
    const there = await buscar(b, CHAIN.b, phoneAt(CHAIN.c));
    expect(there.status).toBe(404);
  });

  test('every forwarded operation naming another store is refused, the service not called', async () => {
    const a = await c.terminal(CHAIN.a, 'gerente');
    const requests: [string, RequestInit][] = [
      [op(CHAIN.b, 'clientes/buscar'), post({ celular: phoneAt(CHAIN.b) })],
      [op(CHAIN.b, 'clientes/cadastrar'), post({ celular: '+5511955551234', nome: 'X' })],
      [op(CHAIN.b, 'fidelidade/pontuar'), post(sale(phoneAt(CHAIN.b)), randomUUID())],
      [
        op(CHAIN.b, 'fidelidade/resgatar-premio'),
        post({ id_premio: 8, id_cliente: 1, senha_atendente: '1234' }, randomUUID()),
      ],
      [op(CHAIN.b, 'recompensas?itens_por_pagina=5'), {}],
      // Its own path, another store named in the query or the body.
      [op(CHAIN.a, 'recompensas?id_estabelecimento=3'), {}],
      [op(CHAIN.a, 'recompensas?establishment_id=4'), {}],
      [op(CHAIN.a, 'clientes/buscar'), post({ celular: phoneAt(CHAIN.b), id_estabelecimento: 3 })],
      [
        op(CHAIN.a, 'fidelidade/pontuar'),
        post({ ...sale('+5511955550001'), estabelecimento_id: CHAIN.c }, randomUUID()),
      ],
      [
        op(CHAIN.a, 'clientes/cadastrar'),
        post({ celular: '+5511955550002', cliente: { establishment_id: CHAIN.b } }),
      ],
      [
        op(CHAIN.a, 'fidelidade/resgatar-premio'),
        post(
          { id_premio: 1, id_cliente: 1, senha_atendente: '1234', id_estabelecimento: 3 },
          randomUUID(),
        ),
      ],
    ];
    let refused = 0;
    for (const [url, init] of requests) {
      const before = [...c.calls.values()].reduce((s, n) => s + n, 0);
      const res = await a.request(url, init);
      const body = await json(res);
      expect(res.status, url).toBe(403);
      expect(body).toMatchObject({ success: false });
      expect(body.message).toBe('Este terminal só pode acessar o próprio estabelecimento.');
      expect(
        [...c.calls.values()].reduce((s, n) => s + n, 0),
        url,
      ).toBe(before);
      refused++;
    }
    console.log(
      `[chain ${engine}] ${refused} requests naming another store: 403, 0 calls to the service`,
    );
    expect(c.callsTo(CHAIN.b) + c.callsTo(CHAIN.c)).toBe(0);
    // Its own store's id in the body is fine.
    const own = await a.request(
      op(CHAIN.a, 'clientes/buscar'),
      post({ celular: '+5511987654321', id_estabelecimento: 1 }),
    );
    expect(own.status).toBe(200);
  });

  test("another store's terminal, posting key, PDV sale and kiosk are none of this store's", async () => {
    const a = await c.terminal(CHAIN.a, 'gerente');
    const b = await c.terminal(CHAIN.b, 'gerente');
    const kioskB = await c.terminal(CHAIN.b, 'quiosque', 'Quiosque B');
    // A posting at B, then A asks for it by its key.
    const key = randomUUID();
    const posted = await b.request(
      op(CHAIN.b, 'fidelidade/pontuar'),
      post(sale(phoneAt(CHAIN.b)), key),
    );
    expect(posted.status).toBe(200);
    expect((await b.request(`/api/lancamentos/${key}`)).status).toBe(200);
    expect((await a.request(`/api/lancamentos/${key}`)).status).toBe(404);
    // A's ledger and dashboard do not count it.
    const ledgerA = await json(await a.request('/api/lancamentos'));
    expect(JSON.stringify(ledgerA.data)).not.toContain(key);
    // A's counter cannot send a sale to B's kiosk, nor see it in its list.
    const kiosks = await json(await a.request('/api/quiosque/terminais'));
    expect(JSON.stringify(kiosks.data)).not.toContain('Quiosque B');
    const staged = await a.request(
      '/api/quiosque/vendas',
      post({ valor_gasto: 1000, senha_atendente: '1234', quiosque: kioskB.id }),
    );
    expect(staged.status).toBe(422);
    // B's kiosk is no terminal at store A's paths either (its cookie names store B).
    expect((await buscar(kioskB, CHAIN.a, '+5511987654321')).status).toBe(403);
  });

  test("a PDV sale of store B never reaches store A's counter or kiosk", async () => {
    const counterA = await c.terminal(CHAIN.a, 'gerente', 'Caixa A');
    const kioskA = await c.terminal(CHAIN.a, 'quiosque', 'Quiosque A');
    const counterB = await c.terminal(CHAIN.b, 'caixa', 'Caixa B');
    const pdvB = await addIntegration(store, { name: 'PDV B', counterId: counterB.id });
    expect(pdvB.terminal.establishmentId).toBe(CHAIN.b);
    const sent = await c.request('/api/integracao/vendas', {
      method: 'POST',
      headers: { authorization: `Bearer ${pdvB.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ id_venda: 'b-1', valor_gasto: 2590 }),
    });
    expect(sent.status).toBe(201);
    const saleId = ((await json(sent)).data.venda as { id: string }).id;
    // B's counter sees it waiting; A's manager (every counter of A) does not, nor by its id.
    const atB = await json(await counterB.request('/api/integracao/balcao/vendas'));
    expect(JSON.stringify(atB.data)).toContain(saleId);
    const atA = await json(await counterA.request('/api/integracao/balcao/vendas'));
    expect(JSON.stringify(atA.data)).not.toContain(saleId);
    const toKiosk = await counterA.request(
      `/api/integracao/balcao/vendas/${saleId}/quiosque`,
      post({ quiosque: kioskA.id, senha_atendente: '1234' }),
    );
    expect(toKiosk.status).toBe(404);
    const kioskView = await json(await kioskA.request('/api/quiosque/venda'));
    expect(kioskView.data.venda ?? null).toBeNull();
    // A's dashboard counts no PDV sale.
    const painelB = await counterB.request(painelPath());
    expect(painelB.status).toBe(403); // a caixa sees no dashboard
    const managerB = await c.terminal(CHAIN.b, 'gerente', 'Gerente B');
    const atPainelB = await json(await managerB.request(painelPath()));
    expect((atPainelB.data.pdv as { total: number }).total).toBe(1);
    const atPainelA = await json(await counterA.request(painelPath()));
    expect((atPainelA.data.pdv as { total: number } | undefined)?.total ?? 0).toBe(0);
    expect(atPainelA.data.de).toBeDefined();
  });

  test('a store whose token the service refuses does not stop the others; an outage opens only its circuit', async () => {
    const a = await c.terminal(CHAIN.a, 'caixa');
    const b = await c.terminal(CHAIN.b, 'caixa');
    // B's token revoked at the service (replaced by one the service does not know).
    expect(await setChainStoreToken(store, TEST_SECRET, CHAIN.a, CHAIN.b, 'revoked-token-b')).toBe(
      'ok',
    );
    const refusedB = await b.request(
      op(CHAIN.b, 'fidelidade/pontuar'),
      post(sale(phoneAt(CHAIN.b)), randomUUID()),
    );
    expect(refusedB.status).toBe(401);
    for (let i = 0; i < 5; i++) {
      const r = await buscar(b, CHAIN.b, phoneAt(CHAIN.b));
      expect(r.status).toBe(401); // an answer, not an outage: never 503
    }
    const okA = await a.request(
      op(CHAIN.a, 'fidelidade/pontuar'),
      post(sale('+5511987654321'), randomUUID()),
    );
    expect(okA.status).toBe(200);
    expect((await c.chain.appOf(CHAIN.b))!.circuit.isOpen()).toBe(false);
    expect((await c.chain.appOf(CHAIN.a))!.circuit.isOpen()).toBe(false);
    // An outage at store C: its circuit opens after 3 failures; A and B's stay closed.
    const cc = await c.terminal(CHAIN.c, 'caixa');
    c.down.add(CHAIN.c);
    for (let i = 0; i < 3; i++) {
      const r = await buscar(cc, CHAIN.c, phoneAt(CHAIN.c));
      expect(r.status).toBe(502);
    }
    const shut = await buscar(cc, CHAIN.c, phoneAt(CHAIN.c));
    expect(shut.status).toBe(503);
    expect((await c.chain.appOf(CHAIN.c))!.circuit.isOpen()).toBe(true);
    expect((await c.chain.appOf(CHAIN.a))!.circuit.isOpen()).toBe(false);
    const stillA = await a.request(
      op(CHAIN.a, 'fidelidade/pontuar'),
      post(sale('+5511987654321'), randomUUID()),
    );
    expect(stillA.status).toBe(200);
    console.log(
      `[chain ${engine}] token revoked at ${CHAIN.b}: 6 answers 401, its circuit closed; ` +
        `outage at ${CHAIN.c}: 3 failures, its circuit open; ${CHAIN.a} kept posting`,
    );
  });

  test("an enrollment code is redeemed at its terminal's store; metrics are labelled by store", async () => {
    const { addTerminal } = await import('../store');
    const { code } = await addTerminal(store, {
      name: 'Caixa Norte',
      role: 'caixa',
      establishmentId: CHAIN.c,
    });
    const { cookie, config } = await enrollWithCode(c, code);
    expect(config).toMatchObject({
      establishmentId: CHAIN.c,
      establishmentName: 'Loja Norte',
    });
    const found = await c.request(op(CHAIN.c, 'clientes/buscar'), {
      ...post({ celular: phoneAt(CHAIN.c) }),
      headers: { cookie },
    });
    expect(found.status).toBe(200);
    // The same code again: used.
    expect((await c.request('/api/terminal/registrar', post({ codigo: code }))).status).toBe(422);
    const metrics = await c.request('/metrics', {
      headers: { authorization: `Bearer ${CHAIN_METRICS_TOKEN}` },
    });
    const text = await metrics.text();
    expect(text).toMatch(/pdv_store_upstream_calls_total\{estabelecimento="4",outcome="ok"\} 1\b/);
    expect(text).toContain('pdv_store_circuit_open{estabelecimento="3"} 0');
    expect(text).not.toMatch(/estabelecimento="(2|5)"/);
  });

  test("a counter's customer display is a kiosk of its own store", async () => {
    const { setPdvDisplay } = await import('../store');
    const counterA = await c.terminal(CHAIN.a, 'caixa');
    const kioskA = await c.terminal(CHAIN.a, 'quiosque');
    const kioskB = await c.terminal(CHAIN.b, 'quiosque');
    expect(await setPdvDisplay(store, counterA.id, kioskB.id)).toBe('other-store');
    expect(await setPdvDisplay(store, counterA.id, kioskA.id)).toBe('ok');
  });

  test('rede reads as a gerente does and posts, registers and hands over nothing', async () => {
    const rede = await c.terminal(CHAIN.a, 'rede', 'Rede');
    const config = await json(await rede.request('/api/config'));
    expect(config.data.terminal).toMatchObject({
      role: 'rede',
      navigation: { caixa: false, premios: true, painel: true, auditoria: true, quiosque: false },
    });
    const before = c.callsTo(CHAIN.a);
    const writes: [string, RequestInit][] = [
      [op(CHAIN.a, 'fidelidade/pontuar'), post(sale('+5511987654321'), randomUUID())],
      [op(CHAIN.a, 'clientes/cadastrar'), post({ celular: '+5511955557777' })],
      [
        op(CHAIN.a, 'fidelidade/resgatar-premio'),
        post({ id_premio: 1, id_cliente: 1, senha_atendente: '1234' }, randomUUID()),
      ],
      ['/api/quiosque/vendas', post({ valor_gasto: 100, senha_atendente: '1234', quiosque: 1 })],
    ];
    for (const [url, init] of writes) {
      expect((await rede.request(url, init)).status, url).toBe(403);
    }
    expect(c.callsTo(CHAIN.a)).toBe(before);
    expect((await rede.request(painelPath())).status).toBe(200);
    expect((await rede.request('/api/auditoria')).status).toBe(200);
    expect((await rede.request(op(CHAIN.a, 'recompensas?itens_por_pagina=5'))).status).toBe(200);
    expect((await buscar(rede, CHAIN.a, '+5511987654321')).status).toBe(200);
  });

  test("each store's audit trail names it and shows only its own entries", async () => {
    const a = await c.terminal(CHAIN.a, 'gerente', 'Gerente A');
    const b = await c.terminal(CHAIN.b, 'gerente', 'Gerente B');
    const exported = (t: typeof a) =>
      t.request(
        '/api/auditoria/exportacoes',
        post({ tipo: 'lancamentos', linhas: 1, filtros: {} }),
      );
    expect((await exported(b)).status).toBe(201);
    const auditA = await json(await a.request('/api/auditoria'));
    const auditB = await json(await b.request('/api/auditoria'));
    expect(JSON.stringify(auditB.data)).toContain('Gerente B');
    expect(JSON.stringify(auditA.data)).not.toContain('Gerente B');
    const rows = await store.db
      .selectFrom('audit_log')
      .select(['terminal_name', 'establishment_id'])
      .execute();
    expect(rows.find((r) => r.terminal_name === 'Gerente B')?.establishment_id).toBe(CHAIN.b);
  });

  test('a store added to the list is served with no restart; a removed one is refused', async () => {
    const later = await makeChain(store, { ttlMs: 0 });
    try {
      // A store 5 that no process knew of: its terminal is refused until it is listed.
      const { addChainStore, removeChainStore } = await import('./domain/stores');
      const t5 = await later.terminal(5, 'caixa');
      expect((await t5.request('/api/config')).status).toBe(403);
      expect(
        await addChainStore(store, TEST_SECRET, CHAIN.a, {
          establishmentId: 5,
          name: 'Loja Nova',
          accessToken: 'demo-access-token-5',
        }),
      ).toBe('ok');
      const config = await json(await t5.request('/api/config'));
      expect(config.data).toMatchObject({ establishmentId: 5, establishmentName: 'Loja Nova' });
      expect(await removeChainStore(store, CHAIN.a, 5)).toBe('ok');
      expect((await t5.request('/api/config')).status).toBe(403);
    } finally {
      await later.stop();
    }
  });

  test.runIf(engine === 'sqlite')(
    "no access-token is in plaintext in the store's file",
    async () => {
      const rows = await store.db.selectFrom('stores').selectAll().execute();
      expect(rows.map((r) => Number(r.establishment_id)).sort()).toEqual([3, 4]);
      // The database file and its write-ahead log, as they are on disk.
      const file = where.sqlitePath!;
      const bytes = Buffer.concat(
        [file, `${file}-wal`].filter((f) => existsSync(f)).map((f) => readFileSync(f)),
      );
      expect(bytes.includes(Buffer.from('Loja Centro'))).toBe(true); // the file is readable
      for (const token of ['demo-access-token-3', 'demo-access-token-4']) {
        expect(bytes.includes(Buffer.from(token))).toBe(false);
      }
      console.log(`[chain sqlite] ${bytes.length} bytes of the store's files: 0 plaintext tokens`);
    },
  );
});
