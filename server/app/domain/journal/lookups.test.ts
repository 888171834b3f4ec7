// The counter's lookups as postings' snapshots, and a posting's points learned without a read
// of the journal's own: counted in calls to the (scripted) service.
import { randomUUID } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import type { JournalObserver, PostingServiceOptions } from './context';
import { postingMessages } from './messages';
import { sealKeyFrom } from './sealed';
import {
  cleanupAfterEach,
  FAST_JOURNAL,
  scriptedUpstream,
  startedService,
} from '../../../testing/journal-support';
import type { JournalEntry } from '../../../store';

const FAST = {
  ...FAST_JOURNAL,
  // Off unless a test is about it: a read it makes would count in another test's figures.
  pointsWaitMs: 60_000,
};

const cleanup = cleanupAfterEach();

/** What the journal told its observer. */
function observed() {
  const seen = { snapshot: [] as string[], points: [] as string[], calls: [] as number[] };
  const observer: JournalObserver = {
    snapshot: (s) => seen.snapshot.push(s),
    points: (s) => seen.points.push(s),
    postingCalls: (n) => seen.calls.push(n),
  };
  return { seen, observer };
}

async function setup(
  extra: Partial<PostingServiceOptions> = {},
  rules: Parameters<typeof scriptedUpstream>[0] = {},
) {
  const upstream = scriptedUpstream(rules);
  const { seen, observer } = observed();
  const { journal, service } = await startedService(cleanup, upstream.call, {
    observer,
    ...FAST,
    ...extra,
  });

  /** The terminal's lookup by phone as the proxy sends it, kept by the journal. */
  const lookup = async (terminalId: string, body: Record<string, unknown>) => {
    const token = await service.lookupStarted(terminalId, body);
    const res = await upstream.call('buscar', body, AbortSignal.timeout(1_000));
    const text = await res.text();
    if (token !== null) await service.lookupAnswered(token, res.status, text);
    return token;
  };
  /** A sale posted at terminal `terminalId`'s counter. */
  const post = async (terminalId: string, celular: string, valor = 2500, cpf?: string) => {
    const r = await service.submit({
      key: randomUUID(),
      terminalId,
      requestId: null,
      counter: true,
      body: {
        valor_gasto: valor,
        senha_atendente: '1234',
        cliente: { celular, ...(cpf ? { cpf } : {}) },
      },
    });
    if (r.kind !== 'entry') throw new Error(JSON.stringify(r));
    return r.entry;
  };
  /** The entry once its final write is in the store (its slot free), and its points known. */
  const stored = async (key: string, options: { points?: boolean } = {}): Promise<JournalEntry> => {
    const end = Date.now() + 3_000;
    for (;;) {
      const e = await journal.store.get(key);
      const done =
        e !== null && e.settledAt !== null && (options.points === false || e.points !== null);
      if (done || Date.now() > end) return e!;
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  /** A counter's posting, answered and written. */
  const posted = async (terminalId: string, celular: string, valor = 2500) =>
    stored((await post(terminalId, celular, valor)).key, { points: false });
  return { journal, upstream, service, seen, lookup, post, posted, stored };
}

/** A registered customer of the scripted service, with one purchase already. */
async function customer(s: Awaited<ReturnType<typeof setup>>, celular: string) {
  await s.posted('setup', celular, 1000);
  return celular;
}

/** A customer (as `customer`) that terminal t1 has just looked up by phone. */
async function lookedUp(s: Awaited<ReturnType<typeof setup>>, celular: string) {
  await customer(s, celular);
  await s.lookup('t1', { celular });
  return celular;
}

describe("a terminal's lookup as the posting's snapshot", () => {
  test('posted moments after its own lookup, nothing posted since: no read of its own', async () => {
    const s = await setup();
    const phone = await lookedUp(s, '+5511900001001');
    const reads = s.upstream.buscarCalls();
    s.seen.snapshot.length = 0;
    s.seen.calls.length = 0;
    const e = await s.posted('t1', phone);
    expect(e.state).toBe('lançado');
    expect(s.upstream.buscarCalls()).toBe(reads);
    expect(e.snapshot).toMatchObject({ exists: true, compras: 1, saldo: 10 });
    expect(s.seen.snapshot).toEqual(['lookup']);
    expect(s.seen.calls).toEqual([1]);
    console.log(`reused lookup: ${s.upstream.buscarCalls() - reads} reads, 1 pontuar`);
  });

  test('another terminal, another customer, too old, or a posting since: the posting reads', async () => {
    const s = await setup({ lookupReuseMs: 300 });
    const phone = await customer(s, '+5511900001002');
    const other = await customer(s, '+5511900001003');
    const readsOf = async (terminalId: string, celular: string) => {
      const before = s.upstream.buscarCalls();
      await s.posted(terminalId, celular);
      return s.upstream.buscarCalls() - before;
    };
    await s.lookup('t1', { celular: phone });
    expect(await readsOf('t2', phone)).toBeGreaterThanOrEqual(1);
    // t1's lookup was of `phone`, and t2 posted for that customer since.
    expect(await readsOf('t1', phone)).toBeGreaterThanOrEqual(1);
    await s.lookup('t1', { celular: phone });
    expect(await readsOf('t1', other)).toBeGreaterThanOrEqual(1);
    await s.lookup('t1', { celular: phone });
    await new Promise((r) => setTimeout(r, 350));
    expect(await readsOf('t1', phone)).toBeGreaterThanOrEqual(1);
    // Fresh and untouched: taken.
    await s.lookup('t1', { celular: phone });
    expect(s.seen.snapshot.at(-1)).toBe('read');
    expect(await readsOf('t1', phone)).toBe(0);
    expect(s.seen.snapshot.at(-1)).toBe('lookup');
  });

  test('a lookup by CPF or id, or while a posting of that customer is in flight, is not kept', async () => {
    const s = await setup();
    const phone = await customer(s, '+5511900001004');
    expect(await s.lookup('t1', { cpf: '52998224725' })).toBeNull();
    expect(await s.lookup('t1', { id_cliente: 1 })).toBeNull();
    expect(await s.lookup('t1', { celular: phone, cpf: '52998224725' })).toBeNull();
    s.upstream.outcomes.push({ delay: 200 });
    const inFlight = s.post('t2', phone);
    await new Promise((r) => setTimeout(r, 50));
    expect(await s.lookup('t1', { celular: phone })).toBeNull();
    await inFlight;
  });

  test('a customer not registered at the lookup: taken unless the sale names a CPF', async () => {
    const s = await setup();
    await s.lookup('t1', { celular: '+5511900001005' });
    const reads = s.upstream.buscarCalls();
    const e = await s.posted('t1', '+5511900001005');
    expect(s.upstream.buscarCalls()).toBe(reads);
    expect(e.snapshot).toMatchObject({ exists: false });
    await s.lookup('t1', { celular: '+5511900001006' });
    // Not registered by phone: the service would find the customer by that CPF (two reads).
    await s.post('t1', '+5511900001006', 1000, '52998224725');
    expect(s.upstream.buscarCalls()).toBe(reads + 1 + 2);
  });
});

describe('a lost answer is settled against the lookup it was compared with', () => {
  test('committed then reset: lançado (conferido), one posting; not committed: não lançado', async () => {
    const s = await setup();
    const phone = await lookedUp(s, '+5511900001011');
    s.upstream.outcomes.push('commit-then-reset');
    const landed = await s.post('t1', phone);
    expect(landed.state).toBe('lançado');
    expect(landed.reason).toBe(postingMessages.verifiedPosted);
    expect(s.seen.snapshot.at(-1)).toBe('lookup');
    expect(s.upstream.commits(phone)).toBe(2);

    await s.stored(landed.key);
    await s.lookup('t1', { celular: phone });
    s.upstream.outcomes.push('reset');
    const lost = await s.post('t1', phone);
    expect(s.seen.snapshot.at(-1)).toBe('lookup');
    const until = Date.now() + 3_000;
    let final = await s.service.get(lost.key);
    while (final?.state !== 'recusado' && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 20));
      final = await s.service.get(lost.key);
    }
    expect(final?.state).toBe('recusado');
    expect(s.upstream.commits(phone)).toBe(2);
  });
});

