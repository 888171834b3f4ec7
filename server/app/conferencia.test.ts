/**
 * The conferência on the real sandbox (`server/sandbox-cli.ts`, its own SQLite file) and the
 * real app server (`server/main.ts`) in live mode: postings made through the app, then matched
 * with what the sandbox holds. A clean day matches every posting; after the test deletes one
 * credit and duplicates another straight in the sandbox's database, the next run finds those
 * two and nothing else; a run interrupted by `kill -9` of the app server resumes in the next
 * process and is reported once.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Conferencia } from '#contract/api/conferencia';
import { enrollDirectly, openStore } from '../store';
import {
  APP_SECRET_FOR_TESTS,
  freshPhone,
  startAppServer,
  startSandbox,
} from '../testing/processes';
import type { RunningProcess } from '../testing/processes';
import { signCredential } from './domain/credential';
import { credentialCookieName } from './http/access/terminal';

let dir = '';
let sandbox: RunningProcess | null = null;
let app: RunningProcess | null = null;
let cookie = '';
const appDb = () => path.join(dir, 'app.db');
const sandboxDb = () => path.join(dir, 'sandbox.db');
const ENV = { RATE_LIMIT_BURST: '1000/10', RATE_LIMIT_SUSTAINED: '10000/600' };
/** Today in São Paulo (the sandbox's and the store's time zone). */
const today = () => new Date(Date.now() - 3 * 3_600_000).toISOString().slice(0, 10);

/** Customers of the first part: A and B with one sale each, C with two, D with one. */
const phones = { a: freshPhone(), b: freshPhone(), c: freshPhone(), d: freshPhone() };

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'conferencia-'));
  sandbox = await startSandbox(sandboxDb());
  const store = await openStore({ sqlitePath: appDb() });
  const { terminal, nonce } = await enrollDirectly(store, { name: 'Gerência', role: 'gerente' });
  await store.close();
  const credential = signCredential(APP_SECRET_FOR_TESTS, terminal.id, nonce);
  app = await startAppServer(sandbox.url, { APP_DB: appDb(), ...ENV });
  cookie = `${credentialCookieName(app.url)}=${credential}`;
}, 60_000);

