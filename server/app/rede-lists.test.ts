// The chain's lists of every store ("Todas as lojas" of a `rede` terminal), three stores behind
// the dispatcher on both engines: the audit trail and Vigilância's alerts of every store equal
// the union of each store's own list (as the rede reads it with `X-Loja`), each item naming its
// store; a chain export is recorded in each exported store's trail, a one-store export in that
// store's; a gerente naming another store or the chain's lists is refused, the service not
// called.
import { expect, test } from 'vitest';
import { AuditExport, AuditPage } from '#contract/api/auditoria';
import { AlertExport, AlertPage, RulesWire } from '#contract/api/vigilancia';
import { CHAIN, chainEachTest } from '../testing/chain-harness';
import type { Chain } from '../testing/chain-harness';
import { describeEngines } from '../testing/pg-cluster';
import { storeFixture } from '../testing/store-fixture';
import { at, data, post, postSales } from './testing/requests';

const stores = storeFixture('rede-lists-test');

const STORES = [CHAIN.a, CHAIN.b, CHAIN.c];
/** Postings at each store (B and C flag each one: rule 5's ceiling set under its amount). */
const POSTINGS: Record<number, number> = { [CHAIN.a]: 1, [CHAIN.b]: 3, [CHAIN.c]: 3 };
/** Exports each store's gerente records (audit entries of that store). */
const EXPORTS: Record<number, number> = { [CHAIN.a]: 1, [CHAIN.b]: 2, [CHAIN.c]: 3 };

