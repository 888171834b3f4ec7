/**
 * A chain's stores kept apart, through the real processes `npm run chain` starts
 * (scripts/chain.ts): PostgreSQL, the sandbox as the service (its own process, logging each
 * request it serves), two app-server replicas serving stores 1, 3 and 4, and HAProxy in front.
 * Every request goes through the balancer, as a store's browsers and PDV send it.
 *
 * - Every route of the app server (read from its own route table) and every forwarded
 *   operation of the service, sent by store A's caixa, gerente, PDV token, kiosk and customer
 *   display naming store B (its establishment in the path, the query, the body or `X-Loja`;
 *   its terminals, sales and postings by their ids): refused, and the sandbox's own request
 *   log shows no call made meanwhile.
 * - A PDV sale of store B reaches B's counter's event stream, never A's counter, kiosk or
 *   customer display.
 * - The rede's roll-up (`/api/rede/painel`) after postings in the 3 stores: each row is the
 *   store's postings as the service recorded them (its database, read directly), and the
 *   totals are the rows' sums.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, test } from 'vitest';
import type { RedePainelWire } from '../contract/api/rede';
import { signCredential } from '../server/app/domain/credential';
import { OPERATIONS } from '../server/app/domain/operations';
import { credentialCookieName } from '../server/app/http/access/terminal';
import { addIntegration, enrollDirectly, openStore, setPdvDisplay } from '../server/store';
import type { Role } from '../server/store';
import { makeChain } from '../server/testing/chain-harness';
import type { Chain } from './chain';
import { enrollCounters, post, type Posting } from './chain-load';
import { ownChain } from './chain-suite';

const STORES = [1, 3, 4];
const A = 1;
const B = 3;
const UNLIMITED = '1000000/1';

interface Credential {
  name: string;
  headers: Record<string, string>;
}
/** Store A's five ways in, store B's counter and PDV, A's rede; ids of B's objects. */
let a: Credential[] = [];
let counterB: Credential;
let pdvB: Credential;
let rede: Credential;
const bIds = { terminal: 0, kiosk: 0, sale: '', postingKey: '' };
let kioskOfA = 0;
/** Every posting this file made through the balancer (the roll-up counts them). */
const made: Posting[] = [];

function send(c: Credential, pathname: string, init: RequestInit = {}): Promise<Response> {
  const url = own.chain.url;
  return fetch(url + pathname, {
    ...init,
    headers: { origin: url, 'content-type': 'application/json', ...c.headers, ...init.headers },
    signal: init.signal ?? AbortSignal.timeout(30_000),
  });
}

const own = ownChain(
  'stores',
  {
    replicas: 2,
    stores: STORES,
    sandboxRequestLog: true,
    // The matrix sends some hundreds of requests per terminal: no limit answers 429 first.
    env: {
      RATE_LIMIT_BURST: UNLIMITED,
      RATE_LIMIT_SUSTAINED: UNLIMITED,
      RATE_LIMIT_INTEGRACAO: UNLIMITED,
    },
    timeoutMs: 240_000,
  },
  enrollEveryWayIn,
);

