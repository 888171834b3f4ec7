// A seeded fuzz of the app server through the real processes: the sandbox run alone, the fault
// relay in front of it (counting what reaches the service), and the app server in live mode.
// Enrolled terminals of every role (and none) send random and hostile bodies, query strings
// and headers to every forwarded operation and every route of the app server's own API.
// Nothing may answer 5xx, the server must keep answering /api/config within 1 s, and every
// posting it journaled must settle, each with a bounded number of tries.
//
// FUZZ_SEED reproduces a run (the seed is printed); FUZZ_REQUESTS sets its length.
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { expect, test } from 'vitest';
import type { RelayedApp } from '../testing/relayed-app';
import { relayedAppPerFile } from './testing/clients';

const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 3_000);
const CONCURRENCY = 4;
/** The journal's cap of tries of one kept sale (its default). */
const MAX_ATTEMPTS = 8;

/** mulberry32: a small seeded generator, so a failing run can be replayed from its seed. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(list: readonly T[]): T => list[int(list.length)]!;
  return { next, int, pick, chance: (p: number) => next() < p };
}
type Rng = ReturnType<typeof prng>;

const HOSTILE_TEXT = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff\ud800',
  '\u200b\u200b',
  '\u202e1234',
  '+５５１１９８７６５４３２１',
  '１１１１１１１１１１１',
  '11111111111',
  '+5511987654321',
  '+55 11 98765-4321',
  '(11) 98765-4321',
  '529.982.247-25',
  '52998224725',
  '00000000000',
  "'; DROP TABLE posting_journal; --",
  '<script>alert(1)</script>',
  '=HYPERLINK("http://x")',
  '__proto__',
  'constructor',
  '%00',
  '../../etc/passwd',
  '😀'.repeat(70),
  'x'.repeat(5_000),
  'Maria da Silva',
  'José D\u0027Ávila',
  '2026-02-30',
  '1900-01-01',
  'M',
  'F',
  '\r\nSet-Cookie: x=1',
];
const HOSTILE_NUMBERS = [
  0,
  -0,
  1,
  -1,
  100,
  1050,
  1.5,
  99_999_999,
  100_000_000,
  2 ** 53,
  -(2 ** 53),
  1e308,
  -1e308,
  3,
];

function hostileValue(r: Rng, depth = 0): unknown {
  switch (r.int(depth > 2 ? 4 : 7)) {
    case 0:
      return r.pick(HOSTILE_TEXT);
    case 1:
      return r.pick(HOSTILE_NUMBERS);
    case 2:
      return r.pick([true, false, null]);
    case 3:
      return String(r.int(1e12));
    case 4:
      return Array.from({ length: r.int(4) }, () => hostileValue(r, depth + 1));
    case 5:
      return Object.fromEntries(
        Array.from({ length: r.int(4) }, () => [r.pick(FIELDS), hostileValue(r, depth + 1)]),
      );
    default:
      return r.chance(0.5) ? JSON.parse('{"__proto__":{"polluted":1}}') : { a: { b: { c: [] } } };
  }
}

const FIELDS = [
  'cliente',
  'celular',
  'cpf',
  'nome',
  'email',
  'data_nascimento',
  'genero',
  'cep',
  'valor_gasto',
  'senha_atendente',
  'itens',
  'valor',
  'qtde',
  'descricao',
  'id_cliente',
  'codigo',
  'quiosque',
  '__proto__',
];

/** A valid body of each kind, before mutation. */
function validBody(r: Rng, kind: string): Record<string, unknown> {
  const phone = `+55119${String(10_000_000 + r.int(89_999_999))}`;
  switch (kind) {
    case 'pontuar': {
      const valor = 100 + r.int(100_000);
      const split = r.int(valor);
      return {
        cliente: { celular: phone, nome: 'Cliente Fuzz' },
        valor_gasto: valor,
        senha_atendente: '1234',
        ...(r.chance(0.3)
          ? {
              itens: [
                { descricao: 'Pão', qtde: 1, valor: split },
                { descricao: 'Café', qtde: 2, valor: valor - split },
              ],
            }
          : {}),
      };
    }
    case 'buscar':
      return r.pick([{ celular: phone }, { cpf: '52998224725' }, { id_cliente: 1 + r.int(50) }]);
    case 'cadastrar':
      return { celular: phone, nome: 'Cliente Fuzz', cpf: undefined };
    case 'saldo':
    case 'cadastro':
      return { celular: phone, nome: 'Cliente Fuzz' };
    case 'venda':
    case 'vendas':
      return { valor_gasto: 100 + r.int(10_000), senha_atendente: '1234', quiosque: 3 };
    case 'reenviar':
      return { senha_atendente: '1234' };
    case 'registrar':
      return { codigo: 'ABCD-EFGH-IJKL' };
    default:
      return {};
  }
}

