// The "Terminais" screen's routes through the real app of a chain of three stores (the
// sandbox's establishments 1, 3 and 4), on both engines: who may list, create a code, revoke
// and pair; a store's gerente never reaches another store's terminals; every change is in the
// audit trail of the terminal's store; a revoked terminal is refused on its next request, on
// another replica too.
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { TERMINAL_TRUST_MS } from '../store/terminals/active';
import type { Store } from '../store';
import { CHAIN, makeChain } from '../testing/chain-harness';
import type { Chain } from '../testing/chain-harness';
import { describeEngines } from '../testing/pg-cluster';
import { storeFixture } from '../testing/store-fixture';
import type { StoreLocation } from '../testing/store-fixture';
import { openStore } from '../store';
import { enrollWithCode, post } from './testing/requests';

const fixture = storeFixture('terminais');

type Body = {
  success: boolean;
  message: string;
  errors?: Record<string, string[]>;
  data: Record<string, unknown>;
};
const json = async (res: Response) => (await res.json()) as Body;
const put = (body: unknown): RequestInit => ({ method: 'PUT', body: JSON.stringify(body) });
type Item = { id: number; nome: string; papel: string; loja: number; estado: string };
const items = (b: Body) => b.data.itens as Item[];

describeEngines('the Terminais routes on %s', (engine) => {
  let store: Store;
  let where: StoreLocation;
  let c: Chain;

  beforeEach(async () => {
    where = await fixture.location(engine);
    store = await openStore(where);
    c = await makeChain(store);
  }, 30_000);
  afterEach(async () => {
    await c.stop();
    await store.close();
  });

  /** The audit entries a store's gerente reads, newest first: [action, actor id, details]. */
  async function trail(establishmentId: number) {
    const g = await c.terminal(establishmentId, 'gerente', 'Leitor');
    const page = await json(await g.request('/api/auditoria'));
    const itens = page.data.itens as {
      acao: string;
      terminal: { id: number } | null;
      detalhes: Record<string, unknown>;
    }[];
    return itens
      .filter((e) => e.acao.startsWith('terminal.') && e.acao !== 'terminal.registrado')
      .map((e) => [e.acao, e.terminal?.id ?? null, e.detalhes] as const);
  }

  test('a cashier or a kiosk is refused on every route, a browser not enrolled too', async () => {
    const target = await c.terminal(CHAIN.a, 'caixa', 'Alvo');
    const kiosk = await c.terminal(CHAIN.a, 'quiosque', 'Quiosque');
    const routes: [string, RequestInit][] = [
      ['/api/terminais', {}],
      ['/api/terminais?loja=1', {}],
      ['/api/terminais', post({ nome: 'Novo', papel: 'caixa' })],
      [`/api/terminais/${target.id}/revogar`, post({})],
      [`/api/terminais/${target.id}/quiosque`, put({ quiosque: kiosk.id })],
    ];
    let refused = 0;
    for (const role of ['caixa', 'quiosque'] as const) {
      const t = await c.terminal(CHAIN.a, role);
      for (const [path, init] of routes) {
        const res = await t.request(path, init);
        expect(res.status, `${role} ${init.method ?? 'GET'} ${path}`).toBe(403);
        expect((await json(res)).message).toBe('Só um gerente ou a rede gerenciam terminais.');
        refused++;
      }
    }
    for (const [path, init] of routes) {
      expect((await c.request(path, init)).status).toBe(401);
      refused++;
    }
    console.log(`${engine}: ${refused} requests refused (caixa, quiosque, not enrolled)`);
    // Nothing changed: the target still works, no code was made, nothing audited.
    expect((await target.request('/api/config')).status).toBe(200);
    expect(await trail(CHAIN.a)).toEqual([]);
  });

  test('a gerente lists its own store only, and is refused another store', async () => {
    const g = await c.terminal(CHAIN.b, 'gerente', 'Gerência Centro');
    await c.terminal(CHAIN.b, 'caixa', 'Caixa Centro');
    await c.terminal(CHAIN.c, 'caixa', 'Caixa Norte');
    await c.terminal(CHAIN.a, 'caixa', 'Caixa Demo');
    const res = await g.request('/api/terminais');
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.data.loja).toBe(CHAIN.b);
    expect(body.data.lojas).toEqual([{ id: CHAIN.b, nome: 'Loja Centro' }]);
    expect(body.data.papeis).toEqual(['caixa', 'gerente', 'quiosque']);
    expect(items(body).map((t) => [t.nome, t.papel, t.loja, t.estado])).toEqual([
      ['Gerência Centro', 'gerente', CHAIN.b, 'ativo'],
      ['Caixa Centro', 'caixa', CHAIN.b, 'ativo'],
    ]);
    expect((items(body)[0] as Item & { este: boolean }).este).toBe(true);
    for (const loja of [CHAIN.a, CHAIN.c, 99]) {
      const other = await g.request(`/api/terminais?loja=${loja}`);
      expect(other.status).toBe(403);
      expect((await json(other)).message).toBe(
        'Este terminal só pode acessar o próprio estabelecimento.',
      );
    }
  });

  test('a gerente’s code enrolls a new terminal of its store, audited; the same key gives one code', async () => {
    const g = await c.terminal(CHAIN.b, 'gerente', 'Gerência Centro');
    const key = randomUUID();
    const first = await g.request(
      '/api/terminais',
      post({ nome: ' Caixa 2 ', papel: 'caixa' }, key),
    );
    expect(first.status).toBe(201);
    const made = await json(first);
    const code = made.data.codigo as string;
    expect(code).toMatch(/^[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/);
    expect(made.data.terminal).toMatchObject({
      nome: 'Caixa 2',
      papel: 'caixa',
      loja: CHAIN.b,
      estado: 'aguardando código',
    });
    // Sent again (a lost answer): the same terminal, the same code, nothing new.
    const again = await g.request('/api/terminais', post({ nome: 'Caixa 2', papel: 'caixa' }, key));
    expect(again.status).toBe(200);
    expect((await json(again)).data).toMatchObject({
      codigo: code,
      terminal: { id: (made.data.terminal as Item).id },
    });
    // The key with another request: refused; a key that is no UUID: a field error.
    const reused = await g.request('/api/terminais', post({ nome: 'Outro', papel: 'caixa' }, key));
    expect(reused.status).toBe(409);
    const badKey = await g.request('/api/terminais', post({ nome: 'X', papel: 'caixa' }, 'abc'));
    expect(badKey.status).toBe(422);
    expect((await json(badKey)).errors).toHaveProperty('Idempotency-Key');
    const listed = items(await json(await g.request('/api/terminais')));
    expect(listed.filter((t) => t.nome === 'Caixa 2')).toHaveLength(1);

    // The code enrolls a browser, at store 3, once.
    const { config } = await enrollWithCode(c, code);
    expect(config).toMatchObject({
      establishmentId: CHAIN.b,
      terminal: { name: 'Caixa 2', role: 'caixa' },
    });
    expect((await c.request('/api/terminal/registrar', post({ codigo: code }))).status).toBe(422);
    const id = (made.data.terminal as Item).id;
    expect(await trail(CHAIN.b)).toEqual([
      [
        'terminal.criado',
        g.id,
        { terminal: { id, nome: 'Caixa 2', papel: 'caixa' }, loja: CHAIN.b },
      ],
    ]);
    expect(await trail(CHAIN.a)).toEqual([]);
  });

  test('what a gerente may not create or send is refused with its reason, never a 500', async () => {
    const g = await c.terminal(CHAIN.a, 'gerente');
    const rede = await g.request('/api/terminais', post({ nome: 'Rede', papel: 'rede' }));
    expect(rede.status).toBe(403);
    expect((await json(rede)).errors).toHaveProperty('papel');
    expect(
      (await g.request('/api/terminais', post({ nome: 'X', papel: 'caixa', loja: CHAIN.c })))
        .status,
    ).toBe(403);
    const cases: [unknown, string[]][] = [
      [{ nome: '', papel: 'caixa' }, ['nome']],
      [{ nome: '   ', papel: 'caixa' }, ['nome']],
      [{ nome: 'x'.repeat(61), papel: 'caixa' }, ['nome']],
      [{ nome: 'X', papel: 'integracao' }, ['papel']],
      [{ nome: 'X' }, ['papel']],
      [{ nome: 3, papel: 'caixa', loja: '3' }, ['nome', 'loja']],
      [{ nome: 'X', papel: 'caixa', loja: -1 }, ['loja']],
    ];
    for (const [body, fields] of cases) {
      const res = await g.request('/api/terminais', post(body));
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys((await json(res)).errors ?? {}).sort()).toEqual(fields.sort());
    }
    for (const raw of ['[]', 'null', '"x"', '{']) {
      const res = await g.request('/api/terminais', { method: 'POST', body: raw });
      expect(res.status, raw).toBe(400);
    }
    const pair = await g.request(`/api/terminais/${g.id}/quiosque`, put({ quiosque: 'um' }));
    expect(pair.status).toBe(422);
    expect((await json(pair)).errors).toHaveProperty('quiosque');
    expect((await g.request('/api/terminais/abc/revogar', post({}))).status).toBe(404);
    expect((await g.request('/api/terminais/999999/revogar', post({}))).status).toBe(404);
    expect(await trail(CHAIN.a)).toEqual([]);
  });

  test('a gerente revokes its store’s terminal (refused at once), never itself, another store’s or the rede’s', async () => {
    const g = await c.terminal(CHAIN.a, 'gerente', 'Gerência');
    const caixa = await c.terminal(CHAIN.a, 'caixa', 'Caixa 1');
    const foreign = await c.terminal(CHAIN.b, 'caixa', 'Caixa Centro');
    const rede = await c.terminal(CHAIN.a, 'rede', 'Rede');
    expect((await caixa.request('/api/config')).status).toBe(200);

    const res = await g.request(`/api/terminais/${caixa.id}/revogar`, post({}));
    expect(res.status).toBe(200);
    expect((await json(res)).data.terminal).toMatchObject({ id: caixa.id, estado: 'revogado' });
    const after = await caixa.request('/api/v4/estabelecimentos/1/clientes/buscar', {
      method: 'POST',
      body: JSON.stringify({ celular: '+5511987654321' }),
    });
    expect(after.status).toBe(401);
    // Again: nothing new.
    expect((await g.request(`/api/terminais/${caixa.id}/revogar`, post({}))).status).toBe(200);

    const self = await g.request(`/api/terminais/${g.id}/revogar`, post({}));
    expect(self.status).toBe(409);
    expect((await json(self)).message).toBe('Este terminal não pode revogar a si mesmo.');
    const other = await g.request(`/api/terminais/${foreign.id}/revogar`, post({}));
    expect(other.status).toBe(403);
    const up = await g.request(`/api/terminais/${rede.id}/revogar`, post({}));
    expect(up.status).toBe(403);
    for (const t of [g, foreign, rede]) expect((await t.request('/api/config')).status).toBe(200);
    const cfg = await json(await g.request('/api/config'));
    expect(cfg.data.terminal).not.toBeNull();
    expect(await trail(CHAIN.a)).toEqual([
      [
        'terminal.revogado',
        g.id,
        { terminal: { id: caixa.id, nome: 'Caixa 1', papel: 'caixa' }, loja: CHAIN.a },
      ],
    ]);
  });

  test('a gerente pairs its counter with its kiosk (audited), never another store’s kiosk', async () => {
    const g = await c.terminal(CHAIN.b, 'gerente', 'Gerência Centro');
    const counter = await c.terminal(CHAIN.b, 'caixa', 'Caixa Centro');
    const kiosk = await c.terminal(CHAIN.b, 'quiosque', 'Tela do cliente');
    const foreignKiosk = await c.terminal(CHAIN.c, 'quiosque', 'Quiosque Norte');
    const foreignCounter = await c.terminal(CHAIN.c, 'caixa', 'Caixa Norte');

    const res = await g.request(
      `/api/terminais/${counter.id}/quiosque`,
      put({ quiosque: kiosk.id }),
    );
    expect(res.status).toBe(200);
    expect((await json(res)).data.terminal).toMatchObject({ quiosque_direto: kiosk.id });
    // The same again: nothing new to record.
    await g.request(`/api/terminais/${counter.id}/quiosque`, put({ quiosque: kiosk.id }));
    const listed = items(await json(await g.request('/api/terminais')));
    expect(listed.find((t) => t.id === counter.id)).toMatchObject({ quiosque_direto: kiosk.id });

    const refused: [name: string, counter: number, quiosque: number, status: number][] = [
      ['foreign kiosk', counter.id, foreignKiosk.id, 403],
      ["another store's counter", foreignCounter.id, kiosk.id, 403],
      ['not a kiosk', counter.id, g.id, 422],
      ['not a counter', kiosk.id, kiosk.id, 422],
    ];
    for (const [name, counterId, quiosque, status] of refused) {
      const res = await g.request(`/api/terminais/${counterId}/quiosque`, put({ quiosque }));
      expect(res.status, name).toBe(status);
    }
    expect(
      (await g.request(`/api/terminais/${counter.id}/quiosque`, put({ quiosque: null }))).status,
    ).toBe(200);
    const caixa = { id: counter.id, nome: 'Caixa Centro' };
    expect(await trail(CHAIN.b)).toEqual([
      ['terminal.pareado', g.id, { caixa, quiosque: null, loja: CHAIN.b }],
      [
        'terminal.pareado',
        g.id,
        { caixa, quiosque: { id: kiosk.id, nome: 'Tela do cliente' }, loja: CHAIN.b },
      ],
    ]);
  });

  test('the rede manages every store: lists, enrolls at store 4, revokes at store 3', async () => {
    const rede = await c.terminal(CHAIN.a, 'rede', 'Rede');
    const centro = await c.terminal(CHAIN.b, 'caixa', 'Caixa Centro');
    const list = await json(await rede.request(`/api/terminais?loja=${CHAIN.c}`));
    expect(list.data.lojas).toEqual([
      { id: CHAIN.a, nome: 'Loja Demo' },
      { id: CHAIN.b, nome: 'Loja Centro' },
      { id: CHAIN.c, nome: 'Loja Norte' },
    ]);
    expect(list.data.papeis).toEqual(['caixa', 'gerente', 'quiosque', 'rede']);
    expect(items(list)).toEqual([]);
    expect((await rede.request('/api/terminais?loja=99')).status).toBe(403);

    const made = await json(
      await rede.request(
        '/api/terminais',
        post({ nome: 'Gerência Norte', papel: 'gerente', loja: CHAIN.c }),
      ),
    );
    const enrolled = await c.request('/api/terminal/registrar', post({ codigo: made.data.codigo }));
    expect(enrolled.status).toBe(200);
    const cookie = enrolled.headers.get('set-cookie')!.split(';')[0]!;
    const config = await json(await c.request('/api/config', { headers: { cookie } }));
    expect(config.data).toMatchObject({ establishmentId: CHAIN.c, terminal: { role: 'gerente' } });

    expect((await rede.request(`/api/terminais/${centro.id}/revogar`, post({}))).status).toBe(200);
    expect((await centro.request('/api/config')).status).toBe(200);
    expect((await json(await centro.request('/api/config'))).data.terminal).toBeNull();
    // Each change is in the trail of the terminal's store, naming the rede.
    const norte = (made.data.terminal as Item).id;
    expect(await trail(CHAIN.c)).toEqual([
      [
        'terminal.criado',
        rede.id,
        { terminal: { id: norte, nome: 'Gerência Norte', papel: 'gerente' }, loja: CHAIN.c },
      ],
    ]);
    expect(await trail(CHAIN.b)).toEqual([
      [
        'terminal.revogado',
        rede.id,
        { terminal: { id: centro.id, nome: 'Caixa Centro', papel: 'caixa' }, loja: CHAIN.b },
      ],
    ]);
  });

  test('a terminal revoked on one replica is refused by another at once', async () => {
    // A second replica: its own connection to the same store, its own terminal cache.
    const other = await openStore(where);
    const replica = await makeChain(other);
    try {
      const g = await c.terminal(CHAIN.a, 'gerente');
      // Seen on the other replica (kept in its memory; PostgreSQL: once it listens).
      const onReplica = await replica.terminal(CHAIN.a, 'caixa', 'Caixa no outro');
      for (let i = 0; i < 3; i++) {
        expect((await json(await onReplica.request('/api/config'))).data.terminal).not.toBeNull();
        if (engine === 'postgres') await new Promise((r) => setTimeout(r, 300));
      }
      const res = await g.request(`/api/terminais/${onReplica.id}/revogar`, post({}));
      expect(res.status).toBe(200);
      // From the revocation's answer (its commit and notification are done by then).
      const started = performance.now();
      let refusedAfter = -1;
      let checks = 0;
      while (performance.now() - started < 5_000) {
        checks++;
        const cfg = await json(await onReplica.request('/api/config'));
        if (cfg.data.terminal === null) {
          refusedAfter = performance.now() - started;
          break;
        }
        await new Promise((r) => setTimeout(r, 5));
      }
      console.log(
        `${engine}: revoked on one replica, refused by the other after ${refusedAfter.toFixed(1)} ms (${checks} checks, TTL ${TERMINAL_TRUST_MS} ms)`,
      );
      expect(refusedAfter).toBeGreaterThanOrEqual(0);
      expect(refusedAfter).toBeLessThan(TERMINAL_TRUST_MS);
      if (engine === 'sqlite') expect(checks).toBe(1);
    } finally {
      await replica.stop();
      await other.close();
    }
  });
});
