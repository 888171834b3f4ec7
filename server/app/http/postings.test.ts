import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { afterEach, describe, expect, test } from 'vitest';
import type { RequestLogVars } from './request-log';
import type { Role } from '../../store';
import { makeApp } from '../../testing/app-harness';
import { postingRoutes, type Viewer } from './postings';
import { embeddedPostings, postJson, switchableCircuit } from '../testing/embedded-postings';
import { sealKeyFrom } from '../domain/journal/sealed';
import { Contingency, Lancamento, Ledger } from '#contract/api/postings';

const closers: (() => unknown)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

async function setup(as: Role | null = 'caixa') {
  const { upstream, service } = await embeddedPostings(closers);
  // Seen from an enrolled terminal (the app's own store is apart from the journal's).
  const { app, ready } = makeApp({ ...upstream, postings: service }, as);
  closers.push(async () => (await ready).store.close());
  const pontuar = (body: unknown, key: string | null = randomUUID(), id = 1) =>
    postJson(
      app,
      `/api/v4/estabelecimentos/${id}/fidelidade/pontuar`,
      body,
      key ? { 'idempotency-key': key } : {},
    );
  const compras = async (celular: string) => {
    const res = await postJson(app, BUSCAR, { celular });
    return res.status === 404
      ? 0
      : ((await res.json()) as { data: { compras: number } }).data.compras;
  };
  return { app, pontuar, compras };
}

const PONTUAR = '/api/v4/estabelecimentos/1/fidelidade/pontuar';
const BUSCAR = '/api/v4/estabelecimentos/1/clientes/buscar';

const sale = (celular: string, valor = 2590) => ({
  valor_gasto: valor,
  senha_atendente: '1234',
  cliente: { celular },
});