/** The paths to every value of a body (`cliente.celular`, `itens.0.valor`…). */
function leafPaths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object') return [prefix];
  const entries = Array.isArray(value)
    ? value.map((v, i) => [i, v] as const)
    : Object.entries(value);
  const below = entries.flatMap(([k, v]) => leafPaths(v, [...prefix, k]));
  return prefix.length > 0 ? [prefix, ...below] : below;
}

/** Changes one to three values of a body (any depth): a hostile value, a removal, an extra key. */
function mutate(r: Rng, body: Record<string, unknown>): Record<string, unknown> {
  const out = structuredClone(body);
  for (let i = 0, n = 1 + r.int(3); i < n; i++) {
    const paths = leafPaths(out);
    const where = paths.length > 0 && r.chance(0.85) ? r.pick(paths) : [r.pick(FIELDS)];
    let parent = out as Record<string | number, unknown>;
    for (const step of where.slice(0, -1)) {
      const next = parent[step];
      if (next === null || typeof next !== 'object') break;
      parent = next as Record<string | number, unknown>;
    }
    const last = where[where.length - 1]!;
    if (r.chance(0.1)) delete parent[last];
    else parent[last] = hostileValue(r);
  }
  return out;
}

interface Target {
  method: string;
  path: string;
  kind: string;
}

function targets(r: Rng, known: { keys: string[]; sales: string[] }): Target[] {
  const key = known.keys.length > 0 && r.chance(0.6) ? r.pick(known.keys) : r.pick(HOSTILE_TEXT);
  const sale = known.sales.length > 0 && r.chance(0.5) ? r.pick(known.sales) : r.pick(HOSTILE_TEXT);
  const est = r.chance(0.9) ? '1' : r.pick(['2', '0', '-1', '1e3', '%2e%2e', 'abc']);
  const api = `/api/v4/estabelecimentos/${est}`;
  return [
    { method: 'POST', path: `${api}/fidelidade/pontuar`, kind: 'pontuar' },
    { method: 'POST', path: `${api}/clientes/buscar`, kind: 'buscar' },
    { method: 'POST', path: `${api}/clientes/cadastrar`, kind: 'cadastrar' },
    { method: 'GET', path: `${api}/recompensas`, kind: 'recompensas' },
    { method: 'GET', path: '/api/config', kind: 'none' },
    { method: 'POST', path: '/api/terminal/registrar', kind: 'registrar' },
    { method: 'GET', path: '/api/lancamentos', kind: 'ledger' },
    { method: 'GET', path: `/api/lancamentos/${enc(key)}`, kind: 'none' },
    { method: 'POST', path: `/api/lancamentos/${enc(key)}/reenviar`, kind: 'reenviar' },
    { method: 'POST', path: `/api/lancamentos/${enc(key)}/descartar`, kind: 'none' },
    { method: 'GET', path: '/api/contingencia', kind: 'none' },
    { method: 'POST', path: '/api/quiosque/saldo', kind: 'saldo' },
    { method: 'POST', path: '/api/quiosque/cadastro', kind: 'cadastro' },
    { method: 'GET', path: '/api/quiosque/venda', kind: 'none' },
    { method: 'POST', path: '/api/quiosque/venda', kind: 'venda' },
    { method: 'POST', path: `/api/quiosque/venda/${enc(sale)}/resgatar`, kind: 'none' },
    { method: 'POST', path: '/api/quiosque/sair', kind: 'reenviar' },
    { method: 'GET', path: '/api/quiosque/terminais', kind: 'none' },
    { method: 'POST', path: '/api/quiosque/vendas', kind: 'vendas' },
    { method: 'GET', path: `/api/quiosque/vendas/${enc(sale)}`, kind: 'none' },
    { method: 'POST', path: `/api/quiosque/vendas/${enc(sale)}/cancelar`, kind: 'none' },
    { method: 'GET', path: '/api/quiosque/eventos', kind: 'none' },
  ];
}