/** Enrolls A's five ways in, B's counter, kiosk and PDV, and A's rede; B's posting and sale. */
async function enrollEveryWayIn(chain: Chain): Promise<void> {
  const store = await openStore({ databaseUrl: chain.databaseUrl });
  const cookieName = credentialCookieName(chain.url);
  try {
    const enroll = async (role: Role, establishmentId: number, name: string) => {
      const { terminal, nonce } = await enrollDirectly(store, { name, role, establishmentId });
      const cookie = `${cookieName}=${signCredential(chain.secret, terminal.id, nonce)}`;
      return { id: terminal.id, credential: { name, headers: { cookie } } };
    };
    const caixaA = await enroll('caixa', A, 'caixa A');
    const gerenteA = await enroll('gerente', A, 'gerente A');
    const kioskA = await enroll('quiosque', A, 'quiosque A');
    const displayA = await enroll('quiosque', A, 'display A');
    expect(await setPdvDisplay(store, gerenteA.id, displayA.id)).toBe('ok');
    const pdvA = await addIntegration(store, { name: 'PDV A', counterId: caixaA.id });
    kioskOfA = kioskA.id;
    a = [
      caixaA.credential,
      gerenteA.credential,
      { name: 'PDV token A', headers: { authorization: `Bearer ${pdvA.token}` } },
      kioskA.credential,
      displayA.credential,
    ];
    const caixaB = await enroll('caixa', B, 'caixa B');
    const kioskB = await enroll('quiosque', B, 'quiosque B');
    counterB = caixaB.credential;
    bIds.terminal = caixaB.id;
    bIds.kiosk = kioskB.id;
    const pdv = await addIntegration(store, { name: 'PDV B', counterId: caixaB.id });
    pdvB = { name: 'PDV token B', headers: { authorization: `Bearer ${pdv.token}` } };
    rede = (await enroll('rede', A, 'rede')).credential;
  } finally {
    await store.close();
  }
  // B's objects for the paths: a posting of B's counter and a PDV sale waiting at it.
  const [counter] = await enrollCounters(chain, [B], 1, 1);
  const posting = await post(chain.url, {
    key: randomUUID(),
    celular: '+5511977770001',
    valor: 1234,
    terminal: counter!,
    status: 0,
    acknowledged: false,
    attempts: 0,
    ms: null,
    startedAt: 0,
  });
  expect(posting.acknowledged, `${posting.status} ${posting.message ?? ''}`).toBe(true);
  made.push(posting);
  bIds.postingKey = posting.key;
  const sale = await send(pdvB, '/api/integracao/vendas', {
    method: 'POST',
    body: JSON.stringify({ id_venda: `b-${randomUUID().slice(0, 8)}`, valor_gasto: 2590 }),
  });
  expect(sale.status).toBe(201);
  bIds.sale = ((await sale.json()) as { data: { venda: { id: string } } }).data.venda.id;
}

/** The sandbox's own request log: one JSON line per request it served. */
function sandboxRequests(): string[] {
  const text = readFileSync(path.join(own.dir, 'sandbox.log'), 'utf8');
  return text.split('\n').filter((l) => l.includes('"msg":"request"'));
}

/** Waits until the sandbox served nothing for `quietMs` (a posting's later reads included). */
async function sandboxQuiet(quietMs = 4_000, maxMs = 30_000): Promise<number> {
  const until = Date.now() + maxMs;
  let n = sandboxRequests().length;
  for (;;) {
    await new Promise((r) => setTimeout(r, quietMs));
    const m = sandboxRequests().length;
    if (m === n || Date.now() > until) return m;
    n = m;
  }
}

/** The app server's routes, from a store app's own route table (an in-process chain). */
async function appRoutes(): Promise<{ method: string; path: string }[]> {
  const store = await openStore({ sqlitePath: ':memory:' });
  const c = await makeChain(store);
  try {
    const app = (await c.chain.appOf(A))!.app;
    const out = new Map<string, { method: string; path: string }>();
    for (const r of app.routes) {
      if (!r.path.startsWith('/api/') || r.path.includes('*')) continue;
      if (r.path.startsWith('/api/v4/')) continue; // the operations, below, from their table
      const method = r.method === 'ALL' ? 'GET' : r.method;
      if (!['GET', 'POST', 'PUT', 'DELETE', 'PATCH'].includes(method)) continue;
      out.set(`${method} ${r.path}`, { method, path: r.path });
    }
    return [...out.values()];
  } finally {
    await c.stop();
    await store.close();
  }
}