describe('pontuar through the journal', () => {
  test('without Idempotency-Key: 422 in Portuguese, nothing posted', async () => {
    const { pontuar, compras } = await setup();
    const res = await pontuar(sale('+5511955550001'), null);
    expect(res.status).toBe(422);
    const body = (await res.json()) as { success: boolean; message: string };
    expect(body.success).toBe(false);
    expect(body.message).toMatch(/identificador/);
    expect(await compras('+5511955550001')).toBe(0);
  });

  test('with a key: the service answer; the same key again: the same answer, one posting', async () => {
    const { pontuar, compras } = await setup();
    const key = randomUUID();
    const first = await pontuar(sale('+5511955550002'), key);
    expect(first.status).toBe(200);
    const a = (await first.json()) as { data: { id_ponto: number; saldo_atual: number } };
    expect(a.data.saldo_atual).toBe(25);
    const again = await pontuar(sale('+5511955550002'), key);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(a);
    expect(await compras('+5511955550002')).toBe(1);
  });

  test('the same key twice at once: one posting, the same answer to both (20 keys)', async () => {
    const { pontuar, compras } = await setup();
    const phones = Array.from(
      { length: 20 },
      (_, i) => `+55119555511${String(i).padStart(2, '0')}`,
    );
    const statuses: number[] = [];
    let same = 0;
    for (const celular of phones) {
      const key = randomUUID();
      const [a, b] = await Promise.all([pontuar(sale(celular), key), pontuar(sale(celular), key)]);
      statuses.push(a.status, b.status);
      if ((await a.text()) === (await b.text())) same += 1;
    }
    const postings = await Promise.all(phones.map(compras));
    console.log(
      `20 keys, each twice at once on one app server (SQLite): ${statuses.filter((s) => s === 200).length} of ${statuses.length} answered 200, the same answer to both for ${same} keys, postings ${postings.reduce((sum, n) => sum + n, 0)}`,
    );
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(same).toBe(phones.length);
    expect(postings.every((n) => n === 1)).toBe(true);
  });

  test('the same key with another amount: 422, nothing more posted', async () => {
    const { pontuar, compras } = await setup();
    const key = randomUUID();
    await pontuar(sale('+5511955550003', 1000), key);
    const res = await pontuar(sale('+5511955550003', 5000), key);
    expect(res.status).toBe(422);
    expect(((await res.json()) as { message: string }).message).toMatch(/outra venda/);
    expect(await compras('+5511955550003')).toBe(1);
  });

  test("the service's refusal is relayed as it came (a wrong password: 422 on senha_atendente)", async () => {
    const { pontuar, compras } = await setup();
    const res = await pontuar({ ...sale('+5511955550004'), senha_atendente: '0000' });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { errors: Record<string, string[]> }).errors).toHaveProperty(
      'senha_atendente',
    );
    expect(await compras('+5511955550004')).toBe(0);
  });

  test("the journal's own refusals are no verdict on the password: they never clear its failures", async () => {
    const { pontuar } = await setup();
    const wrong = () => pontuar({ ...sale('+5511955550010'), senha_atendente: '0000' });
    for (let i = 0; i < 3; i++) expect((await wrong()).status).toBe(422);
    // A guesser's try to reset the count between guesses: no key, a bad key, no phone.
    expect((await pontuar(sale('+5511955550010'), null)).status).toBe(422);
    expect((await pontuar(sale('+5511955550010'), 'not-a-uuid')).status).toBe(422);
    expect((await pontuar({ valor_gasto: 100, senha_atendente: '0000', cliente: {} })).status).toBe(
      422,
    );
    // Still the 4th and 5th wrong passwords: the 5th locks (before, the count had restarted).
    expect((await wrong()).status).toBe(422);
    const fifth = await wrong();
    expect(fifth.status).toBe(429);
    expect(((await fifth.json()) as { message: string }).message).toMatch(
      /^Senha do atendente bloqueada neste terminal/,
    );
  });

  test('GET /api/lancamentos/{key} tells what became of the sale; an unknown key is a 404', async () => {
    const { app, pontuar, compras } = await setup();
    const key = randomUUID();
    const answer = await pontuar(sale('+5511955550005'), key);
    // No carência in Loja Demo: the answer tells the balance, not the points.
    expect(((await answer.json()) as { data: unknown }).data).toMatchObject({
      saldo_atual: 25,
      resultado: { pontos: null },
    });
    // The counter's refresh of the customer right after tells them.
    expect(await compras('+5511955550005')).toBe(1);
    let res = await app.request(`/api/lancamentos/${key}`);
    for (let i = 0; i < 50; i++) {
      if (((await res.clone().json()) as { data: { pontos: unknown } }).data.pontos !== null) break;
      await new Promise((r) => setTimeout(r, 20));
      res = await app.request(`/api/lancamentos/${key}`);
    }
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: Record<string, unknown> };
    expect(body.data).toMatchObject({
      chave: key,
      estado: 'lançado',
      valor_gasto: 2590,
      celular: '+5511955550005',
      pontos: 25,
      conferido: false,
      resposta: { status: 200 },
    });
    expect((await app.request(`/api/lancamentos/${randomUUID()}`)).status).toBe(404);
  });

  test('a browser that is not enrolled gets 401 on every route; a kiosk gets 403', async () => {
    const key = randomUUID();
    for (const [as, status] of [
      [null, 401],
      ['quiosque', 403],
    ] as const) {
      const { app, pontuar } = await setup(as);
      expect((await pontuar(sale('+5511955550009'), key)).status).toBe(status);
      expect((await app.request(`/api/lancamentos/${key}`)).status).toBe(status);
      const ledger = '/api/lancamentos?de=2026-11-23T03:00:00Z&ate=2026-11-24T03:00:00Z';
      expect((await app.request(ledger)).status).toBe(status);
    }
    const { app } = await setup();
    expect((await app.request(`/api/lancamentos/${key}`)).status).toBe(404);
  });

  test('another establishment in the path: 403, nothing journaled', async () => {
    const { pontuar } = await setup();
    expect((await pontuar(sale('+5511955550006'), randomUUID(), 2)).status).toBe(403);
  });

  test('a body that is not JSON: 400', async () => {
    const { app } = await setup();
    const res = await app.request(PONTUAR, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: '{nope',
    });
    expect(res.status).toBe(400);
  });
});

