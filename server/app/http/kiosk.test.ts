/* eslint-disable @typescript-eslint/no-explicit-any -- the tests read JSON answers loosely */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterEach, describe, expect, test } from 'vitest';
import { createJournalStore, enrollDirectly, openStore } from '../../store';
import type { Role, Store } from '../../store';
import { credentialCookieName } from './access/terminal';
import { signCredential } from '../domain/credential';
import { kioskSealKeyFrom, sealKeyFrom, unseal } from '../domain/journal/sealed';
import { capturedLogger, jsonWithout, TEST_SECRET } from '../../testing/app-harness';
import { forbiddenKeys, maskPhone, firstName, kioskCustomer } from '../domain/kiosk/view';
import {
  BalanceAnswer,
  CounterSaleAnswer,
  ExitAnswer,
  KioskSaleAnswer,
  KiosksAnswer,
} from '#contract/api/kiosk';
import { embeddedPostings, NO_RATE_LIMITS, testAppServer } from '../testing/embedded-postings';

/** The contract's schema of a kiosk endpoint's answer `data` (null: an endpoint with none). */
function answerContract(method: string, path: string) {
  const p = new URL(path, 'http://localhost').pathname.replace(/^\/api\/quiosque/, '');
  if (method === 'POST' && (p === '/saldo' || p === '/cadastro')) return BalanceAnswer;
  if (p === '/venda' || /^\/venda\/[^/]+\/resgatar$/.test(p)) return KioskSaleAnswer;
  if (p === '/sair') return ExitAnswer;
  if (p === '/terminais') return KiosksAnswer;
  if (/^\/vendas(\/[^/]+(\/cancelar)?)?$/.test(p)) return CounterSaleAnswer;
  return null;
}

const closers: (() => unknown)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

const MARIA = '+5511987654321';
/** What the sandbox's Maria has that no kiosk answer may carry. */
const MARIA_SECRETS = ['52998224725', '11987654321', '@', 'Silva', 'historico', 'data_nascimento'];

/**
 * The app server over the embedded sandbox (establishment 1) and a store whose clock the test
 * moves, seen from several enrolled terminals. Every kiosk answer is checked for fields a kiosk
 * may not receive (and for the attendant password) as it arrives.
 */
async function setup() {
  let clock = Date.now();
  const store: Store = await openStore({ sqlitePath: ':memory:', now: () => clock });
  closers.push(() => store.close());
  const { upstream, service: postings } = await embeddedPostings(closers, {
    store: createJournalStore(store),
    now: () => clock,
  });
  const log = capturedLogger();
  const app = testAppServer({
    ...upstream,
    logger: log.logger,
    store,
    postings,
    limits: NO_RATE_LIMITS,
  });
  const checked: { url: string; body: string }[] = [];
  const contracted: string[] = [];

  /**
   * Every answer that carries data (a success, or a 409 with the sale as it now is) is exactly
   * what the contract's schema reads: parsing keeps every field and drops none.
   */
  async function expectContract(method: string, path: string, res: Response) {
    const schema = answerContract(method, path);
    if (schema === null || !(res.headers.get('content-type') ?? '').includes('json')) return;
    const body = (await res.clone().json()) as Json;
    if (!body.success && body.data?.venda === undefined) return;
    expect(schema.parse(body.data), `${method} ${path} against the contract`).toEqual(body.data);
    contracted.push(`${method} ${path}`);
  }

  async function terminal(role: Role, name: string = role) {
    const { terminal: t, nonce } = await enrollDirectly(store, { name, role });
    const credential = signCredential(TEST_SECRET, t.id, nonce);
    const cookie = `${credentialCookieName('http://localhost/')}=${credential}`;
    const kioskSide = role === 'quiosque';
    const request = async (path: string, init: RequestInit = {}) => {
      const headers = new Headers(init.headers);
      headers.set('cookie', cookie);
      if (init.method && init.method !== 'GET') {
        headers.set('origin', 'http://localhost');
        headers.set('content-type', 'application/json');
      }
      const res = await app.request(`http://localhost${path}`, { ...init, headers });
      await expectContract(init.method ?? 'GET', path, res);
      if (kioskSide && !(res.headers.get('content-type') ?? '').includes('event-stream')) {
        const text = await res.clone().text();
        checked.push({ url: path, body: text });
        expectKioskSafe(text, path);
      }
      return res;
    };
    const post = (path: string, body: unknown) =>
      request(path, { method: 'POST', body: JSON.stringify(body) });
    return { id: t.id, credential, request, post };
  }

  function expectKioskSafe(text: string, where: string) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
    expect(forbiddenKeys(json), `forbidden keys in ${where}: ${text}`).toEqual([]);
    for (const secret of [...MARIA_SECRETS, '1234']) {
      expect(text.includes(secret), `"${secret}" in ${where}: ${text}`).toBe(false);
    }
  }

  const compras = async (celular: string) => {
    const res = await upstream.upstream.fetch(
      new Request('http://sandbox.internal/api/v4/estabelecimentos/1/clientes/buscar', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'app-token': upstream.appToken,
          'access-token': upstream.accessToken,
        },
        body: JSON.stringify({ celular }),
      }),
    );
    if (res.status === 404) return null;
    return ((await res.json()) as { data: { compras: number } }).data.compras;
  };
  const journalRows = async () =>
    (await store.db.selectFrom('posting_journal').selectAll().execute()).length;

  return {
    app,
    store,
    terminal,
    compras,
    journalRows,
    checked,
    contracted,
    expectKioskSafe,
    lines: log.lines,
    advance: (ms: number) => (clock += ms),
  };
}

