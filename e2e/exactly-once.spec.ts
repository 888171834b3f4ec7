// Exactly once, through the real processes: the sandbox run alone, the fault relay in front of
// it, and the app server (server/main.ts, live mode, postings journal on) pointed at the relay.
// Every case counts what the client was told (confirmed), what the service holds (delivered),
// and prints duplicated / lost.
import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { freshPhone, sandboxPurchases } from '../server/testing/processes';
import { ownRelayedApp } from './support/own-server';

const JOURNAL_ENV = {
  JOURNAL_QUIET_MS: '2000',
  JOURNAL_UNKNOWN_HORIZON_MS: '30000',
  JOURNAL_RECHECK_MS: '1000',
  JOURNAL_LEASE_MS: '3000',
  // 25 cashiers' worth of sales at once from one terminal: past the default per-terminal rate.
  RATE_LIMIT_BURST: '100000/10',
  RATE_LIMIT_SUSTAINED: '100000/600',
  // These cases test the journal's own verdicts: lost answers must not open the contingency
  // circuit (contingency.spec.ts tests that).
  CONTINGENCY_FAILURES: '1000000',
};

/**
 * Enrolled caixa terminals (their credentials, the cookie's value), one per sale in flight:
 * a terminal posts one sale at a time (a posting still waiting for its verdict counts against
 * the attendant-password lockout until the verdict comes).
 */
const idle: string[] = [];
/** A gerente terminal: it may read any terminal's posting (a caixa reads only its own). */
let manager: string;
async function withTerminal<T>(run: (credential: string) => Promise<T>): Promise<T> {
  const credential = idle.pop();
  if (credential === undefined) throw new Error('more sales in flight than terminals');
  try {
    return await run(credential);
  } finally {
    idle.push(credential);
  }
}

/** What the terminal's browser sends: its credential and, on a POST, the app's Origin. */
function terminalHeaders(credential: string, base: string, post = false): Record<string, string> {
  const cookie = `pdv_terminal_${new URL(base).port}=${credential}`;
  return post ? { cookie, origin: base, 'content-type': 'application/json' } : { cookie };
}

const own = ownRelayedApp('exactly-once', JOURNAL_ENV);

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  for (let i = 1; i <= 25; i++) idle.push(await own.credential('caixa', `Caixa ${i}`));
  manager = await own.credential('gerente', 'Gerência');
});

type Final = { estado: string; motivo: string | null; conferido?: boolean };

const sale = (celular: string, valor = 2590) => ({
  valor_gasto: valor,
  senha_atendente: '1234',
  cliente: { celular, nome: 'Cliente Teste' },
});

/**
 * What the browser does: post once with the sale id, then follow the posting until it ends,
 * as the same terminal (a caixa reads only its own postings).
 */
async function postAndFollow(
  body: unknown,
  key = randomUUID(),
  base = () => own.app.url,
  seen?: Set<string>,
): Promise<Final> {
  return withTerminal(async (credential) => {
    try {
      const res = await fetch(`${base()}/api/v4/estabelecimentos/1/fidelidade/pontuar`, {
        method: 'POST',
        headers: { ...terminalHeaders(credential, base(), true), 'idempotency-key': key },
        body: JSON.stringify(body),
      });
      const json = (await res.json()) as {
        success: boolean;
        message: string;
        data: Record<string, unknown>;
      };
      if (res.status === 200) return { estado: 'lançado', motivo: null };
      if (res.status !== 202) return { estado: 'recusado', motivo: json.message };
      if (typeof json.data.estado === 'string') seen?.add(json.data.estado);
    } catch {
      // The answer to the browser was lost: ask the server what became of the sale.
    }
    return follow(key, base, seen, credential);
  });
}

/**
 * Follows the posting until it is settled, for up to 90 s, as the browser does: a long poll
 * while it is being sent or verified, a pause between reads while it is `desconhecido` (an
 * answer lost to the 60 s upstream limit: the commit at 59 s came after it on a loaded CI run,
 * and a follow that read again at once used up its reads in a second). The states it read go
 * to `seen`.
 */
