// Contingency through the real processes: the sandbox run alone, the fault relay in front of
// it (an outage = every request reset), and the app server (server/main.ts, live mode) pointed
// at the relay. Sales are confirmed while the service is down (each answered at once as
// `aguardando envio`), then delivered when it returns. What the service holds is read from the
// sandbox's own database: every case prints confirmed, delivered, duplicated and lost.
//
// CONTINGENCY_CHAOS_OUTAGE_MS sets the long outage (default 120 000 = two minutes; CI may
// shorten it); the other cases use short outages.
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { expect, test } from '@playwright/test';
import { freshPhone } from '../server/testing/processes';
import type { RelayCounts } from '../server/testing/relay';
import { ownRelayedApp } from './support/own-server';

const OUTAGE_MS = Number(process.env.CONTINGENCY_CHAOS_OUTAGE_MS ?? 120_000);
const SALES = 200;
const PER_CUSTOMER = 5;

const ENV = {
  CONTINGENCY_FAILURES: '3',
  CONTINGENCY_PROBE_MS: '500',
  CONTINGENCY_MAX_WAITING: '1000',
  JOURNAL_LEASE_MS: '3000',
  JOURNAL_QUIET_MS: '1000',
  JOURNAL_UNKNOWN_HORIZON_MS: '4000',
  JOURNAL_RECHECK_MS: '500',
  RATE_LIMIT_BURST: '100000/10',
  RATE_LIMIT_SUSTAINED: '100000/600',
};

let caixa: string;
let gerente: string;

const own = ownRelayedApp('contingency', ENV);

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  caixa = await own.credential('caixa', 'Caixa 1');
  gerente = await own.credential('gerente', 'Gerência');
});

function headers(credential: string, post = false): Record<string, string> {
  const cookie = `pdv_terminal_${new URL(own.app.url).port}=${credential}`;
  return post ? { cookie, origin: own.app.url, 'content-type': 'application/json' } : { cookie };
}

type Sale = { key: string; celular: string; valor: number };

/** The cashier confirms a sale: true when the server kept it (`aguardando envio`). */
async function confirm(sale: Sale, senha = '1234'): Promise<boolean> {
  const res = await fetch(`${own.app.url}/api/v4/estabelecimentos/1/fidelidade/pontuar`, {
    method: 'POST',
    headers: { ...headers(caixa, true), 'idempotency-key': sale.key },
    body: JSON.stringify({
      valor_gasto: sale.valor,
      senha_atendente: senha,
      cliente: { celular: sale.celular },
    }),
  });
  const body = (await res.json()) as { data?: { estado?: string } };
  return res.status === 202 && body.data?.estado === 'aguardando envio';
}

async function status(): Promise<{ contingencia: boolean; aguardando: number; atencao: number }> {
  const res = await fetch(`${own.app.url}/api/contingencia`, { headers: headers(caixa) });
  return ((await res.json()) as { data: never }).data;
}

async function estado(
  key: string,
  credential = caixa,
): Promise<{ estado: string; motivo: string; conferido: boolean }> {
  const res = await fetch(`${own.app.url}/api/lancamentos/${key}`, {
    headers: headers(credential),
  });
  return ((await res.json()) as { data: never }).data;
}