const phone = () => `+55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

type Json = { success: boolean; message: string; data: Record<string, any>; errors?: any };
const json = async (res: Response) => (await res.json()) as Json;

describe('kiosk view helpers', () => {
  test('masked phone shows only the area code, a mobile’s 9 and the last four digits', () => {
    expect(maskPhone('+5511987654321')).toBe('(11) 9••••-4321');
    expect(maskPhone('+552133334444')).toBe('(21) ••••-4444');
    expect(maskPhone('+14155550123')).toBe('••••-0123');
    expect(maskPhone(undefined)).toBe('••••');
  });
  test('first name, capitalised; none for the service’s placeholder name', () => {
    expect(firstName('MARIA DA SILVA')).toBe('Maria');
    expect(firstName('  joão pereira ')).toBe('João');
    expect(firstName('CLIENTE DESCONHECIDO')).toBeNull();
    expect(firstName(null)).toBeNull();
  });
  test('carência released the day after the newest credit; the soonest expiration summed', () => {
    const view = kioskCustomer(
      {
        nome: 'Ana Lima',
        celular: '+5521999998888',
        cpf: '52998224725',
        email: 'ana@x.com',
        carteira: {
          saldo: 40,
          saldo_carencia: 9,
          historico: [
            { tipo: 'credito', pontos: 9, data: '2026-11-30 23:10:00' },
            { tipo: 'credito', pontos: 40, data: '2026-10-01 10:00:00' },
          ],
          pontos_vencendo: [
            { pontos: 30, data_validade: '2027-10-31' },
            { pontos: 10, data_validade: '2027-10-31' },
            { pontos: 9, data_validade: '2027-11-30' },
          ],
        },
      },
      [
        { nome: 'Café', valido_ate: '2026-12-20 23:59:59', premio_status: 'pendente_resgate' },
        { nome: 'Bolo', valido_ate: '2026-12-10 23:59:59', premio_status: 'pendente_resgate' },
      ],
    );
    expect(view).toEqual({
      primeiro_nome: 'Ana',
      celular: '(21) 9••••-8888',
      saldo: 40,
      saldo_carencia: 9,
      carencia_liberada_em: '2026-12-01',
      proximo_vencimento: { pontos: 40, data_validade: '2027-10-31' },
      premios_pendentes: [
        { nome: 'Bolo', valido_ate: '2026-12-10 23:59:59' },
        { nome: 'Café', valido_ate: '2026-12-20 23:59:59' },
      ],
    });
    expect(forbiddenKeys({ data: { cliente: view } })).toEqual([]);
    expect(forbiddenKeys({ data: { cliente: { cpf: 'x', carteira: {} } } })).toEqual([
      '.data.cliente.cpf',
      '.data.cliente.carteira',
    ]);
  });
});

describe('kiosk endpoints', () => {
  test('balance by phone: first name, masked phone, balance, expiration, pending rewards; nothing else', async () => {
    const s = await setup();
    const kiosk = await s.terminal('quiosque');
    const res = await kiosk.post('/api/quiosque/saldo', { celular: MARIA });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.data.cadastrado).toBe(true);
    const c = body.data.cliente;
    expect(c.primeiro_nome).toBe('Maria');
    expect(c.celular).toBe('(11) 9••••-4321');
    expect(typeof c.saldo).toBe('number');
    expect(Array.isArray(c.premios_pendentes)).toBe(true);
    // Unknown phone: not registered, nothing else said.
    const unknown = await json(await kiosk.post('/api/quiosque/saldo', { celular: phone() }));
    expect(unknown.data).toEqual({ cadastrado: false, cliente: null });
    // Bad input: 422 at its field.
    const bad = await kiosk.post('/api/quiosque/saldo', { celular: '1198765' });
    expect(bad.status).toBe(422);
    expect((await json(bad)).errors.celular[0]).toMatch(/DDD/);
  });

  test('roles: a kiosk reaches no service route nor the counter’s; a cashier not the kiosk’s', async () => {
    const s = await setup();
    const kiosk = await s.terminal('quiosque');
    const caixa = await s.terminal('caixa');
    expect(
      (await kiosk.post('/api/v4/estabelecimentos/1/clientes/buscar', { celular: MARIA })).status,
    ).toBe(403);
    expect(
      (await kiosk.request('/api/lancamentos?de=2026-01-01T00:00:00Z&ate=2026-01-02T00:00:00Z'))
        .status,
    ).toBe(403);
    expect((await kiosk.post('/api/quiosque/vendas', { quiosque: kiosk.id })).status).toBe(403);
    expect((await kiosk.request('/api/quiosque/terminais')).status).toBe(403);
    expect((await caixa.post('/api/quiosque/saldo', { celular: MARIA })).status).toBe(403);
    expect((await caixa.post('/api/quiosque/sair', { senha_atendente: '1234' })).status).toBe(403);
    const terminais = await json(await caixa.request('/api/quiosque/terminais'));
    expect(terminais.data.quiosques).toEqual([{ id: kiosk.id, nome: 'quiosque' }]);
  });

  test('registration needs consent; with it the customer exists with the name given', async () => {
    const s = await setup();
    const kiosk = await s.terminal('quiosque');
    const celular = phone();
    const refused = await kiosk.post('/api/quiosque/cadastro', { celular, nome: 'Rita Souza' });
    expect(refused.status).toBe(422);
    expect((await json(refused)).errors.consentimento).toHaveLength(1);
    expect(await s.compras(celular)).toBeNull();
    const done = await kiosk.post('/api/quiosque/cadastro', {
      celular,
      nome: 'Rita Souza',
      consentimento: true,
    });
    expect(done.status).toBe(201);
    const c = (await json(done)).data.cliente;
    expect(c.primeiro_nome).toBe('Rita');
    expect(c.saldo).toBe(0);
    expect(await s.compras(celular)).toBe(0);
    expect(s.lines.some((l) => l.includes('kiosk registration with consent'))).toBe(true);
  });

  test('a staged sale is posted once: second tap, a second kiosk and a replay post nothing more', async () => {
    const s = await setup();
    const kiosk = await s.terminal('quiosque', 'Quiosque 1');
    const other = await s.terminal('quiosque', 'Quiosque 2');
    const caixa = await s.terminal('caixa');
    const wrong = await caixa.post('/api/quiosque/vendas', {
      quiosque: kiosk.id,
      valor_gasto: 4590,
      senha_atendente: '9999',
    });
    expect(wrong.status).toBe(422);
    expect((await json(wrong)).errors.senha_atendente[0]).toMatch(/incorreta/);
    expect((await json(await kiosk.request('/api/quiosque/venda'))).data.venda).toBeNull();

    const staged = await caixa.post('/api/quiosque/vendas', {
      quiosque: kiosk.id,
      valor_gasto: 4590,
      itens: [{ descricao: 'Pão', qtde: 2, valor: 4590 }],
      senha_atendente: '1234',
    });
    expect(staged.status).toBe(201);
    const venda = (await json(staged)).data.venda;
    // The password, anywhere but in the sale's generated id (a UUID may hold '1234' by chance).
    expect(jsonWithout(venda, ['id'])).not.toMatch(/1234|senha/);
    const shown = (await json(await kiosk.request('/api/quiosque/venda'))).data.venda;
    expect(shown).toMatchObject({ id: venda.id, estado: 'aguardando', valor_gasto: 4590 });
    expect((await json(await other.request('/api/quiosque/venda'))).data.venda).toBeNull();

    const celular = phone();
    // New customer: consent first, nothing posted without it.
    const noConsent = await kiosk.post(`/api/quiosque/venda/${venda.id}/resgatar`, { celular });
    expect(noConsent.status).toBe(422);
    expect((await json(noConsent)).data.cadastrado).toBe(false);
    expect(await s.compras(celular)).toBeNull();

    const claim = () =>
      kiosk.post(`/api/quiosque/venda/${venda.id}/resgatar`, {
        celular,
        nome: 'Paula Dias',
        consentimento: true,
      });
    // Two taps at once: one posts, the other finds it taken.
    const [a, b] = await Promise.all([claim(), claim()]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const won = await json(a.status === 200 ? a : b);
    expect(won.data.venda).toMatchObject({ estado: 'lançado', pontos: 45 });
    expect(won.data.venda.cliente).toMatchObject({ primeiro_nome: 'Paula', saldo: 45 });
    expect((await claim()).status).toBe(409);
    expect((await other.post(`/api/quiosque/venda/${venda.id}/resgatar`, { celular })).status).toBe(
      404,
    );
    expect(await s.compras(celular)).toBe(1);
    expect(await s.journalRows()).toBe(1);
    const row = await s.store.db
      .selectFrom('kiosk_sales')
      .selectAll()
      .where('id', '=', venda.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'lançado', secret: null, kiosk_id: kiosk.id });
    // The counter sees the result; a cancel now is refused.
    const followed = (await json(await caixa.request(`/api/quiosque/vendas/${venda.id}`))).data
      .venda;
    expect(followed).toMatchObject({ estado: 'lançado', pontos: 45 });
    expect((await caixa.post(`/api/quiosque/vendas/${venda.id}/cancelar`, {})).status).toBe(409);
    console.log(
      `kiosk claim: 3 claims + 1 other kiosk → postings in the sandbox: ${await s.compras(celular)}, journal rows: ${await s.journalRows()}`,
    );
  });

  test('cancel from the counter and expiry after 5 minutes: the kiosk cannot claim, nothing posted', async () => {
    const s = await setup();
    const kiosk = await s.terminal('quiosque');
    const caixa = await s.terminal('caixa');
    const stage = async () =>
      (
        await json(
          await caixa.post('/api/quiosque/vendas', {
            quiosque: kiosk.id,
            valor_gasto: 1000,
            senha_atendente: '1234',
          }),
        )
      ).data.venda as { id: string };
    const first = await stage();
    // In the store the password is sealed to this sale (AES-GCM, key from APP_SECRET).
    const secretOf = async (id: string) =>
      (
        await s.store.db
          .selectFrom('kiosk_sales')
          .select('secret')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).secret;
    const sealed = await secretOf(first.id);
    expect(sealed).not.toBeNull();
    expect(sealed).not.toContain('1234');
    expect(unseal(kioskSealKeyFrom(TEST_SECRET), sealed!, first.id)).toBe('1234');
    expect(unseal(kioskSealKeyFrom(TEST_SECRET), sealed!, 'another-sale')).toBeNull();
    expect(unseal(sealKeyFrom(TEST_SECRET), sealed!, first.id)).toBeNull();
    const cancelled = await caixa.post(`/api/quiosque/vendas/${first.id}/cancelar`, {});
    expect(await secretOf(first.id)).toBeNull();
    expect((await json(cancelled)).data.venda.estado).toBe('cancelado');
    const late = await kiosk.post(`/api/quiosque/venda/${first.id}/resgatar`, { celular: MARIA });
    expect(late.status).toBe(409);
    expect((await json(late)).message).toMatch(/cancelou/);

    const second = await stage();
    s.advance(5 * 60_000 + 1);
    const expired = await kiosk.post(`/api/quiosque/venda/${second.id}/resgatar`, {
      celular: MARIA,
    });
    expect(expired.status).toBe(409);
    expect((await json(expired)).data.venda.estado).toBe('expirado');
    expect(await secretOf(second.id)).toBeNull();
    expect(await s.journalRows()).toBe(0);
  });

  test('fallback: the kiosk stages a sale itself with the attendant password; a busy kiosk refuses another counter', async () => {
    const s = await setup();
    const kiosk = await s.terminal('quiosque');
    const caixa = await s.terminal('caixa');
    expect(
      (await kiosk.post('/api/quiosque/venda', { valor_gasto: 500, senha_atendente: '0000' }))
        .status,
    ).toBe(422);
    const res = await kiosk.post('/api/quiosque/venda', {
      valor_gasto: 500,
      senha_atendente: '1234',
    });
    expect(res.status).toBe(201);
    const venda = (await json(res)).data.venda;
    expect(venda.balcao).toBeNull();
    const busy = await caixa.post('/api/quiosque/vendas', {
      quiosque: kiosk.id,
      valor_gasto: 800,
      senha_atendente: '1234',
    });
    expect(busy.status).toBe(409);
    const claimed = await kiosk.post(`/api/quiosque/venda/${venda.id}/resgatar`, {
      celular: MARIA,
    });
    expect((await json(claimed)).data.venda).toMatchObject({ estado: 'lançado', pontos: 5 });
  });

  test('bad sale input is refused at its field and stages nothing', async () => {
    const s = await setup();
    const kiosk = await s.terminal('quiosque');
    const caixa = await s.terminal('caixa');
    const res = await caixa.post('/api/quiosque/vendas', {
      quiosque: 999,
      valor_gasto: 1000,
      itens: [{ valor: 900 }],
    });
    expect(res.status).toBe(422);
    expect(Object.keys((await json(res)).errors).sort()).toEqual([
      'itens',
      'quiosque',
      'senha_atendente',
    ]);
    expect((await json(await kiosk.request('/api/quiosque/venda'))).data.venda).toBeNull();
  });

  test('a body that is not a JSON object is a 400; a bad basket line is refused at its path', async () => {
    const s = await setup();
    const kiosk = await s.terminal('quiosque');
    const caixa = await s.terminal('caixa');
    for (const body of ['{"celular":', '[]', 'null', '"+5511987654321"']) {
      const res = await kiosk.request('/api/quiosque/saldo', { method: 'POST', body });
      expect(res.status).toBe(400);
      expect(await json(res)).toEqual({
        success: false,
        message: 'O corpo da requisição não é um JSON válido.',
        data: {},
      });
    }
    const res = await caixa.post('/api/quiosque/vendas', {
      quiosque: kiosk.id,
      valor_gasto: 1000,
      itens: [{ descricao: 'Pão', valor: 1000 }, { valor: -5 }],
      senha_atendente: '1234',
    });
    expect(res.status).toBe(422);
    const body = await json(res);
    expect(body.errors).toEqual({
      'itens.1.valor': ['Itens inválidos: cada item tem valor em centavos (inteiro ≥ 0).'],
    });
    expect(body.message).toBe(body.errors['itens.1.valor'][0]);
    expect((await json(await kiosk.request('/api/quiosque/venda'))).data.venda).toBeNull();
  });

  test('leaving kiosk mode asks the attendant password; guesses lock the terminal', async () => {
    const s = await setup();
    const kiosk = await s.terminal('quiosque');
    expect((await kiosk.post('/api/quiosque/sair', {})).status).toBe(422);
    expect((await kiosk.post('/api/quiosque/sair', { senha_atendente: '1234' })).status).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push(
        (await kiosk.post('/api/quiosque/sair', { senha_atendente: `9${i}99` })).status,
      );
    }
    expect(statuses).toEqual([422, 422, 422, 422, 429, 429]);
    // Locked: even the right one waits.
    expect((await kiosk.post('/api/quiosque/sair', { senha_atendente: '1234' })).status).toBe(429);
  });

  test('Server-Sent Events: the kiosk hears the staged sale, the counter hears the result', async () => {
    const s = await setup();
    const kiosk = await s.terminal('quiosque');
    const caixa = await s.terminal('caixa');
    const listen = async (t: typeof kiosk) => {
      const ac = new AbortController();
      closers.push(() => ac.abort());
      const res = await t.request('/api/quiosque/eventos', { signal: ac.signal });
      expect(res.headers.get('content-type')).toContain('text/event-stream');
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      const events: { event: string; data: any }[] = [];
      return {
        raw: () => buffer,
        async next(event: string, pred: (d: any) => boolean = () => true) {
          for (;;) {
            const found = events.find((e) => e.event === event && pred(e.data));
            if (found) return found.data;
            const { value, done } = await reader.read();
            if (done) throw new Error('stream ended');
            buffer += decoder.decode(value, { stream: true });
            const blocks = buffer.split('\n\n');
            events.length = 0;
            for (const b of blocks) {
              const ev = /^event: (.*)$/m.exec(b)?.[1];
              const data = /^data: (.*)$/m.exec(b)?.[1];
              if (ev && data) events.push({ event: ev, data: JSON.parse(data) });
            }
          }
        },
      };
    };
    const k = await listen(kiosk);
    const c = await listen(caixa);
    expect(await k.next('pronto')).toEqual({ venda: null });
    await c.next('pronto');
    const staged = (
      await json(
        await caixa.post('/api/quiosque/vendas', {
          quiosque: kiosk.id,
          valor_gasto: 2590,
          senha_atendente: '1234',
        }),
      )
    ).data.venda;
    const heard = await k.next('venda', (d) => d.estado === 'aguardando');
    expect(heard).toMatchObject({ id: staged.id, valor_gasto: 2590 });
    await kiosk.post(`/api/quiosque/venda/${staged.id}/resgatar`, { celular: MARIA });
    const result = await c.next('venda', (d) => d.estado === 'lançado');
    expect(result).toMatchObject({ id: staged.id, pontos: 25 });
    await k.next('venda', (d) => d.estado === 'lançado');
    // Everything the kiosk's stream carried passes the same check as its answers.
    for (const block of k.raw().split('\n\n')) {
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (data) s.expectKioskSafe(`{"data":${data}}`, 'kiosk event stream');
    }
  });

  test('phone lookups: a handful a minute per kiosk (balance and registration), then 429 in Portuguese; other kiosks unaffected', async () => {
    const s = await setup();
    const kiosk = await s.terminal('quiosque', 'Quiosque 1');
    const other = await s.terminal('quiosque', 'Quiosque 2');
    // A mistyped phone never reaches the service and does not count.
    for (let i = 0; i < 3; i++) {
      expect((await kiosk.post('/api/quiosque/saldo', { celular: '+55119' })).status).toBe(422);
    }
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      statuses.push((await kiosk.post('/api/quiosque/saldo', { celular: phone() })).status);
    }
    // Registration reads the service too: it counts in the same window.
    statuses.push(
      (await kiosk.post('/api/quiosque/cadastro', { celular: phone(), consentimento: true }))
        .status,
    );
    const refused = await kiosk.post('/api/quiosque/saldo', { celular: MARIA });
    statuses.push(refused.status);
    const registerRefused = await kiosk.post('/api/quiosque/cadastro', {
      celular: phone(),
      consentimento: true,
    });
    statuses.push(registerRefused.status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 201, 429, 429]);
    const body = await json(refused);
    expect(body.message).toBe('Muitas consultas seguidas. Aguarde um minuto.');
    expect(body.data).toEqual({});
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect((await other.post('/api/quiosque/saldo', { celular: MARIA })).status).toBe(200);
    expect(s.lines.some((l) => l.includes('kiosk phone lookups over the limit'))).toBe(true);
    // The next minute, the kiosk looks up again.
    s.advance(60_000);
    expect((await kiosk.post('/api/quiosque/saldo', { celular: MARIA })).status).toBe(200);
    console.log(
      `kiosk lookups: 3 mistyped (not counted) + ${statuses.length} well-formed in one minute → ${statuses.filter((x) => x < 300).length} answered, ${statuses.filter((x) => x === 429).length}×429; other kiosk 200; next minute 200`,
    );
  });

  test('event streams over HTTP: a terminal holds 4; a 5th and a 6th close its oldest, other terminals untouched', async () => {
    const s = await setup();
    const server = serve({ fetch: s.app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise<void>((r) => server.once('listening', () => r()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const controllers: AbortController[] = [];
    closers.push(
      () => new Promise<void>((r) => server.close(() => r())),
      () => controllers.forEach((ac) => ac.abort()),
    );
    const kiosk = await s.terminal('quiosque');
    const caixa = await s.terminal('caixa', 'Caixa 1');
    const other = await s.terminal('caixa', 'Caixa 2');
    /** One EventSource-like stream: its text so far, and whether the server ended it. */
    const open = async (t: { credential: string }) => {
      const ac = new AbortController();
      controllers.push(ac);
      const res = await fetch(`${url}/api/quiosque/eventos`, {
        headers: { cookie: `${credentialCookieName(url)}=${t.credential}` },
        signal: ac.signal,
      });
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      const st = { text: '', ended: false };
      void (async () => {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return void (st.ended = true);
          st.text += decoder.decode(value, { stream: true });
        }
      })().catch(() => undefined);
      await waitUntil(() => st.text.includes('event: pronto'));
      return { read: () => st };
    };
    type Stream = Awaited<ReturnType<typeof open>>;
    const waitUntil = async (ok: () => boolean, ms = 5_000) => {
      const until = Date.now() + ms;
      while (!ok()) {
        if (Date.now() > until) throw new Error('timed out');
        await new Promise((r) => setTimeout(r, 10));
      }
    };
    const mine: Stream[] = [];
    for (let i = 0; i < 4; i++) mine.push(await open(caixa));
    const theirs: Stream[] = [];
    for (let i = 0; i < 4; i++) theirs.push(await open(other));
    mine.push(await open(caixa)); // the 5th: the 1st ends
    await waitUntil(() => mine[0]!.read().ended);
    expect(mine[0]!.read().text).toMatch(/event: substituido\ndata: \{\}\nretry: 30000/);
    mine.push(await open(caixa)); // the 6th: the 2nd ends
    await waitUntil(() => mine[1]!.read().ended);
    // The four newest of each terminal still hear a sale the counter stages.
    const staged = await caixa.post('/api/quiosque/vendas', {
      quiosque: kiosk.id,
      valor_gasto: 1500,
      senha_atendente: '1234',
    });
    expect(staged.status).toBe(201);
    await waitUntil(() => mine.slice(2).every((m) => m.read().text.includes('event: venda')));
    expect(mine.slice(2).map((m) => m.read().ended)).toEqual([false, false, false, false]);
    expect(theirs.map((m) => m.read().ended)).toEqual([false, false, false, false]);
    console.log(
      `event streams: 6 opened by one terminal → 2 closed (oldest first), 4 open; another terminal's 4 untouched`,
    );
  });

  test('every kiosk answer of this file was checked', async () => {
    // The checks run inside each request above; this one only proves the hook is live.
    const s = await setup();
    const kiosk = await s.terminal('quiosque');
    await kiosk.post('/api/quiosque/saldo', { celular: MARIA });
    expect(s.checked.length).toBe(1);
    expect(s.contracted).toEqual(['POST /api/quiosque/saldo']);
    expect(() => s.expectKioskSafe('{"data":{"cliente":{"cpf":"1"}}}', 'x')).toThrow();
  });
});
