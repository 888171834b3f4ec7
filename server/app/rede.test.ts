// The chain's view (`rede`): three stores behind one dispatcher on both engines, postings made
// in each through the real flow, then the roll-up compared with each store's own dashboard and
// with the service's records (the customers' balances, the reward lists read with each
// store's token). A rede terminal reads any store it names; a gerente stays within its own
// (another store named: 403, the service not called); the rede posts nothing anywhere.
import { randomUUID } from 'node:crypto';
import { expect, test } from 'vitest';
import { RedeLojas, RedePainel } from '#contract/api/rede';
import { Painel } from '#contract/api/painel';
import { CHAIN, chainEachTest } from '../testing/chain-harness';
import type { Chain } from '../testing/chain-harness';
import { describeEngines } from '../testing/pg-cluster';
import { storeFixture } from '../testing/store-fixture';
import { at, op, post } from './testing/requests';
import type { Envelope } from './testing/requests';

const stores = storeFixture('rede-test');

const json = async (res: Response) => (await res.json()) as Envelope;
/** The last 7 days up to today (São Paulo). */
const period = () => {
  const day = (ms: number) => new Date(ms - 3 * 3_600_000).toISOString().slice(0, 10);
  return `de=${day(Date.now() - 6 * 86_400_000)}&ate=${day(Date.now())}`;
};
/** A customer new at each store (the points call registers them). */
const customerOf = (id: number) => `+551195555${String(id).padStart(2, '0')}01`;
/**
 * Sales posted at each store: how many and their amounts (cents), under a reward's 100 points
 * (a reward won takes its points from the balance the comparison reads).
 */
const SALES: Record<number, number[]> = {
  [CHAIN.a]: [2_590],
  [CHAIN.b]: [1_000, 4_350],
  [CHAIN.c]: [700, 2_000, 3_300],
};
/** The journal's ledger of the last hour. */
const ledgerPath = () =>
  `/api/lancamentos?de=${new Date(Date.now() - 3_600_000).toISOString()}` +
  `&ate=${new Date(Date.now() + 60_000).toISOString()}`;