async function follow(
  key: string,
  base = () => own.app.url,
  seen?: Set<string>,
  credential = idle[0]!,
): Promise<Final> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${base()}/api/lancamentos/${key}?esperar=8`, {
        headers: terminalHeaders(credential, base()),
      });
      if (res.status === 200) {
        const { data } = (await res.json()) as { data: Final & { estado: string } };
        seen?.add(data.estado);
        if (data.estado === 'lançado' || data.estado === 'recusado') return data;
        // The long poll ended with the posting still being sent or verified: read again now.
        if (data.estado !== 'desconhecido') continue;
      } else if (res.status !== 404) {
        throw new Error(`lancamentos answered ${res.status}`);
      }
    } catch {
      // Unreachable or an unexpected status: pause, as after `desconhecido` or a 404.
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`posting ${key} not settled in 90 s`);
}

/**
 * How many postings for `phone` the service holds, printed with confirmed (one sale if `estado`
 * is lançado), duplicated and lost.
 */
async function deliveredOf(name: string, estado: string, phone: string): Promise<number> {
  const delivered = await sandboxPurchases(own.sandbox.url, phone);
  const confirmed = estado === 'lançado' ? 1 : 0;
  const duplicated = Math.max(0, delivered - 1);
  const lost = Math.max(0, confirmed - delivered);
  console.log(
    `[exactly-once] ${name}: confirmed=${confirmed} delivered=${delivered} duplicated=${duplicated} lost=${lost}`,
  );
  return delivered;
}

const matchPhone = (phone: string) => (r: { path: string; body: string }) =>
  r.path.endsWith('/fidelidade/pontuar') && r.body.includes(phone);

// 61 s is past the app server's 60 s upstream limit: the answer is lost to it, the entry is
// `desconhecido`, and the re-read finds the purchase the service committed a second later.
test('upstream commits at 5, 10.05, 11, 15, 30, 59 and 61 s: one posting each, each ends lançado', async () => {
  test.setTimeout(120_000);
  const delays = [5, 10.05, 11, 15, 30, 59, 61];
  const results = await Promise.all(
    delays.map(async (s) => {
      const phone = freshPhone();
      const rule = own.relay.add({
        match: matchPhone(phone),
        fault: { kind: 'delay', ms: s * 1000 },
      });
      const started = Date.now();
      const seen = new Set<string>();
      const final = await postAndFollow(sale(phone), randomUUID(), () => own.app.url, seen);
      const elapsed = (Date.now() - started) / 1000;
      const delivered = await deliveredOf(
        `commit at ${s} s (ended after ${elapsed.toFixed(1)} s)`,
        final.estado,
        phone,
      );
      console.log(
        `[exactly-once] commit at ${s} s: relay received=${rule.received} forwarded=${rule.forwarded} answered=${rule.answered} reset=${rule.reset}; states read ${[...seen].join(' → ') || '(none: answered at once)'}; conferido=${final.conferido ?? false}`,
      );
      return {
        s,
        final: { estado: final.estado, delivered },
        rule: { ...rule },
        seen: [...seen],
        conferido: final.conferido ?? false,
        elapsed,
      };
    }),
  );
  for (const r of results) {
    expect(r.final, `commit at ${r.s} s`).toEqual({ estado: 'lançado', delivered: 1 });
    // The fault fired: this sale's posting was held before the service got it.
    expect(r.rule, `commit at ${r.s} s: the delay rule`).toMatchObject({
      received: 1,
      forwarded: 1,
    });
    expect(r.elapsed, `commit at ${r.s} s: ended after`).toBeGreaterThanOrEqual(r.s);
  }
  // The 61 s case took the path described above: the relay never got an answer to the app
  // server (it had given up), the entry was read as `desconhecido`, and it was settled by
  // reading the service (conferido), not by an answer.
  const late = results.find((r) => r.s === 61)!;
  expect(late.rule).toEqual({ received: 1, forwarded: 1, answered: 0, reset: 1, inFlight: 0 });
  expect(late.seen).toContain('desconhecido');
  expect(late.conferido).toBe(true);
});

test('the connection reset after the commit: lançado (conferido), one posting', async () => {
  const phone = freshPhone();
  const counts = own.relay.add({ match: matchPhone(phone), fault: { kind: 'lose-answer' } });
  const final = await postAndFollow(sale(phone));
  const delivered = await deliveredOf('reset after commit', final.estado, phone);
  expect(counts).toMatchObject({ forwarded: 1, reset: 1 });
  expect(final).toMatchObject({ estado: 'lançado', conferido: true });
  expect(delivered).toBe(1);
});

test('the connection reset before the commit: não lançado, then one posting on the retry', async () => {
  const phone = freshPhone();
  const counts = own.relay.add({ match: matchPhone(phone), fault: { kind: 'reset-before' } });
  const key = randomUUID();
  const final = await postAndFollow(sale(phone), key);
  expect(counts).toMatchObject({ forwarded: 0, reset: 1 });
  expect(final.estado).toBe('recusado');
  expect(final.motivo).toMatch(/não lançado/);
  expect(await sandboxPurchases(own.sandbox.url, phone)).toBe(0);
  // The same sale id again answers the verdict and sends nothing (read by a manager here).
  expect((await follow(key, undefined, undefined, manager)).estado).toBe('recusado');
  // The cashier posts again: a new sale, posted once.
  const retry = await postAndFollow(sale(phone));
  const delivered = await deliveredOf('reset before commit + retry', retry.estado, phone);
  expect(retry.estado).toBe('lançado');
  expect(delivered).toBe(1);
});

test('kill -9 of the app server mid-posting: settled after the restart, one posting', async () => {
  test.setTimeout(90_000);
  const phone = freshPhone();
  const counts = own.relay.add({ match: matchPhone(phone), fault: { kind: 'delay', ms: 3000 } });
  const key = randomUUID();
  const inFlight = fetch(`${own.app.url}/api/v4/estabelecimentos/1/fidelidade/pontuar`, {
    method: 'POST',
    headers: { ...terminalHeaders(idle[0]!, own.app.url, true), 'idempotency-key': key },
    body: JSON.stringify(sale(phone)),
  }).catch(() => null);
  await expect.poll(() => counts.received, { timeout: 10_000 }).toBe(1);
  await new Promise((r) => setTimeout(r, 500));
  await own.app.kill9();
  expect(await inFlight).toBeNull();
  await own.restartApp();
  const final = await follow(key);
  const delivered = await deliveredOf('kill -9 mid-posting', final.estado, phone);
  expect(final.estado).toBe('lançado');
  expect(delivered).toBe(1);
});

test('100 lost-response trials with random delays: no double posting', async () => {
  test.setTimeout(240_000);
  const trials = 100;
  let confirmed = 0;
  let delivered = 0;
  let duplicated = 0;
  let lost = 0;
  const kinds = { 'lose-answer': 0, 'reset-before': 0, delay: 0 };
  const trial = async () => {
    const phone = freshPhone();
    const roll = Math.random();
    const ms = Math.floor(Math.random() * 1500);
    const fault =
      roll < 0.5
        ? ({ kind: 'lose-answer', delayMs: ms } as const)
        : roll < 0.8
          ? ({ kind: 'reset-before' } as const)
          : ({ kind: 'delay', ms } as const);
    kinds[fault.kind] += 1;
    own.relay.add({ match: matchPhone(phone), fault });
    // The cashier posts until told "lançado"; a "não lançado" allows a new attempt.
    let final = await postAndFollow(sale(phone));
    let attempts = 1;
    while (final.estado === 'recusado' && attempts < 3) {
      final = await postAndFollow(sale(phone));
      attempts += 1;
    }
    const count = await sandboxPurchases(own.sandbox.url, phone);
    if (final.estado === 'lançado') confirmed += 1;
    delivered += Math.min(count, 1);
    if (count > 1) duplicated += count - 1;
    if (final.estado === 'lançado' && count === 0) lost += 1;
  };
  for (let batch = 0; batch < trials; batch += 25) {
    await Promise.all(Array.from({ length: Math.min(25, trials - batch) }, trial));
  }
  console.log(
    `[exactly-once] ${trials} lost-response trials (${JSON.stringify(kinds)}): confirmed=${confirmed} delivered=${delivered} duplicated=${duplicated} lost=${lost}`,
  );
  expect(duplicated).toBe(0);
  expect(lost).toBe(0);
  expect(confirmed).toBe(trials);
  expect(delivered).toBe(trials);
});
