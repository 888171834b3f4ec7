// The store's PDV sending sales, through the real processes: the sandbox run alone,
// the fault relay in front of it, and the app server (server/main.ts) with the PDV's password
// configured. Maria (CPF 529.982.247-25, +5511987654321) is in the seed; 111.444.777-35 is not.
import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openStore, revokeTerminal } from '../store';
import { sandboxPurchases, startAppServer, type RunningProcess } from '../testing/processes';
import { startRelayedApp, type RelayedApp } from '../testing/relayed-app';
import { addPdv, send } from './testing/clients';

const MARIA_CPF = '52998224725';
const MARIA_PHONE = '+5511987654321';
const UNKNOWN_CPF = '11144477735';
const ENV = {
  PDV_SENHA_ATENDENTE: '1234',
  PDV_VENDA_EXPIRA_MIN: '0.05',
  CONTINGENCY_FAILURES: '100',
  JOURNAL_LEASE_MS: '1000',
};

let run: RelayedApp;
let restarted: RunningProcess | null = null;
let token = '';
let pdvId = 0;

beforeAll(async () => {
  run = await startRelayedApp('pdv', ENV);
  ({ token, pdvId } = await addPdv(run));
}, 60_000);

afterAll(async () => {
  await restarted?.stop();
  await run?.stop();
});

const appUrl = () => (restarted ?? run.app).url;
const cookieOf = (role: 'caixa' | 'gerente' | 'quiosque') =>
  run.cookies[role].replace(/^pdv_terminal_\d+=/, `pdv_terminal_${new URL(appUrl()).port}=`);

interface Venda {
  id: string;
  id_venda: string;
  estado: string;
  pontos: number | null;
  cliente: { primeiro_nome: string | null; celular: string } | null;
  automatica: boolean;
}

async function pdv(method: string, path: string, body?: unknown, auth = `Bearer ${token}`) {
  const res = await send(`${appUrl()}${path}`, method, { authorization: auth }, body);
  const text = await res.text();
  return { status: res.status, text, venda: (JSON.parse(text).data?.venda ?? null) as Venda };
}

const customers = () => {
  const db = new Database(run.sandboxDb, { readonly: true });
  try {
    return (db.prepare('select count(*) as n from clientes').get() as { n: number }).n;
  } finally {
    db.close();
  }
};

test('a known CPF is posted at once, with no browser, and the PDV reads the points', async () => {
  const before = await sandboxPurchases(run.sandbox.url, MARIA_PHONE);
  const sale = { id_venda: `cpf-${randomUUID()}`, valor_gasto: 4590, cpf: MARIA_CPF };
  const sent = await pdv('POST', '/api/integracao/vendas', sale);
  expect(sent.status).toBe(201);
  expect(sent.venda.estado).toBe('lançada');
  expect(sent.venda.automatica).toBe(true);
  expect(sent.venda.pontos).toBe(45);
  expect(sent.venda.cliente).toMatchObject({ primeiro_nome: 'Maria', celular: '(11) 9••••-4321' });
  // Never the CPF nor the full phone.
  expect(sent.text).not.toContain(MARIA_CPF);
  expect(sent.text).not.toContain('987654321');
  const read = await pdv('GET', `/api/integracao/vendas/${sale.id_venda}`);
  expect(read.venda.estado).toBe('lançada');
  expect(await sandboxPurchases(run.sandbox.url, MARIA_PHONE)).toBe(before + 1);
});