describe("another terminal's posting by its key", () => {
  /** Two cashiers and a manager enrolled on one store, posting through one journal. */
  async function terminals() {
    const { upstream, service } = await embeddedPostings(closers);
    const first = makeApp({ ...upstream, postings: service }, 'caixa');
    const { store } = await first.ready;
    closers.push(() => store.close());
    const other = makeApp({ ...upstream, postings: service, store }, 'caixa');
    const manager = makeApp({ ...upstream, postings: service, store }, 'gerente');
    const pontuar = (app: typeof first.app, body: unknown, key: string) =>
      postJson(app, PONTUAR, body, { 'idempotency-key': key });
    const compras = async (celular: string) => {
      const res = await postJson(manager.app, BUSCAR, { celular });
      return ((await res.json()) as { data: { compras: number } }).data.compras;
    };
    return { mine: first.app, other: other.app, manager: manager.app, pontuar, compras };
  }

  test("a cashier reading another cashier's key gets the 404 of an unknown key, at once; the owner and a manager read it", async () => {
    const { mine, other, manager, pontuar } = await terminals();
    const key = randomUUID();
    expect((await pontuar(mine, sale('+5511955556001'), key)).status).toBe(200);
    const unknown = await other.request(`/api/lancamentos/${randomUUID()}`);
    const theirs = await other.request(`/api/lancamentos/${key}`);
    expect(theirs.status).toBe(404);
    expect(await theirs.json()).toEqual(await unknown.json());
    const started = Date.now();
    expect((await other.request(`/api/lancamentos/${key}?esperar=5`)).status).toBe(404);
    expect(Date.now() - started).toBeLessThan(2_000);
    for (const app of [mine, manager]) {
      const res = await app.request(`/api/lancamentos/${key}`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { data: { chave: string } }).data.chave).toBe(key);
    }
  });

  test("posting with another cashier's key: 422 key already used, nothing of that sale, nothing posted", async () => {
    const { mine, other, pontuar, compras } = await terminals();
    const key = randomUUID();
    const body = sale('+5511955556002');
    expect((await pontuar(mine, body, key)).status).toBe(200);
    const res = await pontuar(other, body, key);
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      success: false,
      message:
        'Este identificador já foi usado para outra venda. Recarregue a página e lance de novo.',
      data: {},
    });
    expect(await compras('+5511955556002')).toBe(1);
    // The owner's retry of its own sale still answers that sale.
    expect((await pontuar(mine, body, key)).status).toBe(200);
  });
});