describeEngines("the chain's lists of every store (rede) on %s", (engine) => {
  let c: Chain;

  chainEachTest(stores, engine, (opened) => (c = opened.chain));

  const serviceCalls = () => [...c.calls.values()].reduce((s, n) => s + n, 0);

  /**
   * Each store's postings and its gerente's recorded exports. Rule 6 (opening hours) is off, so
   * that the hour of the run changes nothing; at B and C rule 5's ceiling is 5 reais.
   */
  async function plant() {
    for (const id of STORES) {
      const gerente = await c.terminal(id, 'gerente', `Gerente ${id}`);
      const rules = RulesWire.parse(await data(await gerente.request('/api/vigilancia/regras')));
      for (const r of rules.regras) {
        if (r.codigo === 'fora_do_horario') r.ligada = false;
        if (r.codigo === 'valor_alto' && id !== CHAIN.a) r.parametros.teto_centavos = 500;
      }
      const put = { method: 'PUT', body: JSON.stringify(rules) };
      expect((await gerente.request('/api/vigilancia/regras', put)).status).toBe(200);
      const counter = await c.terminal(id, 'caixa', `Caixa ${id}`);
      await postSales(
        counter,
        id,
        POSTINGS[id]!,
        () => `+55119555${String(id).padStart(2, '0')}901`,
      );
      for (let i = 0; i < EXPORTS[id]!; i++) {
        const res = await gerente.request(
          '/api/auditoria/exportacoes',
          post({ tipo: 'premios', filtros: { status: 'pendente_resgate' }, linhas: i }),
        );
        expect(res.status).toBe(201);
      }
    }
  }

  test("every store's audit trail and alerts: the union of each store's own list", async () => {
    await plant();
    const rede = await c.terminal(CHAIN.a, 'rede', 'Rede');
    // Vigilância looks at a posting once it is journaled: wait for B's and C's rule 5 alerts.
    for (const id of [CHAIN.b, CHAIN.c]) {
      const high = async () => {
        const res = await rede.request('/api/vigilancia/alertas?regra=valor_alto', at(id));
        return AlertPage.parse(await data(res)).total;
      };
      for (let tries = 0; tries < 100 && (await high()) < POSTINGS[id]!; tries++) {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const audits = await Promise.all(
      STORES.map(async (id) =>
        AuditPage.parse(await data(await rede.request('/api/auditoria', at(id)))),
      ),
    );
    const alerts = await Promise.all(
      STORES.map(async (id) =>
        AlertPage.parse(await data(await rede.request('/api/vigilancia/alertas', at(id)))),
      ),
    );
    const all = AuditPage.parse(await data(await rede.request('/api/rede/auditoria')));
    const byStore = STORES.flatMap((id, i) => audits[i]!.itens.map((e) => ({ ...e, loja: id })));
    const newestFirst = <T extends { quando: string; id: number }>(xs: T[]) =>
      [...xs].sort((x, y) => y.quando.localeCompare(x.quando) || y.id - x.id);
    expect(all.total).toBe(audits.reduce((n, p) => n + p.total, 0));
    expect(all.itens).toEqual(newestFirst(byStore));
    for (const id of STORES) {
      const exports = all.itens.filter((e) => e.loja === id && e.acao === 'exportacao');
      expect(exports, `store ${id}`).toHaveLength(EXPORTS[id]!);
    }
    // Each store's terminals in the filter, of the three stores.
    expect(new Set(all.terminais.map((t) => t.id))).toEqual(
      new Set(audits.flatMap((p) => p.terminais.map((t) => t.id))),
    );

    const chainAlerts = AlertPage.parse(
      await data(await rede.request('/api/rede/vigilancia/alertas')),
    );
    const alertsByStore = alerts.flatMap((p) => p.itens);
    expect(chainAlerts.total).toBe(alerts.reduce((n, p) => n + p.total, 0));
    expect(chainAlerts.total).toBeGreaterThanOrEqual(2);
    expect(chainAlerts.itens).toEqual(
      [...alertsByStore].sort((x, y) => y.criado_em.localeCompare(x.criado_em) || y.id - x.id),
    );
    const high = chainAlerts.itens.filter((a) => a.regra === 'valor_alto').map((a) => a.loja);
    expect(high.sort()).toEqual([CHAIN.b, CHAIN.b, CHAIN.b, CHAIN.c, CHAIN.c, CHAIN.c]);
    // A filter applies across the stores as it does in one.
    const one = AlertPage.parse(
      await data(await rede.request('/api/rede/vigilancia/alertas?regra=valor_alto&estado=aberto')),
    );
    expect(one.itens.every((a) => a.regra === 'valor_alto')).toBe(true);
    console.log(
      `[rede-lists ${engine}] audit: ${all.total} entries = ${audits.map((p) => p.total).join(' + ')}; ` +
        `alerts: ${chainAlerts.total} = ${alerts.map((p) => p.total).join(' + ')}`,
    );
  });

  test('an export is recorded in the trail of each store whose rows it carried', async () => {
    await plant();
    const rede = await c.terminal(CHAIN.a, 'rede', 'Rede');
    const trail = async (id: number) =>
      AuditPage.parse(await data(await rede.request('/api/auditoria?acao=exportacao', at(id))));
    const before = await Promise.all(STORES.map(trail));

    // Every store's trail exported: one entry in each store's, its own rows counted.
    const found = AuditExport.parse(await data(await rede.request('/api/rede/auditoria/exportar')));
    const after = await Promise.all(STORES.map(trail));
    STORES.forEach((id, i) => {
      expect(after[i]!.total, `store ${id}`).toBe(before[i]!.total + 1);
      const entry = after[i]!.itens[0]!;
      expect(entry.terminal?.nome).toBe('Rede');
      expect(entry.detalhes).toMatchObject({
        tipo: 'auditoria',
        linhas: found.itens.filter((e) => e.loja === id).length,
      });
    });

    // One store's alerts exported: recorded in that store's trail only (B), not the rede's (A).
    const alerts = AlertExport.parse(
      await data(await rede.request('/api/vigilancia/exportar', at(CHAIN.b))),
    );
    const last = await Promise.all(STORES.map(trail));
    expect(last.map((p) => p.total)).toEqual([
      after[0]!.total,
      after[1]!.total + 1,
      after[2]!.total,
    ]);
    expect(last[1]!.itens[0]!.detalhes).toMatchObject({ tipo: 'vigilancia', linhas: alerts.total });
    // The rewards list a rede exports from store C (the browser records it): in C's trail.
    const record = post({ tipo: 'premios', filtros: { loja: 'Loja Norte' }, linhas: 4 });
    expect((await rede.request('/api/auditoria/exportacoes', at(CHAIN.c, record))).status).toBe(
      201,
    );
    expect((await trail(CHAIN.c)).total).toBe(last[2]!.total + 1);
    expect((await trail(CHAIN.a)).total).toBe(last[0]!.total);
  });

  test("a gerente reads neither another store's lists nor the chain's: 403, no service call", async () => {
    const a = await c.terminal(CHAIN.a, 'gerente', 'Gerente A');
    const requests: [string, RequestInit][] = [
      ['/api/rede/auditoria', {}],
      ['/api/rede/auditoria/exportar', {}],
      ['/api/rede/vigilancia/alertas', {}],
      ['/api/rede/vigilancia/exportar', {}],
      ['/api/auditoria/exportar', at(CHAIN.b)],
      ['/api/vigilancia/exportar', at(CHAIN.c)],
      ['/api/vigilancia/entregas', at(CHAIN.b)],
      ['/api/vigilancia/regras', at(CHAIN.b)],
      [
        '/api/auditoria/exportacoes',
        at(CHAIN.b, post({ tipo: 'premios', filtros: {}, linhas: 1 })),
      ],
      [
        `/api/v4/estabelecimentos/${CHAIN.b}/recompensas?itens_por_pagina=100&pagina=1`,
        at(CHAIN.b),
      ],
    ];
    const calls = serviceCalls();
    const trailBefore = AuditPage.parse(await data(await a.request('/api/auditoria'))).total;
    for (const [url, init] of requests) {
      expect((await a.request(url, init)).status, url).toBe(403);
    }
    expect(serviceCalls()).toBe(calls);
    // Nothing recorded as exported by a refused request.
    expect(AuditPage.parse(await data(await a.request('/api/auditoria'))).total).toBe(trailBefore);
    console.log(
      `[rede-lists ${engine}] ${requests.length} requests of store A's gerente: 403, 0 service calls`,
    );
  });
});