/** Percent-encoded; a lone surrogate becomes the bytes of one (invalid UTF-8, on purpose). */
function enc(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ED%A0%80';
  }
}

const QUERY_NAMES = [
  'id_cliente',
  'status',
  'categoria',
  'filtrar_por',
  'data_inicio',
  'data_fim',
  'q',
  'page',
  'itens_por_pagina',
  'de',
  'ate',
  'terminal',
  'esperar',
  '__proto__',
];

function hostileQuery(r: Rng): string {
  if (r.chance(0.3)) return '';
  const parts: string[] = [];
  for (let i = 0, n = 1 + r.int(5); i < n; i++) {
    const name = r.pick(QUERY_NAMES);
    const value = r.chance(0.5) ? String(r.pick(HOSTILE_NUMBERS)) : r.pick(HOSTILE_TEXT);
    parts.push(`${enc(name)}=${r.chance(0.1) ? value : enc(value)}`);
    // Repeated parameters: the first and the last must not be read by two different checks.
    if (r.chance(0.3)) parts.push(`${enc(name)}=${r.pick(['', '1', '2', 'x'])}`);
  }
  return `?${parts.join('&')}`;
}

let run: RelayedApp;

relayedAppPerFile(
  'fuzz',
  {
    // The fuzz measures answers, not the rate limits (tested on their own).
    RATE_LIMIT_BURST: '100000/10',
    RATE_LIMIT_SUSTAINED: '100000/600',
  },
  (started) => {
    run = started;
  },
);

