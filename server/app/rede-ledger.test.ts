// The chain's shift ledger of every store ("Todas as lojas" of a `rede` terminal), three stores
// behind the dispatcher on both engines: it equals the union of each store's own ledger (as the
// rede reads it with `X-Loja`), each posting naming its store; its export is recorded in each
// store's trail; a gerente naming another store, or a caixa, is refused, the service not called.
import { expect, test } from 'vitest';
import { AuditPage } from '#contract/api/auditoria';
import { Ledger } from '#contract/api/postings';
import { CHAIN, chainEachTest } from '../testing/chain-harness';
import type { Chain } from '../testing/chain-harness';
import { describeEngines } from '../testing/pg-cluster';
import { storeFixture } from '../testing/store-fixture';
import { at, data, postSales } from './testing/requests';

const stores = storeFixture('rede-ledger-test');

const STORES = [CHAIN.a, CHAIN.b, CHAIN.c];
/** Postings at each store, by its caixa. */
const POSTINGS: Record<number, number> = { [CHAIN.a]: 2, [CHAIN.b]: 3, [CHAIN.c]: 1 };
const DAY = (() => {
  const now = Date.now();
  const de = new Date(now - 12 * 3_600_000).toISOString();
  const ate = new Date(now + 12 * 3_600_000).toISOString();
  return `de=${encodeURIComponent(de)}&ate=${encodeURIComponent(ate)}`;
})();

describeEngines("the chain's shift ledger of every store (rede) on %s", (engine) => {
  let c: Chain;

  chainEachTest(stores, engine, (opened) => (c = opened.chain));

  const serviceCalls = () => [...c.calls.values()].reduce((s, n) => s + n, 0);

  async function plant() {
    for (const id of STORES) {
      const counter = await c.terminal(id, 'caixa', `Caixa ${id}`);
      await postSales(
        counter,
        id,
        POSTINGS[id]!,
        (i) => `+55119555${String(id).padStart(2, '0')}90${i}`,
      );
    }
  }

  test("every store's ledger: the union of each store's own, each posting naming its store", async () => {
    await plant();
    const rede = await c.terminal(CHAIN.a, 'rede', 'Rede');
    const own = new Map<string, number>();
    for (const id of STORES) {
      const one = Ledger.parse(await data(await rede.request(`/api/lancamentos?${DAY}`, at(id))));
      expect(one.lancamentos).toHaveLength(POSTINGS[id]!);
      for (const l of one.lancamentos) own.set(l.chave, id);
      // The chain's route naming one store answers that store's ledger.
      const named = Ledger.parse(
        await data(await rede.request(`/api/rede/lancamentos?${DAY}`, at(id))),
      );
      expect(named.lancamentos.map((l) => l.chave).sort()).toEqual(
        one.lancamentos.map((l) => l.chave).sort(),
      );
    }
    const all = Ledger.parse(await data(await rede.request(`/api/rede/lancamentos?${DAY}`)));
    console.log(`chain ledger: ${all.lancamentos.length} postings, ${own.size} in the stores' own`);
    expect(all.lancamentos.length).toBe(own.size);
    expect(new Map(all.lancamentos.map((l) => [l.chave, l.loja]))).toEqual(own);
    expect(all.truncado).toBe(false);
    const times = all.lancamentos.map((l) => l.criado_em);
    expect(times).toEqual([...times].sort().reverse());
    // Every store's caixa is offered in the terminal filter; filtering by one lists its own.
    expect(all.terminais.map((t) => t.nome)).toEqual(
      expect.arrayContaining(STORES.map((id) => `Caixa ${id}`)),
    );
    const caixaB = all.terminais.find((t) => t.nome === `Caixa ${CHAIN.b}`)!;
    const byB = Ledger.parse(
      await data(await rede.request(`/api/rede/lancamentos?${DAY}&terminal=${caixaB.id}`)),
    );
    expect(byB.lancamentos.map((l) => l.loja)).toEqual(Array(POSTINGS[CHAIN.b]).fill(CHAIN.b));

    // The export is recorded in each store's trail with that store's row count.
    await data(await rede.request(`/api/rede/lancamentos/exportar?${DAY}`));
    for (const id of STORES) {
      const trail = AuditPage.parse(
        await data(await rede.request('/api/auditoria?acao=exportacao', at(id))),
      );
      expect(trail.itens[0]!.detalhes).toMatchObject({ tipo: 'lancamentos', linhas: POSTINGS[id] });
    }
    // One store's export, even of an empty day, is recorded in that store's trail only.
    const empty = 'de=2026-01-01T03:00:00.000Z&ate=2026-01-02T03:00:00.000Z';
    const none = Ledger.parse(
      await data(await rede.request(`/api/rede/lancamentos/exportar?${empty}`, at(CHAIN.c))),
    );
    expect(none.lancamentos).toEqual([]);
    const exportsOf = async (id: number) =>
      AuditPage.parse(await data(await rede.request('/api/auditoria?acao=exportacao', at(id))))
        .itens;
    const atC = await exportsOf(CHAIN.c);
    expect(atC).toHaveLength(2);
    expect(atC[0]!.detalhes).toEqual({
      tipo: 'lancamentos',
      filtros: { de: '2026-01-01T03:00:00.000Z', ate: '2026-01-02T03:00:00.000Z' },
      linhas: 0,
    });
    expect(await exportsOf(CHAIN.a)).toHaveLength(1);
  });

  test("a gerente reads no other store's ledger nor the chain's; a caixa neither: 403", async () => {
    await plant();
    const gerente = await c.terminal(CHAIN.a, 'gerente', 'Gerente A');
    const caixa = await c.terminal(CHAIN.a, 'caixa', 'Caixa A2');
    const calls = serviceCalls();
    const refused: [typeof gerente, string, RequestInit][] = [
      [gerente, `/api/lancamentos?${DAY}`, at(CHAIN.b)],
      [gerente, `/api/lancamentos?${DAY}&loja=${CHAIN.b}`, {}],
      [gerente, `/api/rede/lancamentos?${DAY}`, {}],
      [gerente, `/api/rede/lancamentos/exportar?${DAY}`, {}],
      [caixa, `/api/rede/lancamentos?${DAY}`, {}],
      [caixa, `/api/rede/lancamentos/exportar?${DAY}`, {}],
    ];
    for (const [t, url, init] of refused) {
      expect((await t.request(url, init)).status, url).toBe(403);
    }
    expect(serviceCalls()).toBe(calls);
    // Its own store's ledger, every terminal's: the gerente's answer.
    const own = Ledger.parse(await data(await gerente.request(`/api/lancamentos?${DAY}`)));
    expect(own.lancamentos).toHaveLength(POSTINGS[CHAIN.a]!);
  });
});