afterAll(async () => {
  await app?.stop();
  await sandbox?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 30_000);

const headers = (server: RunningProcess) => ({
  cookie: cookie.replace(/^[^=]+/, credentialCookieName(server.url)),
  origin: server.url,
  'content-type': 'application/json',
});

/** A counter's posting, and its refresh of the customer after the answer (which tells its points). */
async function post(server: RunningProcess, celular: string, valor: number): Promise<void> {
  const res = await fetch(`${server.url}/api/v4/estabelecimentos/1/fidelidade/pontuar`, {
    method: 'POST',
    headers: { ...headers(server), 'idempotency-key': randomUUID() },
    body: JSON.stringify({ cliente: { celular }, valor_gasto: valor, senha_atendente: '1234' }),
  });
  expect(res.status, await res.text()).toBe(200);
  const refresh = await fetch(`${server.url}/api/v4/estabelecimentos/1/clientes/buscar`, {
    method: 'POST',
    headers: headers(server),
    body: JSON.stringify({ celular }),
  });
  expect(refresh.status).toBe(200);
}

/** Waits until the journal holds `n` postings settled as lançado, their points known. */
async function settled(n: number): Promise<void> {
  const db = new Database(appDb(), { readonly: true });
  try {
    const end = Date.now() + 20_000;
    const count = () =>
      (
        db
          .prepare(
            "select count(*) as n from posting_journal where state = 'lançado' and points is not null",
          )
          .get() as { n: number }
      ).n;
    while (count() < n) {
      if (Date.now() > end) throw new Error(`only ${count()} of ${n} postings settled`);
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    db.close();
  }
}

async function conferencia(
  server: RunningProcess,
  method: 'GET' | 'POST',
): Promise<{ status: number; data: Conferencia }> {
  const res = await fetch(`${server.url}/api/painel/conferencia?dia=${today()}`, {
    method,
    headers: headers(server),
    body: method === 'POST' ? '{}' : undefined,
  });
  const body = (await res.json()) as { data: Conferencia };
  return { status: res.status, data: body.data };
}

async function until(
  server: RunningProcess,
  done: (c: NonNullable<Conferencia>) => boolean,
  ms = 60_000,
): Promise<NonNullable<Conferencia>> {
  const end = Date.now() + ms;
  for (;;) {
    const { data } = await conferencia(server, 'GET');
    if (data !== null && done(data)) return data;
    if (Date.now() > end) throw new Error(`conferência not there: ${JSON.stringify(data)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const finished = (c: NonNullable<Conferencia>) => c.situacao === 'concluída';
const kinds = (c: NonNullable<Conferencia>) =>
  c.achados.map((a) => `${a.tipo} ${a.celular}`).sort();

describe('the conferência against the real sandbox', () => {
  test('a clean day: every posting matched, nothing found', async () => {
    await post(app!, phones.a, 1000);
    await post(app!, phones.b, 2500);
    await post(app!, phones.c, 1200);
    await post(app!, phones.c, 3400);
    await post(app!, phones.d, 990);
    await settled(5);
    const started = await conferencia(app!, 'POST');
    expect(started.status).toBe(202);
    const c = await until(app!, finished);
    console.log(
      `clean day: ${c.lancamentos} postings of ${c.clientes} customers, ${c.leituras} reads, ` +
        `${c.confirmados} confirmed, ${c.achados.length} findings`,
    );
    expect(c).toMatchObject({
      lancamentos: 5,
      clientes: 4,
      confirmados: 5,
      precisa_atencao: false,
    });
    expect(c.achados).toEqual([]);
  }, 60_000);

  test('a credit deleted and another duplicated in the sandbox: exactly those two', async () => {
    const db = new Database(sandboxDb());
    try {
      const id = (celular: string) =>
        (db.prepare('select id from clientes where celular = ?').get(celular) as { id: number }).id;
      db.prepare('delete from cartela where cliente_id = ?').run(id(phones.a));
      // The duplicate: a second point record and credit, the same points at the same moment.
      db.transaction(() => {
        const p = db
          .prepare('select * from pontos where cliente_id = ? order by id limit 1')
          .get(id(phones.b)) as Record<string, unknown>;
        const { lastInsertRowid } = db
          .prepare(
            'insert into pontos (estabelecimento_id, cliente_id, valor_gasto, pontos, itens_json, criado_em_ms) values (?, ?, ?, ?, ?, ?)',
          )
          .run(
            p.estabelecimento_id,
            p.cliente_id,
            p.valor_gasto,
            p.pontos,
            p.itens_json,
            p.criado_em_ms,
          );
        db.prepare(
          `insert into cartela (cliente_id, ponto_id, tipo, pontos, data_ms, matura_ms, data_validade, expira_ms)
           select cliente_id, ?, tipo, pontos, data_ms, matura_ms, data_validade, expira_ms
           from cartela where ponto_id = ?`,
        ).run(lastInsertRowid, p.id);
      })();
    } finally {
      db.close();
    }
    const started = await conferencia(app!, 'POST');
    expect(started.status).toBe(202);
    const c = await until(app!, (x) => finished(x) && x.id === started.data!.id);
    console.log(`after the edit: ${c.confirmados} confirmed; findings ${JSON.stringify(c.resumo)}`);
    expect(kinds(c)).toEqual([`ausente ${phones.a}`, `duplicado ${phones.b}`].sort());
    expect(c).toMatchObject({ confirmados: 4, precisa_atencao: true });
    const duplicate = c.achados.find((a) => a.tipo === 'duplicado')!;
    expect(duplicate.lancamento?.pontos).toBe(25);
    expect(duplicate.servico?.pontos).toBe(25);
    const absent = c.achados.find((a) => a.tipo === 'ausente')!;
    expect(absent.servico).toBeNull();
    expect(absent.lancamento?.valor_gasto).toBe(1000);

    const metrics = await (await fetch(`${app!.url}/metrics`)).text();
    expect(metrics).toMatch(/pdv_reconciliation_findings\{kind="ausente"\} 1/);
    expect(metrics).toMatch(/pdv_reconciliation_findings\{kind="duplicado"\} 1/);
    expect(metrics).toMatch(/pdv_reconciliation_attention 1/);
    const painel = await fetch(`${app!.url}/api/painel?de=${today()}&ate=${today()}&fuso=-180`, {
      headers: headers(app!),
    });
    const p = (await painel.json()) as { data: { conferencias: unknown[] } };
    expect(p.data.conferencias).toEqual([{ dia: today(), achados: 2, precisa_atencao: true }]);
  }, 60_000);

  test('a run interrupted by kill -9 resumes in the next process and reports once', async () => {
    await app!.stop();
    const slow = { APP_DB: appDb(), ...ENV, CONFERENCIA_LEITURAS_POR_SEGUNDO: '2' };
    const first = await startAppServer(sandbox!.url, slow);
    app = first;
    const more = Array.from({ length: 10 }, () => freshPhone());
    for (const phone of more) await post(first, phone, 500);
    await settled(15);
    const started = await conferencia(first, 'POST');
    const id = started.data!.id;
    const before = await until(first, (c) => c.id === id && c.clientes_lidos >= 3, 30_000);
    await first.kill9();
    const second = await startAppServer(sandbox!.url, slow);
    app = second;
    const c = await until(second, (x) => x.id === id && finished(x), 90_000);
    const reported = (out: string) =>
      out
        .split('\n')
        .filter((l) => l.includes('conferência concluída') && l.includes(`"conferencia":${id},`))
        .length;
    const resumed = second
      .output()
      .split('\n')
      .filter((l) => l.includes('conferência retomada'));
    console.log(
      `kill -9 after ${before.clientes_lidos} of ${before.clientes} customers; resumed in the ` +
        `next process; ${c.leituras} reads for ${c.clientes} customers; reported ` +
        `${reported(first.output())} + ${reported(second.output())} times; findings ${kinds(c).join(', ')}`,
    );
    expect(resumed).toHaveLength(1);
    const from = (JSON.parse(resumed[0]!) as { lidos: number }).lidos;
    expect(from).toBeGreaterThanOrEqual(before.clientes_lidos);
    expect(reported(first.output()) + reported(second.output())).toBe(1);
    expect(c.clientes_lidos).toBe(c.clientes);
    expect(c.clientes).toBe(14);
    // Resumed, not started over: at most the read in flight at the kill is made again.
    expect(c.leituras).toBeLessThanOrEqual(c.clientes + 1);
    expect(kinds(c)).toEqual([`ausente ${phones.a}`, `duplicado ${phones.b}`].sort());
  }, 150_000);
});