describe('the shift ledger (GET /api/lancamentos)', () => {
  /** The routes alone, the terminal taken from a test header (the access layer's job). */
  async function ledgerSetup() {
    // No counter refreshes the customer here: the journal reads the points at once.
    const { service } = await embeddedPostings(closers, { pointsWaitMs: 0 });
    const app = new Hono<{ Variables: RequestLogVars }>();
    const routes = postingRoutes({
      service,
      establishmentId: 1,
      maxBodyBytes: 1024 * 1024,
      viewerOf: (c) => {
        const [terminalId, role] = (c.req.header('x-test-terminal') ?? '').split(':');
        return terminalId ? { terminalId, role: role as Viewer['role'] } : null;
      },
      terminalNames: async () =>
        new Map([
          ['1', 'Caixa 1'],
          ['2', 'Caixa 2'],
          ['3', 'Gerência'],
        ]),
    });
    app.route('/', routes);
    const as = (terminal: string) => ({ 'x-test-terminal': terminal });
    const pontuar = (terminal: string, body: unknown) =>
      postJson(app, PONTUAR, body, { 'idempotency-key': randomUUID(), ...as(terminal) });
    const ledger = async (terminal: string, query: string) => {
      const res = await app.request(`/api/lancamentos?${query}`, { headers: as(terminal) });
      return {
        status: res.status,
        body: (await res.json()) as {
          data: {
            lancamentos: {
              celular: string;
              terminal: string;
              terminal_nome: string;
              estado: string;
              valor_gasto: number;
              pontos: number | null;
            }[];
            terminais: { id: string; nome: string }[];
          };
          errors?: Record<string, string[]>;
        },
      };
    };
    return { pontuar, ledger };
  }

  const today = () => {
    const from = new Date();
    from.setHours(0, 0, 0, 0);
    const to = new Date(from.getTime() + 24 * 3_600_000);
    return `de=${from.toISOString()}&ate=${to.toISOString()}`;
  };

  test("a cashier sees only its own terminal's postings of the day, newest first", async () => {
    const { pontuar, ledger } = await ledgerSetup();
    await pontuar('1:caixa', sale('+5511955551001'));
    await pontuar('2:caixa', sale('+5511955551002'));
    await pontuar('1:caixa', sale('+5511955551003', 1000));
    const mine = await ledger('1:caixa', today());
    expect(mine.status).toBe(200);
    expect(mine.body.data.lancamentos.map((l) => [l.celular, l.terminal_nome, l.estado])).toEqual([
      ['+5511955551003', 'Caixa 1', 'lançado'],
      ['+5511955551001', 'Caixa 1', 'lançado'],
    ]);
    expect(mine.body.data.terminais).toEqual([]);
    expect((await ledger('1:caixa', `${today()}&terminal=2`)).status).toBe(403);
  });

  test('a manager sees every terminal, filters by one, and gets the terminal list', async () => {
    const { pontuar, ledger } = await ledgerSetup();
    await pontuar('1:caixa', sale('+5511955552001'));
    await pontuar('2:caixa', sale('+5511955552002'));
    const all = await ledger('3:gerente', today());
    expect(all.body.data.lancamentos.map((l) => l.terminal)).toEqual(['2', '1']);
    expect(all.body.data.terminais.map((t) => t.nome)).toEqual(['Caixa 1', 'Caixa 2', 'Gerência']);
    const one = await ledger('3:gerente', `${today()}&terminal=1`);
    expect(one.body.data.lancamentos.map((l) => l.celular)).toEqual(['+5511955552001']);
  });

  test('a sale that wins a reward is listed with the points it earned, not the balance it left', async () => {
    const { pontuar, ledger } = await ledgerSetup();
    // Loja Demo: 1 point per R$ 1,00, a reward at 100 points (debited when won).
    const small = await pontuar('1:caixa', sale('+5511955554001', 4000));
    expect(((await small.json()) as { data: { saldo_atual: number } }).data.saldo_atual).toBe(40);
    const big = await pontuar('1:caixa', sale('+5511955554001', 9050));
    // 40 + 90 = 130: the reward's 100 points are debited, the balance is 30.
    expect(((await big.json()) as { data: { saldo_atual: number } }).data.saldo_atual).toBe(30);
    let mine = await ledger('1:caixa', today());
    for (let i = 0; i < 50 && mine.body.data.lancamentos.some((l) => l.pontos === null); i++) {
      await new Promise((r) => setTimeout(r, 20));
      mine = await ledger('1:caixa', today());
    }
    // Each sale with its own points (two sales journaled in the same millisecond have no order
    // between them: the ledger's tie-break is the random key), largest sale first.
    const rows = mine.body.data.lancamentos.map((l) => [l.valor_gasto, l.pontos, l.estado]);
    expect(rows.sort((a, b) => Number(b[0]) - Number(a[0]))).toEqual([
      [9050, 90, 'lançado'],
      [4000, 40, 'lançado'],
    ]);
  });

  test('another day lists nothing; a bad or too long period is a 422 on its field; a kiosk gets 403', async () => {
    const { pontuar, ledger } = await ledgerSetup();
    await pontuar('1:caixa', sale('+5511955553001'));
    const yesterday = new Date(Date.now() - 2 * 24 * 3_600_000);
    const q = `de=${yesterday.toISOString()}&ate=${new Date(yesterday.getTime() + 3_600_000).toISOString()}`;
    expect((await ledger('1:caixa', q)).body.data.lancamentos).toEqual([]);
    const bad = await ledger('1:caixa', 'de=ontem&ate=2026-11-23T00:00:00Z');
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toHaveProperty('de');
    const long = await ledger('1:caixa', 'de=2026-01-01T00:00:00Z&ate=2026-03-01T00:00:00Z');
    expect(long.status).toBe(422);
    expect(long.body.errors).toHaveProperty('ate');
    expect((await ledger('9:quiosque', today())).status).toBe(403);
  });
});

