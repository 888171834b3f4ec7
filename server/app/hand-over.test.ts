// A won reward handed over at the counter, through the real processes: the sandbox
// run alone, the fault relay in front of it, and the app server (server/main.ts, live mode).
// Seed facts (sandbox/resgatar-premio.test.ts): João (2) has two "Vale-compras de R$ 10,00"
// (id_premio 1) pending; Maria (1) has a "Chaveiro da Loja Demo" (3) pending and a
// "Refrigerante lata grátis" (2) expired.
import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { freshPhone, startAppServer, type RunningProcess } from '../testing/processes';
import { startRelayedApp, type RelayedApp } from '../testing/relayed-app';

const PATH = '/fidelidade/resgatar-premio';
const VALE = 1;
const REFRIGERANTE = 2;
const CHAVEIRO = 3;
const MARIA = 1;
const JOAO = 2;

const ENV = { CONTINGENCY_FAILURES: '100', JOURNAL_QUIET_MS: '300', JOURNAL_LEASE_MS: '1000' };
let run: RelayedApp;
/** The app server started again after a kill -9 (stopped at the end). */
let restarted: RunningProcess | null = null;
/** Hand-overs confirmed to the cashier, and what the sandbox's records say of them. */
const tally = { confirmed: 0, duplicated: 0, lost: 0 };
/** Counts one hand-over confirmed to the cashier against the records it added (`added`). */
function count(added: number): void {
  tally.confirmed += 1;
  if (added > 1) tally.duplicated += added - 1;
  if (added < 1) tally.lost += 1;
}

beforeAll(async () => {
  run = await startRelayedApp('hand-over', {
    CONTINGENCY_FAILURES: '100',
    JOURNAL_QUIET_MS: '300',
  });
}, 60_000);

afterAll(async () => {
  await restarted?.stop();
  await run?.stop();
});

interface Answer {
  status: number;
  json: {
    success: boolean;
    message: string;
    data: Record<string, unknown>;
    errors?: Record<string, string[]>;
  };
}

/** The app server's URL (the one started again after a kill -9, once there is one). */
const appUrl = () => (restarted ?? run.app).url;
/** A terminal's cookie for the app server now running (its name carries the port). */
const cookieOf = (role: 'caixa' | 'gerente' | 'quiosque') =>
  run.cookies[role].replace(/^pdv_terminal_\d+=/, `pdv_terminal_${new URL(appUrl()).port}=`);

async function handOver(
  idPremio: number,
  idCliente: number,
  options: { role?: 'caixa' | 'gerente' | 'quiosque'; key?: string; senha?: string } = {},
): Promise<Answer> {
  const res = await fetch(`${appUrl()}/api/v4/estabelecimentos/1${PATH}`, {
    method: 'POST',
    headers: {
      cookie: cookieOf(options.role ?? 'caixa'),
      origin: appUrl(),
      'content-type': 'application/json',
      'idempotency-key': options.key ?? randomUUID(),
    },
    body: JSON.stringify({
      id_premio: idPremio,
      id_cliente: idCliente,
      senha_atendente: options.senha ?? '1234',
    }),
  });
  return { status: res.status, json: (await res.json()) as Answer['json'] };
}

/** The sandbox's own records of a customer's reward, by status (read from its database). */
function records(idCliente: number, idPremio: number, status: string): number {
  const db = new Database(run.sandboxDb, { readonly: true, fileMustExist: true });
  try {
    const row = db
      .prepare(
        'select count(*) as n from premios_cliente where cliente_id = ? and premio_id = ? and status = ?',
      )
      .get(idCliente, idPremio, status) as { n: number };
    return row.n;
  } finally {
    db.close();
  }
}

/** Follows a 202 until the hand-over is settled (as the browser does). */
async function settled(key: string, role: 'caixa' | 'gerente' = 'caixa') {
  for (let i = 0; i < 10; i++) {
    const res = await fetch(`${appUrl()}/api/lancamentos/${key}?esperar=8`, {
      headers: { cookie: cookieOf(role) },
    });
    if (res.status !== 200) continue;
    const body = (await res.json()) as { data: Record<string, unknown> };
    if (body.data.estado !== 'enviando' && body.data.estado !== 'verificando') return body.data;
  }
  throw new Error('never settled');
}