test(`${REQUESTS} hostile requests: no 5xx, /api/config under 1 s, every posting settled with bounded tries`, async () => {
  const r = prng(SEED);
  console.log(`[fuzz] seed ${SEED} (FUZZ_SEED=${SEED} replays this run)`);
  const known = { keys: [] as string[], sales: [] as string[] };
  const seen = new Map<string, number>();
  const failures: string[] = [];
  let configSlowest = 0;
  let sent = 0;

  async function one(): Promise<void> {
    // The money path gets a third of the requests; the rest go anywhere.
    const all = targets(r, known);
    const target = r.chance(0.3) ? all[0]! : r.pick(all);
    const role = r.pick(['caixa', 'gerente', 'quiosque', 'caixa', 'none'] as const);
    const headers: Record<string, string> = {};
    if (role !== 'none') headers.cookie = run.cookies[role];
    if (r.chance(0.9)) headers.origin = run.app.url;
    else if (r.chance(0.5)) headers.origin = 'http://evil.example';
    const method = r.chance(0.05)
      ? r.pick(['PUT', 'DELETE', 'PATCH', 'GET', 'POST'])
      : target.method;
    let body: string | undefined;
    if (method !== 'GET' && method !== 'HEAD') {
      headers['content-type'] = r.chance(0.9)
        ? 'application/json'
        : r.pick(['text/plain', '', 'application/json; charset=latin1']);
      const base = validBody(r, target.kind);
      const roll = r.next();
      body =
        roll < 0.25
          ? JSON.stringify(base)
          : roll < 0.8
            ? JSON.stringify(mutate(r, base))
            : roll < 0.9
              ? JSON.stringify(hostileValue(r))
              : r.pick([
                  '',
                  '{',
                  'null',
                  '[]',
                  '"x"',
                  '{"a":' + '['.repeat(5_000),
                  'x'.repeat(300_000),
                ]);
    }
    if (target.kind === 'pontuar' || r.chance(0.05)) {
      headers['idempotency-key'] = r.chance(0.9)
        ? r.chance(0.2) && known.keys.length > 0
          ? r.pick(known.keys)
          : randomUUID()
        : r.pick(HOSTILE_TEXT.filter((t) => /^[\x20-\x7e]+$/.test(t)));
    }
    if (r.chance(0.1))
      headers['x-forwarded-for'] = r.pick(['1.2.3.4', '127.0.0.1, 10.0.0.1', 'garbage']);
    if (r.chance(0.05)) headers['x-request-id'] = 'x'.repeat(r.int(2_000));
    const url = `${run.app.url}${target.path}${target.kind === 'recompensas' || target.kind === 'ledger' || r.chance(0.1) ? hostileQuery(r) : ''}`;
    sent += 1;
    const label = `${method} ${target.path.replace(/\/api\/lancamentos\/[^/]+/, '/api/lancamentos/:key').replace(/\/vendas?\/[^/]+(\/|$)/, '/venda/:id$1')}`;
    let status: number;
    try {
      const res = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(10_000) });
      status = res.status;
      const text = target.path.endsWith('/eventos') ? '' : await res.text();
      await res.body?.cancel().catch(() => undefined);
      if (status >= 500)
        failures.push(`${status} ${label} ${body?.slice(0, 300) ?? ''} -> ${text.slice(0, 300)}`);
      if (target.kind === 'pontuar' && status < 300 && headers['idempotency-key']) {
        known.keys.push(headers['idempotency-key']);
      }
      const saleId = /"id":"([0-9a-f-]{36})"/.exec(text)?.[1];
      if (saleId) known.sales.push(saleId);
    } catch (err) {
      status = 0;
      failures.push(`no answer ${label}: ${String(err)}`);
    }
    const k = `${label} ${status}`;
    seen.set(k, (seen.get(k) ?? 0) + 1);
  }

  async function worker(): Promise<void> {
    while (sent < REQUESTS) await one();
  }
  let probing = true;
  const probe = (async () => {
    while (probing) {
      const started = performance.now();
      const res = await fetch(`${run.app.url}/api/config`, {
        headers: { cookie: run.cookies.caixa },
        signal: AbortSignal.timeout(1_000),
      }).catch((err: unknown) => {
        failures.push(`/api/config did not answer within 1 s: ${String(err)}`);
        return null;
      });
      await res?.text();
      configSlowest = Math.max(configSlowest, performance.now() - started);
      await new Promise((done) => setTimeout(done, 250));
    }
  })();
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - started) / 1000;

  // Every posting journaled settles: nothing left in flight or waiting.
  const db = new Database(run.appDb, { readonly: true, fileMustExist: true });
  const states = () =>
    db
      .prepare(
        'SELECT state, count(*) AS n, max(attempts) AS tries FROM posting_journal GROUP BY state',
      )
      .all() as { state: string; n: number; tries: number }[];
  const unsettled = ['enviando', 'verificando', 'desconhecido', 'aguardando envio'];
  const deadline = Date.now() + 30_000;
  while (states().some((s) => unsettled.includes(s.state)) && Date.now() < deadline) {
    await new Promise((done) => setTimeout(done, 250));
  }
  probing = false;
  await probe;
  const journal = states();
  db.close();

  const byStatus = new Map<number, number>();
  for (const [k, n] of seen) {
    const s = Number(k.slice(k.lastIndexOf(' ') + 1));
    byStatus.set(s, (byStatus.get(s) ?? 0) + n);
  }
  console.log(
    `[fuzz] sent ${sent} requests in ${seconds.toFixed(1)} s to ${new Set([...seen.keys()].map((k) => k.slice(0, k.lastIndexOf(' ')))).size} routes; ` +
      `statuses ${[...byStatus]
        .sort((a, b) => a[0] - b[0])
        .map(([s, n]) => `${s}:${n}`)
        .join(' ')}; ` +
      `/api/config slowest ${Math.round(configSlowest)} ms; upstream saw ${run.relay.counts.received} requests ` +
      `(${run.relay.forwarded('/fidelidade/pontuar')} pontuar); journal ${journal.map((s) => `${s.state}:${s.n} (tries ≤ ${s.tries})`).join(', ') || 'empty'}`,
  );
  for (const f of failures.slice(0, 20)) console.log(`[fuzz] ${f}`);
  if (process.env.FUZZ_VERBOSE) console.log([...seen].sort().join('\n'));
  expect(failures).toEqual([]);
  expect(configSlowest).toBeLessThan(1_000);
  expect(journal.filter((s) => unsettled.includes(s.state))).toEqual([]);
  expect(Math.max(0, ...journal.map((s) => s.tries))).toBeLessThanOrEqual(MAX_ATTEMPTS);
  // Postings did happen: the fuzz reached the service, not only the edge's refusals.
  expect(journal.find((s) => s.state === 'lançado')?.n ?? 0).toBeGreaterThan(0);
}, 300_000);