describe('contingency over HTTP', () => {
  async function contingencySetup(as: Role, o: { maxWaiting?: number } = {}) {
    const { circuit, set } = switchableCircuit(true);
    const { upstream, service } = await embeddedPostings(closers, {
      circuit,
      sealKey: sealKeyFrom('routes-test-secret-0123456789abcdef'),
      maxWaiting: o.maxWaiting ?? 10,
    });
    const { app, ready } = makeApp({ ...upstream, postings: service, circuit }, as);
    closers.push(async () => (await ready).store.close());
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as any });
    return {
      app,
      service,
      reopen: set,
      json,
      pontuar: (body: unknown, key = randomUUID()) =>
        postJson(app, PONTUAR, body, { 'idempotency-key': key }),
    };
  }

  test('while open: lookups answer 503 at once, a sale is kept (202 aguardando envio), the status counts it; past the limit a 503 says so', async () => {
    const { app, pontuar, json } = await contingencySetup('caixa', { maxWaiting: 1 });
    const lookup = await postJson(app, BUSCAR, { celular: '+5511987654321' });
    expect(lookup.status).toBe(503);
    expect(((await lookup.json()) as { message: string }).message).toMatch(/modo contingência/);
    const kept = await json(await pontuar(sale('+5511955554001')));
    expect(kept.status).toBe(202);
    expect(kept.body.data).toMatchObject({ estado: 'aguardando envio', guardado: true });
    const status = await json(await app.request('/api/contingencia'));
    expect(status.body.data).toMatchObject({
      contingencia: true,
      aguardando: 1,
      atencao: 0,
      limite_aguardando: 1,
      aceita: false,
    });
    const refused = await json(await pontuar(sale('+5511955554002')));
    expect(refused.status).toBe(503);
    expect(refused.body.message).toMatch(/limite de 1 vendas guardadas/);
  });

  test('only a manager resends or discards a sale needing attention; a resend needs the password', async () => {
    const cashier = await contingencySetup('caixa');
    const forbidden = await cashier.app.request(`/api/lancamentos/${randomUUID()}/descartar`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(forbidden.status).toBe(403);

    const { app, pontuar, json, reopen, service } = await contingencySetup('gerente');
    const kept = await json(
      await pontuar({ ...sale('+5511955554003', 2590), senha_atendente: '9999' }),
    );
    const key = kept.body.data.chave as string;
    const post = (action: string, body: unknown) =>
      app.request(`/api/lancamentos/${key}/${action}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const state = async () => (await json(await app.request(`/api/lancamentos/${key}`))).body.data;
    // Not needing attention yet: 409.
    expect((await post('descartar', {})).status).toBe(409);
    // Delivered with its wrong password, the sandbox refuses it: precisa de atenção.
    reopen(false);
    await service.deliver();
    await expect.poll(async () => (await state()).estado).toBe('precisa de atenção');
    expect((await state()).motivo).toMatch(/senha/i);
    const missing = await json(await post('reenviar', {}));
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toHaveProperty('senha_atendente');
    expect((await post('reenviar', { senha_atendente: '1234' })).status).toBe(200);
    await expect.poll(async () => (await state()).estado).toBe('lançado');
    expect((await post('descartar', {})).status).toBe(409);
  });

  test('every answer is what the contract says, field for field (the browser parses it with it)', async () => {
    const { app, pontuar, json } = await contingencySetup('gerente');
    const kept = await json(await pontuar(sale('+5511955554004')));
    expect(kept.status).toBe(202);
    // Parsed by the browser's schema, nothing added, dropped or changed (tipo and premio are
    // the server's own: a points posting).
    expect(Lancamento.parse(kept.body.data)).toEqual(kept.body.data);
    expect(kept.body.data).toMatchObject({ tipo: 'pontos', premio: null, guardado: true });
    const key = kept.body.data.chave as string;
    const one = await json(await app.request(`/api/lancamentos/${key}`));
    expect(Lancamento.parse(one.body.data)).toEqual(one.body.data);
    const from = new Date(Date.now() - 3_600_000).toISOString();
    const to = new Date(Date.now() + 3_600_000).toISOString();
    const ledger = await json(await app.request(`/api/lancamentos?de=${from}&ate=${to}`));
    expect(ledger.body.data.lancamentos).toHaveLength(1);
    expect(Ledger.parse(ledger.body.data)).toEqual(ledger.body.data);
    const status = await json(await app.request('/api/contingencia'));
    expect(Contingency.parse(status.body.data)).toEqual(status.body.data);
  });

  test('a resend whose body is no JSON object is refused on the password, like an empty one', async () => {
    const { app, json } = await contingencySetup('gerente');
    for (const body of ['{', 'null', '[]', '"1234"', '{"a":' + '['.repeat(5_000)]) {
      const res = await json(
        await app.request(`/api/lancamentos/${randomUUID()}/reenviar`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        }),
      );
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        success: false,
        message: 'Informe a senha do atendente.',
        data: {},
        errors: { senha_atendente: ['Informe a senha do atendente.'] },
      });
    }
  });
});