test('the same id_venda twice is one sale and one posting; another body is a 409', async () => {
  const before = await sandboxPurchases(run.sandbox.url, MARIA_PHONE);
  const sale = { id_venda: `dup-${randomUUID()}`, valor_gasto: 1000, celular: MARIA_PHONE };
  const [a, b] = await Promise.all([
    pdv('POST', '/api/integracao/vendas', sale),
    pdv('POST', '/api/integracao/vendas', sale),
  ]);
  expect([a.status, b.status].sort()).toEqual([200, 201]);
  expect(a.venda.id).toBe(b.venda.id);
  const again = await pdv('POST', '/api/integracao/vendas', sale);
  expect(again.status).toBe(200);
  const other = await pdv('POST', '/api/integracao/vendas', { ...sale, valor_gasto: 1001 });
  expect(other.status).toBe(409);
  const settled = await pdv('GET', `/api/integracao/vendas/${sale.id_venda}?aguardar=5`);
  expect(settled.venda.estado).toBe('lançada');
  expect(await sandboxPurchases(run.sandbox.url, MARIA_PHONE)).toBe(before + 1);
});

test('an unknown CPF is never registered: the sale waits for the counter', async () => {
  const before = customers();
  const sale = { id_venda: `unk-${randomUUID()}`, valor_gasto: 1200, cpf: UNKNOWN_CPF };
  const sent = await pdv('POST', '/api/integracao/vendas', sale);
  expect(sent.status).toBe(201);
  expect(sent.venda.estado).toBe('aguardando');
  expect(customers()).toBe(before);
  // The counter sees it waiting, and posts it for the customer the cashier found.
  const list = await fetch(`${appUrl()}/api/integracao/balcao/vendas`, {
    headers: { cookie: cookieOf('caixa') },
  });
  const waiting = (await list.json()).data.aguardando as Venda[];
  expect(waiting.map((v) => v.id)).toContain(sent.venda.id);
  const before2 = await sandboxPurchases(run.sandbox.url, MARIA_PHONE);
  const key = randomUUID();
  const post = () =>
    fetch(`${appUrl()}/api/integracao/balcao/vendas/${sent.venda.id}/lancar`, {
      method: 'POST',
      headers: {
        cookie: cookieOf('caixa'),
        origin: appUrl(),
        'content-type': 'application/json',
        'idempotency-key': key,
      },
      body: JSON.stringify({ cliente: { celular: MARIA_PHONE }, senha_atendente: '1234' }),
    });
  expect((await post()).status).toBe(200);
  expect((await post()).status).toBe(200); // a lost answer asked again: the same posting
  const read = await pdv('GET', `/api/integracao/vendas/${sale.id_venda}`);
  expect(read.venda.estado).toBe('lançada');
  expect(read.venda.pontos).toBe(12);
  expect(await sandboxPurchases(run.sandbox.url, MARIA_PHONE)).toBe(before2 + 1);
});

test('a cancelled sale posts nothing, and one posted cannot be cancelled', async () => {
  const sale = { id_venda: `cancel-${randomUUID()}`, valor_gasto: 990 };
  const sent = await pdv('POST', '/api/integracao/vendas', sale);
  expect(sent.venda.estado).toBe('aguardando');
  const cancelled = await pdv('POST', `/api/integracao/vendas/${sale.id_venda}/cancelar`);
  expect(cancelled.status).toBe(200);
  expect(cancelled.venda.estado).toBe('cancelada');
  const res = await fetch(`${appUrl()}/api/integracao/balcao/vendas/${sent.venda.id}/lancar`, {
    method: 'POST',
    headers: {
      cookie: cookieOf('caixa'),
      origin: appUrl(),
      'content-type': 'application/json',
      'idempotency-key': randomUUID(),
    },
    body: JSON.stringify({ cliente: { celular: MARIA_PHONE }, senha_atendente: '1234' }),
  });
  expect(res.status).toBe(409);
  const posted = { id_venda: `posted-${randomUUID()}`, valor_gasto: 500, cpf: MARIA_CPF };
  await pdv('POST', '/api/integracao/vendas', posted);
  expect((await pdv('POST', `/api/integracao/vendas/${posted.id_venda}/cancelar`)).status).toBe(
    409,
  );
});

