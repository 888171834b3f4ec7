import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, test } from 'vitest';
import { createJournalStore, openStore, type Role } from '../../store';
import { makeApp } from '../../testing/app-harness';
import { embeddedPostings, postJson } from '../testing/embedded-postings';
import { Painel } from '#contract/api/painel';
import { painel } from '../domain/painel';

const closers: (() => unknown)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

/** Today in Brasília (UTC-3), `YYYY-MM-DD`. */
const today = () => new Date(Date.now() - 3 * 3_600_000).toISOString().slice(0, 10);

async function setup(as: Role | null = 'gerente') {
  const store = await openStore({ sqlitePath: ':memory:' });
  closers.push(() => store.close());
  const { upstream, service } = await embeddedPostings(closers, {
    store: createJournalStore(store),
  });
  const { app } = makeApp({ ...upstream, postings: service, store }, as);
  /** A counter's posting, and its refresh of the customer after the answer (as the counter). */
  const pontuar = async (celular: string, valor: number, senha = '1234') => {
    const res = await postJson(
      app,
      '/api/v4/estabelecimentos/1/fidelidade/pontuar',
      { valor_gasto: valor, senha_atendente: senha, cliente: { celular } },
      { 'idempotency-key': randomUUID() },
    );
    await postJson(app, '/api/v4/estabelecimentos/1/clientes/buscar', { celular });
    return res;
  };
  const painel = (query: string) => app.request(`/api/painel?${query}`);
  return { app, pontuar, painel };
}

describe('GET /api/painel', () => {
  test.each(['caixa', 'quiosque'] as const)('a %s terminal is refused (403)', async (role) => {
    const { painel } = await setup(role);
    const res = await painel(`de=${today()}&ate=${today()}`);
    expect(res.status).toBe(403);
  });

  test('an unenrolled browser is refused', async () => {
    const { painel } = await setup(null);
    expect((await painel(`de=${today()}&ate=${today()}`)).status).toBe(401);
  });

  test('a bad period is a 422 with the field that is wrong', async () => {
    const { painel } = await setup();
    const cases: [string, string][] = [
      ['de=2026-02-30&ate=2026-03-01', 'de'],
      ['de=2026-03-02&ate=2026-03-01', 'ate'],
      ['de=2026-01-01&ate=2026-06-01', 'ate'],
      ['ate=2026-03-01', 'de'],
      ['de=2026-03-01&ate=2026-03-01&fuso=abc', 'fuso'],
    ];
    for (const [query, field] of cases) {
      const res = await painel(query);
      expect(res.status, query).toBe(422);
      const body = (await res.json()) as { errors: Record<string, string[]> };
      expect(Object.keys(body.errors), query).toContain(field);
    }
  });

  test('the figures are those of the postings made', async () => {
    const { app, pontuar, painel } = await setup();
    expect((await pontuar('+5511955551001', 2590)).status).toBe(200);
    expect((await pontuar('+5511955551001', 1000)).status).toBe(200);
    expect((await pontuar('+5511955551002', 5000)).status).toBe(200);
    // A wrong attendant password: refused by the service.
    expect((await pontuar('+5511955551003', 1000, '0000')).status).toBe(422);
    // A reward handed over (Maria's pending keychain in the demo data): counted apart.
    const handOver = await app.request('/api/v4/estabelecimentos/1/fidelidade/resgatar-premio', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify({ id_premio: 3, id_cliente: 1, senha_atendente: '1234' }),
    });
    expect(handOver.status).toBe(200);

    // A posting's points are journaled just after its answer: read until they are there.
    const read = async () => {
      const res = await painel(`de=${today()}&ate=${today()}&fuso=-180`);
      expect(res.status).toBe(200);
      return Painel.parse(((await res.json()) as { data: unknown }).data);
    };
    let data = await read();
    for (let i = 0; i < 40 && data.totais.pontos !== 85; i++) {
      await new Promise((r) => setTimeout(r, 50));
      data = await read();
    }
    expect(data.dias).toEqual([{ dia: today(), lancamentos: 4, pontos: 85 }]);
    expect(data.totais).toEqual({
      lancamentos: 4,
      pontos: 85,
      valor: 8590,
      cadastrados: 2,
      premios_entregues: 1,
    });
    expect(data.estados).toEqual([
      { estado: 'lançado', lancamentos: 3 },
      { estado: 'recusado', lancamentos: 1 },
    ]);
    expect(data.terminais).toEqual([
      { id: expect.any(String), nome: 'Teste', lancamentos: 4, pontos: 85, valor: 8590 },
    ]);
    expect(data.guardadas).toEqual({
      total: 0,
      entregues: 0,
      espera_media_s: null,
      espera_maxima_s: null,
    });
    // The rewards waiting are the service's own count.
    const list = await app.request(
      '/api/v4/estabelecimentos/1/recompensas?status=pendente_resgate',
    );
    const total = ((await list.json()) as { data: { total: number } }).data.total;
    expect(data.premios).toMatchObject({ hoje: today(), aguardando_retirada: total });
    expect(data.premios!.vencendo).toBeLessThanOrEqual(total);
  });

  test('a week lists every day, days without postings as zero', async () => {
    const { painel } = await setup();
    const res = await painel('de=2026-01-01&ate=2026-01-07');
    const data = Painel.parse(((await res.json()) as { data: unknown }).data);
    expect(data.dias.map((d) => d.dia)).toEqual([
      '2026-01-01',
      '2026-01-02',
      '2026-01-03',
      '2026-01-04',
      '2026-01-05',
      '2026-01-06',
      '2026-01-07',
    ]);
    expect(data.dias.every((d) => d.lancamentos === 0 && d.pontos === 0)).toBe(true);
    expect(data.terminais).toEqual([]);
  });
});

describe('the dashboard when the service does not answer', () => {
  test('the journal’s figures still answer; rewards are null', async () => {
    const store = await openStore({ sqlitePath: ':memory:' });
    closers.push(() => store.close());
    const data = await painel(
      {
        store,
        client: { json: () => Promise.reject(new Error('down')) },
        establishmentId: 1,
        terminalNames: async () => new Map(),
      },
      { de: 20_000, ate: 20_001, fuso: -180 },
    );
    expect(data.premios).toBeNull();
    // While the circuit is open the service is not even asked.
    let asked = 0;
    const down = await painel(
      {
        store,
        client: { json: () => (asked++, Promise.reject(new Error('down'))) },
        establishmentId: 1,
        terminalNames: async () => new Map(),
        serviceDown: () => true,
      },
      { de: 20_000, ate: 20_000, fuso: -180 },
    );
    expect([down.premios, asked]).toEqual([null, 0]);
    expect(data.dias).toEqual([
      { dia: '2024-10-04', lancamentos: 0, pontos: 0 },
      { dia: '2024-10-05', lancamentos: 0, pontos: 0 },
    ]);
  });
});