const forwarded = () => run.relay.forwarded(PATH);

test('a caixa hands over a pending reward: the service answers, one record is resgatado', async () => {
  const before = { sent: forwarded(), done: records(MARIA, CHAVEIRO, 'resgatado') };
  const key = randomUUID();
  const res = await handOver(CHAVEIRO, MARIA, { key });
  expect(res.status).toBe(200);
  expect(res.json.message).toBe('Prêmio resgatado com sucesso.');
  expect(res.json.data).toMatchObject({ id_cliente: MARIA, id_premio_cliente: expect.any(Number) });
  // The same key again (another shift's password): the same hand-over, not a second one.
  const again = await handOver(CHAVEIRO, MARIA, { key, senha: '9999' });
  expect(again.status).toBe(200);
  expect(again.json.data).toEqual(res.json.data);
  // The same key for another body: refused.
  const reused = await handOver(VALE, JOAO, { key });
  expect(reused.status).toBe(422);
  count(records(MARIA, CHAVEIRO, 'resgatado') - before.done);
  expect(forwarded() - before.sent).toBe(1);
  expect(records(MARIA, CHAVEIRO, 'resgatado') - before.done).toBe(1);
  // The ledger lists it as a reward handed over.
  const ledger = (await (
    await fetch(
      `${run.app.url}/api/lancamentos?de=${new Date(Date.now() - 3_600_000).toISOString()}&ate=${new Date(Date.now() + 60_000).toISOString()}`,
      { headers: { cookie: cookieOf('caixa') } },
    )
  ).json()) as { data: { lancamentos: Record<string, unknown>[] } };
  const entry = ledger.data.lancamentos.find((l) => l.chave === key);
  expect(entry).toMatchObject({
    tipo: 'premio',
    estado: 'lançado',
    valor_gasto: 0,
    pontos: null,
    nome: expect.any(String),
    premio: { id_premio: CHAVEIRO, id_premio_cliente: res.json.data.id_premio_cliente },
  });
}, 30_000);

test('a lost answer is settled as handed over by reading the rewards, never by resending', async () => {
  const before = { sent: forwarded(), done: records(JOAO, VALE, 'resgatado') };
  const rule = run.relay.add({ match: PATH, fault: { kind: 'lose-answer' } });
  const key = randomUUID();
  const res = await handOver(VALE, JOAO, { key });
  expect([200, 202]).toContain(res.status);
  const final = res.status === 202 ? await settled(key) : res.json.data;
  expect(final).toMatchObject({ estado: 'lançado', conferido: true, tipo: 'premio' });
  expect((final.premio as { id_premio_cliente: number }).id_premio_cliente).toEqual(
    expect.any(Number),
  );
  expect(rule.reset).toBe(1);
  count(records(JOAO, VALE, 'resgatado') - before.done);
  expect(forwarded() - before.sent).toBe(1);
  expect(records(JOAO, VALE, 'resgatado') - before.done).toBe(1);
}, 40_000);

test('two terminals hand over the same reward at once: one succeeds, the other is told', async () => {
  // João's last Vale.
  expect(records(JOAO, VALE, 'pendente_resgate')).toBe(1);
  const before = records(JOAO, VALE, 'resgatado');
  const [a, b] = await Promise.all([
    handOver(VALE, JOAO, { role: 'caixa' }),
    handOver(VALE, JOAO, { role: 'gerente' }),
  ]);
  const statuses = [a.status, b.status].sort();
  expect(statuses).toEqual([200, 422]);
  const refused = a.status === 422 ? a : b;
  expect(refused.json.message).toBe('Este prêmio já foi entregue.');
  expect(refused.json.errors?.id_premio).toEqual(['Este prêmio já foi entregue.']);
  count(records(JOAO, VALE, 'resgatado') - before);
  expect(records(JOAO, VALE, 'resgatado') - before).toBe(1);
  expect(records(JOAO, VALE, 'pendente_resgate')).toBe(0);
}, 40_000);