test('a sale nobody identifies expires as não identificada, and counts so', async () => {
  const sale = { id_venda: `exp-${randomUUID()}`, valor_gasto: 700 };
  await pdv('POST', '/api/integracao/vendas', sale);
  const read = await pdv('GET', `/api/integracao/vendas/${sale.id_venda}?aguardar=10`);
  expect(read.venda.estado).toBe('não identificada');
  const list = await fetch(`${appUrl()}/api/integracao/balcao/vendas`, {
    headers: { cookie: cookieOf('caixa') },
  });
  const data = (await list.json()).data;
  console.log('summary', JSON.stringify(data.resumo));
  expect(data.resumo.nao_identificadas).toBeGreaterThanOrEqual(1);
  expect(data.resumo.pontuadas).toBeGreaterThanOrEqual(3);
});

test('the integration token reaches nothing else; a browser cookie creates no PDV sale', async () => {
  const auth = { authorization: `Bearer ${token}` };
  for (const path of [
    '/api/lancamentos',
    '/api/quiosque/eventos',
    '/api/integracao/balcao/vendas',
    '/api/painel?de=2026-01-01&ate=2026-01-02',
  ]) {
    expect((await fetch(`${appUrl()}${path}`, { headers: auth })).status, path).toBe(403);
  }
  const find = await fetch(`${appUrl()}/api/v4/estabelecimentos/1/clientes/buscar`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json', origin: appUrl() },
    body: JSON.stringify({ celular: MARIA_PHONE }),
  });
  expect(find.status).toBe(403);
  for (const role of ['caixa', 'quiosque', 'gerente'] as const) {
    const res = await fetch(`${appUrl()}/api/integracao/vendas`, {
      method: 'POST',
      headers: { cookie: cookieOf(role), origin: appUrl(), 'content-type': 'application/json' },
      body: JSON.stringify({ id_venda: `cookie-${role}`, valor_gasto: 100 }),
    });
    expect(res.status, role).toBe(401);
  }
  expect((await pdv('GET', '/api/integracao/vendas/cookie-caixa')).status).toBe(404);
});

test('the same sale resent after kill -9 of the app server is posted once', async () => {
  const before = await sandboxPurchases(run.sandbox.url, MARIA_PHONE);
  const sale = { id_venda: `kill-${randomUUID()}`, valor_gasto: 2500, cpf: MARIA_CPF };
  // The answer is held by the relay: the posting is in flight when the server dies.
  const held = run.relay.add({ match: '/fidelidade/pontuar', fault: { kind: 'delay', ms: 1500 } });
  const first = pdv('POST', '/api/integracao/vendas', sale).catch(() => null);
  await new Promise((r) => setTimeout(r, 700));
  await run.app.kill9();
  await first;
  console.log(`pontuar held by the relay when killed: ${held.received}`);
  restarted = await startAppServer(run.relay.url, { APP_DB: run.appDb, ...ENV });
  const again = await pdv('POST', '/api/integracao/vendas', sale);
  expect(again.status).toBe(200);
  const settled = await pdv('GET', `/api/integracao/vendas/${sale.id_venda}?aguardar=20`);
  const after = await sandboxPurchases(run.sandbox.url, MARIA_PHONE);
  console.log(`kill -9: state=${settled.venda.estado} postings=${after - before}`);
  expect(after - before).toBe(1);
  expect(settled.venda.estado).toBe('lançada');
}, 60_000);

test('a revoked token gets 401; logs carry no CPF or full phone', async () => {
  const store = await openStore({ sqlitePath: run.appDb });
  await revokeTerminal(store, pdvId);
  await store.close();
  expect((await pdv('GET', '/api/integracao/vendas/x')).status).toBe(401);
  const logs = run.app.output() + (restarted?.output() ?? '');
  expect(logs).not.toContain(MARIA_CPF);
  expect(logs).not.toContain(UNKNOWN_CPF);
  expect(logs).not.toContain('11987654321');
  expect(logs).not.toContain(token);
});