/** A route's path with store B's objects as its parameters. */
function withBIds(route: string): string {
  return route.replace(/:(\w+)(\{[^}]*\})?/g, (_m, name: string) => {
    if (route.startsWith('/api/lancamentos')) return bIds.postingKey;
    if (route.startsWith('/api/integracao')) return bIds.sale;
    if (route.startsWith('/api/terminais')) return String(bIds.terminal);
    if (route.startsWith('/api/quiosque')) return bIds.sale;
    // Vigilância's alerts: store B's first one, whichever id it has.
    return name === 'id' ? '1' : String(bIds.terminal);
  });
}

interface Probe {
  what: string;
  method: string;
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  /**
   * 403 exactly (a store named); else 401, 403 or 404: another store's object by its id, with a
   * valid body (a cookie on the PDV's bearer-only routes is no credential there: 401).
   */
  exact: boolean;
}

function probes(routes: { method: string; path: string }[]): Probe[] {
  const out: Probe[] = [];
  const sample = { celular: '+5511955550001', valor_gasto: 1000, senha_atendente: '1234' };
  for (const op of OPERATIONS) {
    const at = (id: number) => `/api/v4/estabelecimentos/${id}/${op.path}`;
    const body = op.method === 'POST' ? sample : undefined;
    const base = { method: op.method, body, exact: true };
    out.push({ ...base, what: `${op.name}: B in the path`, path: at(B) });
    out.push({
      ...base,
      what: `${op.name}: B in the query`,
      path: `${at(A)}?id_estabelecimento=${B}`,
    });
    out.push({
      ...base,
      what: `${op.name}: X-Loja B`,
      path: at(A),
      headers: { 'x-loja': String(B) },
    });
    if (op.method === 'POST') {
      out.push({
        ...base,
        what: `${op.name}: B in the body`,
        path: at(A),
        body: { ...sample, id_estabelecimento: B },
      });
    }
  }
  for (const r of routes) {
    const filled = withBIds(r.path);
    const body = r.method === 'GET' ? undefined : { id_estabelecimento: B, loja: B };
    // What the routes with an id take, valid, so that the id is what decides.
    const valid = {
      cliente: { celular: '+5511955550001' },
      celular: '+5511955550001',
      nome: 'Cliente Teste',
      quiosque: kioskOfA,
      senha_atendente: '1234',
      valor_gasto: 1000,
    };
    const base = { method: r.method, body, exact: true };
    const sep = filled.includes('?') ? '&' : '?';
    out.push({ ...base, what: `${r.method} ${r.path}: ?loja=B`, path: `${filled}${sep}loja=${B}` });
    out.push({
      ...base,
      what: `${r.method} ${r.path}: X-Loja B`,
      path: filled,
      headers: { 'x-loja': String(B) },
    });
    if (filled !== r.path) {
      out.push({
        ...base,
        what: `${r.method} ${r.path}: B's ids`,
        path: filled,
        body: r.method === 'GET' ? undefined : valid,
        exact: false,
      });
    }
  }
  return out;
}