test("an expired reward is refused with the service's message; a kiosk may not hand over", async () => {
  const res = await handOver(REFRIGERANTE, MARIA);
  expect(res.status).toBe(422);
  expect(res.json.message).toBe('O cliente não tem este prêmio para resgatar');
  const kiosk = await handOver(CHAVEIRO, MARIA, { role: 'quiosque' });
  expect(kiosk.status).toBe(403);
  const wrong = await handOver(VALE, JOAO, { senha: '0000' });
  expect(wrong.status).toBe(422);
  expect(wrong.json.errors?.senha_atendente).toBeDefined();
}, 30_000);

/** A new customer who just won a Vale (a purchase of R$ 100,00 straight at the sandbox). */
async function customerWithAVale(): Promise<number> {
  const res = await fetch(`${run.sandbox.url}/api/v4/estabelecimentos/1/fidelidade/pontuar`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      'app-token': 'demo-app-token',
      'access-token': 'demo-access-token-1',
    },
    body: JSON.stringify({
      cliente: { celular: freshPhone(), nome: 'Cliente do Vale' },
      valor_gasto: 10_000,
      senha_atendente: '1234',
    }),
  });
  expect(res.status).toBe(200);
  const id = ((await res.json()) as { data: { id_cliente: number } }).data.id_cliente;
  expect(records(id, VALE, 'pendente_resgate')).toBe(1);
  return id;
}

test('kill -9 while the service works on it: the restarted server settles it, sent once', async () => {
  const customer = await customerWithAVale();
  const sent = forwarded();
  const rule = run.relay.add({ match: PATH, fault: { kind: 'delay', ms: 1_500 } });
  const key = randomUUID();
  const pending = handOver(VALE, customer, { key }).catch(() => null);
  while (rule.received === 0) await new Promise((r) => setTimeout(r, 20));
  await run.app.kill9();
  await pending;
  // The service commits after the kill; the server started again over the same store sweeps
  // the dead process's entry (its lease run out) and decides it from the records.
  while (rule.inFlight > 0) await new Promise((r) => setTimeout(r, 50));
  restarted = await startAppServer(run.relay.url, { APP_DB: run.appDb, ...ENV });
  const final = await settled(key);
  expect(final).toMatchObject({ estado: 'lançado', conferido: true, tipo: 'premio' });
  count(records(customer, VALE, 'resgatado'));
  expect(forwarded() - sent).toBe(1);
  expect(records(customer, VALE, 'resgatado')).toBe(1);
}, 60_000);

test('while the service is unreachable a hand-over is refused (503), nothing kept', async () => {
  const sent = forwarded();
  run.relay.setDown(true);
  try {
    const res = await handOver(VALE, JOAO);
    expect(res.status).toBe(503);
    expect(res.json.message).toMatch(/indisponível/);
  } finally {
    run.relay.setDown(false);
  }
  expect(forwarded()).toBe(sent);
  const contingency = (await (
    await fetch(`${appUrl()}/api/contingencia`, { headers: { cookie: cookieOf('caixa') } })
  ).json()) as { data: { aguardando: number } };
  expect(contingency.data.aguardando).toBe(0);
}, 30_000);

test('a live service without the operation: said once, and entregaPremios becomes false', async () => {
  const config = async () =>
    (
      (await (
        await fetch(`${appUrl()}/api/config`, { headers: { cookie: cookieOf('caixa') } })
      ).json()) as { data: { entregaPremios?: boolean } }
    ).data.entregaPremios;
  expect(await config()).toBe(true);
  run.relay.add({
    match: PATH,
    fault: { kind: 'refuse', status: 405, body: { message: 'Method Not Allowed' } },
  });
  const res = await handOver(CHAVEIRO, MARIA);
  expect(res.status).toBe(405);
  expect(res.json.data).toEqual({ entrega_indisponivel: true });
  expect(await config()).toBe(false);
  const sent = run.relay.counts.received;
  const after = await handOver(CHAVEIRO, MARIA);
  expect(after.status).toBe(405);
  expect(after.json.data).toEqual({ entrega_indisponivel: true });
  expect(run.relay.counts.received).toBe(sent);
  console.log(
    `[hand-over] pending, lost answer, two terminals at once, kill -9: confirmed=${tally.confirmed} ` +
      `duplicated=${tally.duplicated} lost=${tally.lost}`,
  );
}, 30_000);