describeEngines('the chain view (rede) on %s', (engine) => {
  let c: Chain;

  chainEachTest(stores, engine, (opened) => (c = opened.chain));

  const serviceCalls = () => [...c.calls.values()].reduce((s, n) => s + n, 0);

  /** The customer's balance as the service holds it, read with the store's own counter. */
  async function balance(counter: Awaited<ReturnType<Chain['terminal']>>, id: number) {
    const res = await counter.request(op(id, 'clientes/buscar'), post({ celular: customerOf(id) }));
    if (res.status === 404) return 0; // not a customer yet
    expect(res.status).toBe(200);
    return ((await json(res)).data as { carteira: { saldo: number } }).carteira.saldo;
  }

  test("the roll-up equals the sum of the stores and the service's records", async () => {
    const service = new Map<number, { pontos: number; valor: number; premios: number }>();
    const sum = (pick: (s: { pontos: number; valor: number; premios: number }) => number) =>
      [...service.values()].reduce((n, s) => n + pick(s), 0);
    for (const id of [CHAIN.a, CHAIN.b, CHAIN.c]) {
      const counter = await c.terminal(id, 'caixa', `Caixa ${id}`);
      const before = await balance(counter, id);
      for (const valor of SALES[id]!) {
        const body = {
          valor_gasto: valor,
          senha_atendente: '1234',
          cliente: { celular: customerOf(id) },
        };
        const res = await counter.request(op(id, 'fidelidade/pontuar'), post(body, randomUUID()));
        expect(res.status).toBe(200);
      }
      const after = await balance(counter, id);
      // The service's own count of rewards waiting, read with this store's token.
      const manager = await c.terminal(id, 'gerente', `Gerente ${id}`);
      const list = await manager.request(
        op(id, 'recompensas?status=pendente_resgate&itens_por_pagina=1'),
      );
      const premios = ((await json(list)).data as { total: number }).total;
      const valor = SALES[id]!.reduce((s, v) => s + v, 0);
      service.set(id, { pontos: after - before, valor, premios });
    }
    const rede = await c.terminal(CHAIN.a, 'rede', 'Rede');
    // A posting's answer comes before its journal entry settles (and Vigilância looks at it
    // after that): read until the figures stand still.
    const read = async () => {
      const res = await rede.request(`/api/rede/painel?${period()}`);
      expect(res.status).toBe(200);
      return RedePainel.parse((await json(res)).data);
    };
    let data = await read();
    for (let tries = 0; tries < 50; tries++) {
      await new Promise((r) => setTimeout(r, 100));
      const again = await read();
      // The amount is journaled with the request, the points earned with the answer.
      const settled =
        again.totais.valor === sum((x) => x.valor) && again.totais.pontos === sum((x) => x.pontos);
      if (settled && JSON.stringify(again) === JSON.stringify(data)) break;
      data = again;
    }
    expect(data.lojas.map((l) => [l.id, l.nome, l.situacao])).toEqual([
      [CHAIN.a, 'Loja Demo', 'ok'],
      [CHAIN.b, 'Loja Centro', 'ok'],
      [CHAIN.c, 'Loja Norte', 'ok'],
    ]);
    for (const row of data.lojas) {
      const s = service.get(row.id)!;
      expect(row.figuras, `store ${row.id}`).toMatchObject({
        lancamentos: SALES[row.id]!.length,
        pontos: s.pontos,
        valor: s.valor,
      });
      expect(row.premios?.aguardando_retirada, `store ${row.id}`).toBe(s.premios);
      // The row is the store's own dashboard, as its gerente reads it.
      const manager = await c.terminal(row.id, 'gerente');
      const own = Painel.parse((await json(await manager.request(`/api/painel?${period()}`))).data);
      expect(row.figuras).toEqual({
        lancamentos: own.totais.lancamentos,
        pontos: own.totais.pontos,
        valor: own.totais.valor,
        pdv_vendas: own.pdv?.total ?? 0,
        pdv_identificadas: own.pdv?.identificadas ?? 0,
        guardadas: own.guardadas.total,
        achados: 0,
        alertas_abertos: own.alertas_abertos?.total ?? 0,
      });
    }
    expect(data.totais).toMatchObject({
      lancamentos: 6,
      pontos: sum((s) => s.pontos),
      valor: sum((s) => s.valor),
      lojas: 3,
      lojas_indisponiveis: 0,
      premios: { aguardando_retirada: sum((s) => s.premios), lojas: 3 },
    });
    console.log(
      `[rede ${engine}] 3 stores, 6 postings, ${data.totais.pontos} points, ` +
        `${data.totais.valor} cents, ${data.totais.premios.aguardando_retirada} rewards waiting: ` +
        'the roll-up equals the stores and the service',
    );
  });

  test('a store whose service is down shows its rewards as unavailable; the others still show', async () => {
    const rede = await c.terminal(CHAIN.a, 'rede', 'Rede');
    c.down.add(CHAIN.b);
    const data = RedePainel.parse(
      (await json(await rede.request(`/api/rede/painel?${period()}`))).data,
    );
    const byId = new Map(data.lojas.map((l) => [l.id, l]));
    expect(byId.get(CHAIN.b)?.premios).toBeNull();
    expect(byId.get(CHAIN.b)?.figuras).not.toBeNull(); // its journal's figures still show
    expect(byId.get(CHAIN.a)?.premios).not.toBeNull();
    expect(byId.get(CHAIN.c)?.premios).not.toBeNull();
    expect(data.totais.premios.lojas).toBe(2);
  });

  test('a rede terminal reads the store it names: its dashboard, rewards, ledger, audit, alerts', async () => {
    const counterB = await c.terminal(CHAIN.b, 'caixa', 'Caixa B');
    const key = randomUUID();
    const body = {
      valor_gasto: 1_500,
      senha_atendente: '1234',
      cliente: { celular: customerOf(CHAIN.b) },
    };
    expect(
      (await counterB.request(op(CHAIN.b, 'fidelidade/pontuar'), post(body, key))).status,
    ).toBe(200);
    const rede = await c.terminal(CHAIN.a, 'rede', 'Rede');
    const lojas = RedeLojas.parse((await json(await rede.request('/api/rede/lojas'))).data);
    expect(lojas.lojas.map((l) => l.id)).toEqual([CHAIN.a, CHAIN.b, CHAIN.c]);
    // Store B's dashboard by the header and by the query; store A's (its own) without.
    const byHeader = await rede.request(`/api/painel?${period()}`, at(CHAIN.b));
    const byQuery = await rede.request(`/api/painel?${period()}&loja=${CHAIN.b}`);
    for (const res of [byHeader, byQuery]) {
      expect(Painel.parse((await json(res)).data).totais.lancamentos).toBe(1);
    }
    const own = Painel.parse((await json(await rede.request(`/api/painel?${period()}`))).data);
    expect(own.totais.lancamentos).toBe(0);
    // Store B's ledger, rewards (with B's token), audit trail and Vigilância alerts.
    const ledger = await rede.request(ledgerPath(), at(CHAIN.b));
    expect(ledger.status).toBe(200);
    expect(JSON.stringify((await json(ledger)).data)).toContain(key);
    const before = c.callsTo(CHAIN.b);
    const rewards = await rede.request(op(CHAIN.b, 'recompensas?itens_por_pagina=5'), at(CHAIN.b));
    expect(rewards.status).toBe(200);
    expect(c.callsTo(CHAIN.b)).toBe(before + 1);
    expect((await rede.request('/api/auditoria', at(CHAIN.c))).status).toBe(200);
    expect((await rede.request('/api/vigilancia/alertas', at(CHAIN.c))).status).toBe(200);
    // A store the chain does not serve: refused.
    expect((await rede.request(`/api/painel?${period()}`, at(9))).status).toBe(403);
  });

  test('a gerente stays within its store: another store named is 403, the service not called', async () => {
    const a = await c.terminal(CHAIN.a, 'gerente', 'Gerente A');
    const requests: [string, RequestInit][] = [
      [`/api/painel?${period()}`, at(CHAIN.b)],
      [`/api/painel?${period()}&loja=${CHAIN.b}`, {}],
      [ledgerPath(), at(CHAIN.c)],
      ['/api/auditoria?loja=3', {}],
      ['/api/vigilancia/alertas', at(CHAIN.b)],
      [`/api/painel/conferencia?dia=2026-01-01`, at(CHAIN.b)],
      [op(CHAIN.b, 'recompensas?itens_por_pagina=5'), at(CHAIN.b)],
      [op(CHAIN.a, 'recompensas?itens_por_pagina=5'), at(CHAIN.b)],
      [op(CHAIN.a, 'clientes/buscar'), at(CHAIN.c, post({ celular: customerOf(CHAIN.c) }))],
    ];
    const calls = serviceCalls();
    for (const [url, init] of requests) {
      const res = await a.request(url, init);
      expect(res.status, url).toBe(403);
    }
    expect(serviceCalls()).toBe(calls);
    // The chain's own routes are the rede's only.
    expect((await a.request('/api/rede/lojas')).status).toBe(403);
    expect((await a.request(`/api/rede/painel?${period()}`)).status).toBe(403);
    console.log(
      `[rede ${engine}] ${requests.length + 2} requests of store A's gerente naming another store ` +
        'or the chain: 403, 0 calls to the service',
    );
  });

  test('the rede posts, hands over and decides nothing, at any store', async () => {
    const rede = await c.terminal(CHAIN.a, 'rede', 'Rede');
    const kiosk = await c.terminal(CHAIN.b, 'quiosque', 'Quiosque B');
    let refused = 0;
    for (const id of [CHAIN.a, CHAIN.b, CHAIN.c]) {
      const sale = {
        valor_gasto: 1_000,
        senha_atendente: '1234',
        cliente: { celular: customerOf(id) },
      };
      const writes: [string, RequestInit][] = [
        [op(id, 'fidelidade/pontuar'), post(sale, randomUUID())],
        [op(id, 'clientes/cadastrar'), post({ celular: '+5511955557777', nome: 'X' })],
        [
          op(id, 'fidelidade/resgatar-premio'),
          post({ id_premio: 1, id_cliente: 1, senha_atendente: '1234' }, randomUUID()),
        ],
        [
          '/api/quiosque/vendas',
          post({ valor_gasto: 100, senha_atendente: '1234', quiosque: kiosk.id }),
        ],
        ['/api/quiosque/vendas/1/cancelar', post({})],
        [`/api/lancamentos/${randomUUID()}/reenviar`, post({ senha_atendente: '1234' })],
        [`/api/lancamentos/${randomUUID()}/descartar`, post({})],
        ['/api/integracao/balcao/vendas/1/lancar', post({ senha_atendente: '1234' })],
        [
          '/api/integracao/balcao/vendas/1/quiosque',
          post({ quiosque: kiosk.id, senha_atendente: '1234' }),
        ],
        ['/api/vigilancia/alertas/1/decisao', post({ decisao: 'confirmado', nota: 'x' })],
        ['/api/vigilancia/regras', { method: 'PUT', body: JSON.stringify({}) }],
      ];
      const calls = serviceCalls();
      for (const [url, init] of writes) {
        const res = await rede.request(url, at(id, init));
        expect(res.status, `${url} at ${id}`).toBe(403);
        refused++;
      }
      expect(serviceCalls()).toBe(calls);
    }
    console.log(
      `[rede ${engine}] ${refused} writes of the rede at 3 stores refused, 0 calls to the service`,
    );
  });
});