describe('3 stores on 2 replicas behind HAProxy', own.suite, () => {
  test("every route and forwarded operation naming store B, from store A's five credentials: refused, the service not called", async () => {
    const routes = await appRoutes();
    const all = probes(routes);
    const before = await sandboxQuiet();
    const answers = new Map<number, number>();
    const wrong: string[] = [];
    for (const cred of a) {
      for (const p of all) {
        const res = await send(cred, p.path, {
          method: p.method,
          headers: {
            ...(p.method === 'GET' ? {} : { 'idempotency-key': randomUUID() }),
            ...p.headers,
          },
          ...(p.body === undefined ? {} : { body: JSON.stringify(p.body) }),
        });
        const text = await res.text();
        answers.set(res.status, (answers.get(res.status) ?? 0) + 1);
        const ok = p.exact ? res.status === 403 : [401, 403, 404].includes(res.status);
        if (!ok) wrong.push(`${cred.name} ${p.what}: ${res.status} ${text.slice(0, 120)}`);
        // No answer carries store B's objects.
        if (text.includes(bIds.sale) || text.includes(bIds.postingKey)) {
          wrong.push(`${cred.name} ${p.what}: B's object in the answer`);
        }
      }
    }
    // A request still in the service's hands would show within a second or two.
    await new Promise((r) => setTimeout(r, 2_000));
    const after = sandboxRequests();
    const made = after.slice(before);
    console.log(
      `[chain stores] ${routes.length} app routes + ${OPERATIONS.length} forwarded operations → ` +
        `${all.length} requests naming store ${B} × ${a.length} credentials of store ${A} ` +
        `(${a.map((c) => c.name).join(', ')}) = ${all.length * a.length} through HAProxy\n` +
        `  answers: ${[...answers].map(([s, n]) => `${n}× ${s}`).join(', ')}\n` +
        `  the sandbox's request log: ${before} requests before, ${after.length} after ` +
        `(${made.length} during)`,
    );
    expect(wrong).toEqual([]);
    expect(made).toEqual([]);
    expect(routes.length).toBeGreaterThan(30);
  }, 300_000);

  test("a PDV sale of store B reaches B's counter, never A's counter, kiosk or customer display", async () => {
    const streams = [
      { name: 'caixa B', cred: counterB },
      ...a.filter((c) => c.name !== 'PDV token A').map((cred) => ({ name: cred.name, cred })),
    ].map(({ name, cred }) => {
      const control = new AbortController();
      let text = '';
      const done = (async () => {
        const res = await send(cred, '/api/quiosque/eventos', {
          headers: { accept: 'text/event-stream' },
          signal: control.signal,
        });
        expect(res.status, name).toBe(200);
        const reader = res.body!.getReader();
        const decoder = new TextDecoder();
        for (;;) {
          const { value, done: end } = await reader.read();
          if (end) return;
          text += decoder.decode(value, { stream: true });
        }
      })().catch(() => undefined);
      return { name, control, done, text: () => text };
    });
    // Every stream said `pronto` first (open on whichever replica the balancer chose).
    const until = Date.now() + 20_000;
    while (streams.some((s) => !s.text().includes('pronto')) && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(streams.map((s) => [s.name, s.text().includes('pronto')])).toEqual(
      streams.map((s) => [s.name, true]),
    );
    const sent = await send(pdvB, '/api/integracao/vendas', {
      method: 'POST',
      body: JSON.stringify({ id_venda: `b-${randomUUID().slice(0, 8)}`, valor_gasto: 4590 }),
    });
    expect(sent.status).toBe(201);
    const saleId = ((await sent.json()) as { data: { venda: { id: string } } }).data.venda.id;
    const seenUntil = Date.now() + 20_000;
    while (!streams[0]!.text().includes(saleId) && Date.now() < seenUntil) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const seenAfterMs = 20_000 - (seenUntil - Date.now());
    // A's streams get as long again as B's took, and 2 s more, to show it (they must not).
    await new Promise((r) => setTimeout(r, seenAfterMs + 2_000));
    for (const s of streams) s.control.abort();
    await Promise.all(streams.map((s) => s.done));
    const events = (t: string) => [...t.matchAll(/^event: (\S+)/gm)].map((m) => m[1]);
    console.log(
      `[chain stores] PDV sale ${saleId} of store ${B}: on B's counter after ${seenAfterMs} ms; ` +
        streams.map((s) => `${s.name} events [${events(s.text()).join(', ')}]`).join('; '),
    );
    expect(streams[0]!.text()).toContain(saleId);
    for (const s of streams.slice(1)) {
      expect(s.text(), s.name).not.toContain(saleId);
      expect(
        events(s.text()).filter((e) => e !== 'pronto'),
        s.name,
      ).toEqual([]);
    }
  }, 120_000);

  test("the rede's roll-up equals the sum of the stores and the service's records", async () => {
    const c = own.chain;
    const counters = await enrollCounters(c, STORES, STORES.length, 2);
    const postings: Posting[] = [];
    let n = 0;
    for (const t of counters) {
      for (let i = 0; i < 3; i++) {
        n += 1;
        postings.push(
          await post(c.url, {
            key: randomUUID(),
            celular: `+55119888${String(t.establishment).padStart(2, '0')}${String(n).padStart(3, '0')}`,
            valor: 1000 + 137 * n,
            terminal: t,
            status: 0,
            acknowledged: false,
            attempts: 0,
            ms: null,
            startedAt: 0,
          }),
        );
      }
    }
    expect(postings.filter((p) => !p.acknowledged)).toEqual([]);
    made.push(...postings);
    const day = new Date(Date.now() - 3 * 3_600_000).toISOString().slice(0, 10);
    // The service's records of those postings (its database, read directly): each found by its
    // customer, amount and establishment; its points as the service computed them.
    const fromService = () => {
      const db = new Database(c.sandbox.dbPath, { readonly: true, fileMustExist: true });
      try {
        return db
          .prepare(
            `SELECT p.estabelecimento_id AS id, c.celular AS celular, p.valor_gasto AS valor,
                    p.pontos AS pontos
               FROM pontos p JOIN clientes c ON c.id = p.cliente_id`,
          )
          .all() as { id: number; celular: string; valor: number; pontos: number }[];
      } finally {
        db.close();
      }
    };
    const compare = async () => {
      const res = await send(rede, `/api/rede/painel?de=${day}&ate=${day}`);
      expect(res.status).toBe(200);
      const painel = ((await res.json()) as { data: RedePainelWire }).data;
      const byPosting = new Map(
        fromService().map((r) => [`${r.id}/${r.celular.slice(-11)}/${r.valor}`, r]),
      );
      const rows = STORES.map((id) => {
        const row = painel.lojas.find((l) => l.id === id)!;
        const found = made
          .filter((p) => p.terminal.establishment === id)
          .map((p) => byPosting.get(`${id}/${p.celular.slice(-11)}/${p.valor}`));
        const service = {
          n: found.filter((r) => r !== undefined).length,
          valor: found.reduce((t, r) => t + (r?.valor ?? 0), 0),
          pontos: found.reduce((t, r) => t + (r?.pontos ?? 0), 0),
        };
        return { id, row, service, made: found.length };
      });
      const same = rows.every(
        (r) =>
          r.row.figuras?.lancamentos === r.service.n &&
          r.row.figuras.pontos === r.service.pontos &&
          r.row.figuras.valor === r.service.valor,
      );
      return { painel, rows, same };
    };
    // A posting's points reach the dashboard when the journal reads them back (after 3 s).
    let seen = await compare();
    const until = Date.now() + 30_000;
    while (!seen.same && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 1_000));
      seen = await compare();
    }
    const { painel, rows } = seen;
    console.log(
      `[chain stores] rede roll-up of ${day} after ${made.length} postings through the balancer: ` +
        rows
          .map(
            (r) =>
              `store ${r.id} ${r.row.figuras?.lancamentos} postings, ${r.row.figuras?.pontos} points, ` +
              `${r.row.figuras?.valor} cents (service's records: ${r.service.n} of ${r.made}, ` +
              `${r.service.pontos} points, ${r.service.valor} cents)`,
          )
          .join('; ') +
        `; totals ${painel.totais.lancamentos}, ${painel.totais.pontos}, ${painel.totais.valor}`,
    );
    for (const r of rows) {
      expect(r.row.situacao).toBe('ok');
      expect(r.service.n).toBe(r.made);
      expect(r.row.figuras).toMatchObject({
        lancamentos: r.service.n,
        pontos: r.service.pontos,
        valor: r.service.valor,
      });
    }
    const sum = (k: 'lancamentos' | 'pontos' | 'valor') =>
      rows.reduce((s, r) => s + (r.row.figuras?.[k] ?? 0), 0);
    expect(painel.totais).toMatchObject({
      lancamentos: sum('lancamentos'),
      pontos: sum('pontos'),
      valor: sum('valor'),
      lojas: STORES.length,
      lojas_indisponiveis: 0,
    });
  }, 180_000);
});