describe("a posting's points", () => {
  test("a counter's posting: from its refresh of the customer, never a read of the journal's", async () => {
    const s = await setup({ pointsWaitMs: 400 });
    const phone = await lookedUp(s, '+5511900001021');
    const reads = s.upstream.buscarCalls();
    const e = await s.posted('t1', phone, 4_200);
    expect(e.points).toBeNull();
    // The counter's panel refresh, right after the answer.
    await s.lookup('t1', { celular: phone });
    expect((await s.journal.store.get(e.key))?.points).toBe(42);
    await new Promise((r) => setTimeout(r, 500));
    expect(s.upstream.buscarCalls() - reads).toBe(1);
    expect(s.seen.points.at(-1)).toBe('lookup');
  });

  test('no refresh came: the journal reads them itself, once, after a while', async () => {
    const s = await setup({ pointsWaitMs: 100 });
    const phone = await lookedUp(s, '+5511900001022');
    const reads = s.upstream.buscarCalls();
    const e = await s.post('t1', phone, 3_100);
    const done = await s.stored(e.key);
    expect(done.points).toBe(31);
    expect(s.upstream.buscarCalls() - reads).toBe(1);
    expect(s.seen.points.at(-1)).toBe('read');
  });

  test("the customer's next posting reads it: that read tells the previous one's points", async () => {
    const s = await setup();
    const phone = await lookedUp(s, '+5511900001023');
    const first = await s.posted('t1', phone, 2_000);
    expect(first.points).toBeNull();
    // Another counter's sale, before any refresh: its own snapshot is read after the first.
    const second = await s.posted('t2', phone, 3_000);
    expect((await s.stored(first.key)).points).toBe(20);
    await s.lookup('t2', { celular: phone });
    expect((await s.stored(second.key)).points).toBe(30);
  });

  test('a purchase from outside this app in between: unknown, never a wrong figure', async () => {
    const s = await setup({ pointsWaitMs: 200 });
    const phone = await lookedUp(s, '+5511900001026');
    const mine = await s.posted('t1', phone, 2_000);
    const outside = { valor_gasto: 5_000, senha_atendente: '1234', cliente: { celular: phone } };
    await s.upstream.call('pontuar', outside, AbortSignal.timeout(1_000));
    await s.lookup('t1', { celular: phone });
    await new Promise((r) => setTimeout(r, 350));
    expect((await s.journal.store.get(mine.key))?.points).toBeNull();
    expect(s.upstream.commits(phone)).toBe(3);
  });

  test('held in carência: the answer tells them (its growth since the snapshot), no read', async () => {
    const s = await setup({ pointsWaitMs: 60_000 }, { carencia: true });
    const phone = await lookedUp(s, '+5511900001024');
    const reads = s.upstream.buscarCalls();
    const e = await s.post('t1', phone, 5_500);
    expect((await s.stored(e.key)).points).toBe(55);
    expect(s.upstream.buscarCalls()).toBe(reads);
    expect(s.seen.points.at(-1)).toBe('answer');
  });

  test('another caller than the counter: read at once, as before', async () => {
    const s = await setup();
    const r = await s.service.submit({
      key: randomUUID(),
      terminalId: null,
      requestId: null,
      body: { valor_gasto: 2_600, senha_atendente: '1234', cliente: { celular: '+5511900001025' } },
    });
    if (r.kind !== 'entry') throw new Error(r.kind);
    expect((await s.stored(r.entry.key)).points).toBe(26);
    expect(s.seen.calls.at(-1)).toBe(3);
  });
});