/** Postings the sandbox holds for these phones: amounts in the order it recorded them. */
function delivered(phones: string[]): Map<string, number[]> {
  const db = new Database(own.sandboxDb, { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare(
        `select c.celular as celular, p.valor_gasto as valor from pontos p
         join clientes c on c.id = p.cliente_id
         where c.estabelecimento_id = 1 and c.celular in (${phones.map(() => '?').join(',')})
         order by p.id`,
      )
      .all(...phones) as { celular: string; valor: number }[];
    const out = new Map<string, number[]>(phones.map((p) => [p, []]));
    for (const r of rows) out.get(r.celular)?.push(r.valor);
    return out;
  } finally {
    db.close();
  }
}

/** Counts against what was confirmed; prints the figures; `inOrder` per customer. */
function report(name: string, sales: Sale[], confirmed: number) {
  const phones = [...new Set(sales.map((s) => s.celular))];
  const held = delivered(phones);
  let total = 0;
  let duplicated = 0;
  let lost = 0;
  let inOrder = 0;
  for (const phone of phones) {
    const got = held.get(phone) ?? [];
    const expected = sales.filter((s) => s.celular === phone).map((s) => s.valor);
    total += got.length;
    for (const v of new Set(expected)) {
      const n = got.filter((g) => g === v).length;
      if (n === 0) lost += 1;
      if (n > 1) duplicated += n - 1;
    }
    if (JSON.stringify(got) === JSON.stringify(expected)) inOrder += 1;
  }
  console.log(
    `[contingency] ${name}: confirmed=${confirmed} delivered=${total} duplicated=${duplicated} lost=${lost} (in order for ${inOrder}/${phones.length} customers)`,
  );
  return { delivered: total, duplicated, lost, inOrder, customers: phones.length };
}

/** Every one of the SALES confirmed, delivered once, in order for each customer (printed). */
function expectEachOnceInOrder(name: string, sales: Sale[], confirmed: number) {
  const r = report(name, sales, confirmed);
  expect(confirmed).toBe(SALES);
  expect(r).toEqual({
    delivered: SALES,
    duplicated: 0,
    lost: 0,
    inOrder: r.customers,
    customers: SALES / PER_CUSTOMER,
  });
}

/** 200 sales, 5 per customer, interleaved; a customer's k-th sale is R$ 10,0k. */
function salesPlan(): Sale[] {
  const phones = Array.from({ length: SALES / PER_CUSTOMER }, () => freshPhone());
  const sales: Sale[] = [];
  for (let k = 0; k < PER_CUSTOMER; k++) {
    for (const celular of phones) sales.push({ key: randomUUID(), celular, valor: 1000 + k });
  }
  return sales;
}

async function drained(timeoutMs: number) {
  await expect
    .poll(async () => (await status()).aguardando, { timeout: timeoutMs, intervals: [500] })
    .toBe(0);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

interface Kill {
  /** Postings the service held when the kill came. */
  delivered: number;
  /** Pontuar requests the relay held or had forwarded, unanswered, at the signal. */
  onTheWire: number;
  /** Keys the dead server's journal holds as sent and not settled (enviando, sent_at set). */
  sending: string[];
  /** How many of those ended `lançado` by a reading of the service (filled in later). */
  conferidos: number;
}

/**
 * `kill -9` of the app server while a posting is on the wire: waits until the relay holds one
 * without an answer, then reads that count and sends the signal in the same tick (nothing can
 * answer in between). Reads the dead server's journal before anything restarts it.
 */
async function killMidDelivery(rule: RelayCounts, deliveredSoFar: number): Promise<Kill> {
  const deadline = Date.now() + 10_000;
  while (rule.inFlight === 0 && Date.now() < deadline) await sleep(2);
  const onTheWire = rule.inFlight;
  await own.app.kill9();
  const db = new Database(own.appDb, { fileMustExist: true });
  try {
    const rows = db
      .prepare(`select key from posting_journal where state = 'enviando' and sent_at is not null`)
      .all() as { key: string }[];
    return { delivered: deliveredSoFar, onTheWire, sending: rows.map((r) => r.key), conferidos: 0 };
  } finally {
    db.close();
  }
}

test(`the service down for ${OUTAGE_MS / 1000} s while ${SALES} sales are confirmed: each delivered exactly once, in order per customer`, async () => {
  test.setTimeout(OUTAGE_MS + 180_000);
  const sales = salesPlan();
  own.relay.setDown(true);
  const started = Date.now();
  const spacing = (OUTAGE_MS * 0.85) / SALES;
  let confirmed = 0;
  for (const [i, sale] of sales.entries()) {
    await sleep(started + i * spacing - Date.now());
    if (await confirm(sale)) confirmed += 1;
  }
  const during = await status();
  expect(during).toMatchObject({ contingencia: true, aguardando: SALES });
  await sleep(started + OUTAGE_MS - Date.now());
  own.relay.setDown(false);
  const back = Date.now();
  await drained(120_000);
  console.log(
    `[contingency] outage ${((back - started) / 1000).toFixed(0)} s; ${SALES} kept sales delivered ${((Date.now() - back) / 1000).toFixed(1)} s after the service returned`,
  );
  expectEachOnceInOrder(`outage of ${OUTAGE_MS / 1000} s`, sales, confirmed);
  for (const sale of sales.slice(0, 10)) expect((await estado(sale.key)).estado).toBe('lançado');
  expect(await status()).toMatchObject({ contingencia: false, aguardando: 0, atencao: 0 });
});

test(`the app server killed (kill -9) twice while delivering ${SALES} kept sales: each delivered exactly once, in order per customer`, async () => {
  test.setTimeout(240_000);
  const sales = salesPlan();
  const phones = [...new Set(sales.map((s) => s.celular))];
  own.relay.setDown(true);
  let confirmed = 0;
  for (const sale of sales) if (await confirm(sale)) confirmed += 1;
  // Each delivery takes a while, so the kills land in the middle of it.
  const rule = own.relay.add({
    match: '/fidelidade/pontuar',
    fault: { kind: 'delay', ms: 150 },
    times: 10_000,
  });
  own.relay.setDown(false);
  const count = () => [...delivered(phones).values()].reduce((n, v) => n + v.length, 0);
  const kills: Kill[] = [];
  for (const at of [30, 110]) {
    await expect.poll(count, { timeout: 60_000, intervals: [100] }).toBeGreaterThanOrEqual(at);
    kills.push(await killMidDelivery(rule, count()));
    await own.restartApp();
  }
  await drained(180_000);
  // What became of the postings the kills cut off: settled by reading the service back (the
  // restarted server did not send them again, or the service would hold a duplicate).
  for (const kill of kills) {
    for (const key of kill.sending) if ((await estado(key)).conferido) kill.conferidos += 1;
  }
  for (const [i, k] of kills.entries()) {
    console.log(
      `[contingency] kill -9 #${i + 1} after ${k.delivered} deliveries: ${k.onTheWire} pontuar on the wire unanswered (relay), ${k.sending.length} entries enviando with sent_at (journal), ${k.conferidos} of them settled by reading back`,
    );
  }
  expectEachOnceInOrder('kill -9 twice during delivery', sales, confirmed);
  // Each kill hit a delivery in flight: a posting the relay held or had forwarded, with no
  // answer yet, at the instant of the signal; the journal the dead server left holds it as
  // sent (enviando, sent_at set); the restart settled it by reading, not by sending again.
  for (const [i, k] of kills.entries()) {
    expect(k.onTheWire, `kill #${i + 1}: pontuar in flight at the kill`).toBeGreaterThanOrEqual(1);
    expect(k.sending.length, `kill #${i + 1}: entries left enviando`).toBeGreaterThanOrEqual(1);
    expect(k.conferidos, `kill #${i + 1}: settled by reading back`).toBeGreaterThanOrEqual(1);
  }
});

test('a kept sale with a wrong attendant password ends in "precisa de atenção"; a manager resends it: delivered once, nothing lost', async () => {
  test.setTimeout(90_000);
  const wrong: Sale = { key: randomUUID(), celular: freshPhone(), valor: 4321 };
  own.relay.setDown(true);
  expect(await confirm(wrong, '9999')).toBe(true);
  await expect.poll(async () => (await status()).contingencia, { timeout: 10_000 }).toBe(true);
  own.relay.setDown(false);
  await expect
    .poll(async () => (await estado(wrong.key)).estado, { timeout: 30_000 })
    .toBe('precisa de atenção');
  const attention = await estado(wrong.key);
  expect(attention.motivo).toMatch(/senha/i);
  expect((await status()).atencao).toBeGreaterThanOrEqual(1);
  expect(delivered([wrong.celular]).get(wrong.celular)).toEqual([]);
  // A cashier may not decide; the manager resends with the right password.
  const url = `${own.app.url}/api/lancamentos/${wrong.key}/reenviar`;
  const body = JSON.stringify({ senha_atendente: '1234' });
  expect((await fetch(url, { method: 'POST', headers: headers(caixa, true), body })).status).toBe(
    403,
  );
  expect((await fetch(url, { method: 'POST', headers: headers(gerente, true), body })).status).toBe(
    200,
  );
  await expect
    .poll(async () => (await estado(wrong.key)).estado, { timeout: 30_000 })
    .toBe('lançado');
  const r = report('wrong password, then resent by a manager', [wrong], 1);
  expect(r).toMatchObject({ delivered: 1, duplicated: 0, lost: 0 });
});