describe('the service down between the lookup and the posting (the posting its first call)', () => {
  const kept = { sealKey: sealKeyFrom('lookup-test-secret-0123456789abcdef0123') };
  /** The entry once it is kept (its body sealed) with its answer lost. */
  const keptLost = async (s: Awaited<ReturnType<typeof setup>>, key: string) => {
    await expect
      .poll(async () => {
        const e = await s.service.get(key);
        return e !== null && e.body !== null && e.secret !== null ? e.state : null;
      })
      .toMatch(/^(verificando|desconhecido)$/);
  };
  const settled = async (s: Awaited<ReturnType<typeof setup>>, key: string) => {
    await expect
      .poll(async () => (await s.service.get(key))?.state, { timeout: 5_000 })
      .toBe('lançado');
  };

  test('not posted: kept, checked when the service returns, then delivered once', async () => {
    const s = await setup(kept);
    const phone = await lookedUp(s, '+5511900001021');
    s.upstream.setDown(true);
    const e = await s.post('t1', phone, 3100);
    await keptLost(s, e.key);
    expect(s.upstream.commits(phone)).toBe(1);
    s.upstream.setDown(false);
    await settled(s, e.key);
    expect(s.upstream.commits(phone)).toBe(2);
    expect(s.upstream.committed.at(-1)).toEqual({ celular: phone, valor: 3100 });
    console.log(`down after the lookup: kept, then delivered ${s.upstream.commits(phone) - 1}`);
  });

  test('posted, its answer lost and the customer unreadable: kept, found posted, never resent', async () => {
    const s = await setup(kept);
    const phone = await lookedUp(s, '+5511900001022');
    s.upstream.outcomes.push('commit-then-reset');
    s.upstream.setBuscarFails(true);
    const e = await s.post('t1', phone, 3200);
    await keptLost(s, e.key);
    s.upstream.setBuscarFails(false);
    await settled(s, e.key);
    expect((await s.service.get(e.key))?.reason).toBe(postingMessages.verifiedPosted);
    expect(s.upstream.commits(phone)).toBe(2);
    console.log(`committed, lost, unreadable: posted ${s.upstream.commits(phone) - 1} time`);
  });

  test('with no contingency (no secret), a lost answer is only checked, never kept', async () => {
    const s = await setup();
    const phone = await lookedUp(s, '+5511900001023');
    s.upstream.setDown(true);
    const e = await s.post('t1', phone);
    await new Promise((r) => setTimeout(r, 100));
    expect(await s.service.get(e.key)).toMatchObject({ body: null, secret: null });
  });
});
