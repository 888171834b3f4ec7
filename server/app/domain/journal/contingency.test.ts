// Contingency on both store engines: the upstream circuit, kept sales (`aguardando envio`),
// their delivery when the service returns (oldest first, one per customer, exactly once),
// "precisa de atenção" for a manager, the sealed password and the limits.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, test } from 'vitest';
import { createJournalStore } from '../../../store';
import type { JournalEntry } from '../../../store';
import { describeEngines } from '../../../testing/pg-cluster';
import { storeFixture } from '../../../testing/store-fixture';
import { createCircuit } from '../../upstream/circuit';
import type { PostingServiceOptions } from './context';
import { postingMessages } from './messages';
import { createPostingService, type PostingService } from './service';
import { sealKeyFrom, seal, unseal } from './sealed';
import { scriptedUpstream } from '../../../testing/journal-support';
import { postEntry as post } from '../../testing/journal';

const stores = storeFixture('contingency-test');

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()!();
});

const FAST = {
  quietMs: 60,
  unknownHorizonMs: 400,
  recheckMs: 40,
  leaseMs: 300,
  sweepMs: 20,
  waitMs: 2_000,
  slotWaitMs: 3_000,
  retryBaseMs: 20,
  retryCapMs: 200,
};
const SECRET = 'contingency-tests-secret-0123456789abcdef';

const sale = (celular: string, valor = 1000, senha = '1234') => ({
  valor_gasto: valor,
  senha_atendente: senha,
  cliente: { celular, nome: 'Maria' },
});

/** A circuit the test opens and closes by hand (the real one is tested apart below). */
function manualCircuit(open = false) {
  const listeners = new Set<(open: boolean) => void>();
  let state = open;
  return {
    isOpen: () => state,
    openedAt: () => (state ? 1 : null),
    onChange(l: (open: boolean) => void) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    set(v: boolean, notify = true) {
      state = v;
      if (notify) for (const l of listeners) l(v);
    },
  };
}

describeEngines('contingency on %s', (engine) => {
  async function setup(
    extra: Partial<PostingServiceOptions> = {},
    { start = true, circuitOpen = false } = {},
  ) {
    const store = await stores.open(engine);
    const upstream = scriptedUpstream();
    const circuit = manualCircuit(circuitOpen);
    const service = createPostingService({
      store: createJournalStore(store),
      call: upstream.call,
      establishmentId: 1,
      circuit,
      sealKey: sealKeyFrom(SECRET),
      ...FAST,
      ...extra,
    });
    if (start) service.start();
    cleanup.push(
      () => store.close(),
      () => service.stop(),
    );
    return { store, upstream, service, circuit };
  }

  async function until(
    service: PostingService,
    key: string,
    states: JournalEntry['state'][],
    timeoutMs = 5_000,
  ): Promise<JournalEntry> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const e = await service.get(key);
      if (e && states.includes(e.state)) return e;
      if (Date.now() > deadline) throw new Error(`not ${states.join('|')}: ${JSON.stringify(e)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  test('service down: sales are kept and answered at once; when it returns each is delivered once, oldest first per customer, one at a time, password erased', async () => {
    const { store, upstream, service, circuit } = await setup();
    upstream.setDown(true);
    const phones = ['+5511900000101', '+5511900000102', '+5511900000103'];
    const keys: { key: string; phone: string; valor: number }[] = [];
    // The first sale finds the service unreadable before sending: kept, nothing sent.
    for (let i = 0; i < 4; i++) {
      for (const phone of phones) {
        if (i === 1 && phone === phones[0]) circuit.set(true); // the circuit opens meanwhile
        const valor = 1000 + i;
        const started = Date.now();
        const e = await post(service, sale(phone, valor));
        expect(Date.now() - started).toBeLessThan(1_000);
        // Kept; with the circuit still closed the deliverer may already be trying it.
        expect(['aguardando envio', 'enviando']).toContain(e.state);
        keys.push({ key: e.key, phone, valor });
      }
    }
    expect(upstream.calls()).toBe(0);
    expect(await service.status()).toMatchObject({ open: true, waiting: 12, attention: 0 });
    // At rest: the body without the password, the password sealed (not readable as is).
    const rows = await store.db.selectFrom('posting_journal').select(['body', 'secret']).execute();
    for (const r of rows) {
      expect(r.body).not.toContain('senha_atendente');
      expect(r.secret).toMatch(/^v1\./);
      expect(r.secret).not.toContain('1234');
    }

    upstream.setDown(false);
    circuit.set(false);
    for (const k of keys) {
      expect(await until(service, k.key, ['lançado'])).toMatchObject({ secret: null });
    }
    for (const phone of phones) {
      expect(upstream.commits(phone)).toBe(4);
      expect(upstream.maxInFlight(phone)).toBe(1);
      expect(upstream.committed.filter((c) => c.celular === phone).map((c) => c.valor)).toEqual([
        1000, 1001, 1002, 1003,
      ]);
    }
    expect(upstream.passwords.every((p) => p === '1234')).toBe(true);
    expect(upstream.calls()).toBe(12);
    await expect
      .poll(() => service.status())
      .toMatchObject({ open: false, waiting: 0, attention: 0 });
    const secrets = await store.db.selectFrom('posting_journal').select('secret').execute();
    expect(secrets.every((r) => r.secret === null)).toBe(true);
  });

  test('a new sale of a customer whose kept sale is not delivered yet goes after it, even with the service back', async () => {
    const { upstream, service, circuit } = await setup({}, { start: false, circuitOpen: true });
    const first = await post(service, sale('+5511900000201', 1001));
    circuit.set(false, false);
    const second = await post(service, sale('+5511900000201', 1002));
    // Kept behind the first. Keeping a sale with the service back starts a delivery, which
    // may have sent both (in order) before the answer: then the first is posted already.
    if (second.state !== 'aguardando envio') {
      expect((await service.get(first.key))?.state).toBe('lançado');
    }
    // Another customer is posted at once.
    const other = await post(service, sale('+5511900000202', 500));
    expect(other.state).toBe('lançado');
    await service.deliver();
    await until(service, first.key, ['lançado']);
    await service.deliver();
    await until(service, second.key, ['lançado']);
    expect(
      upstream.committed.filter((c) => c.celular === '+5511900000201').map((c) => c.valor),
    ).toEqual([1001, 1002]);
  });

  test('the same sale id while kept answers the kept sale; another body under it is refused', async () => {
    const { service } = await setup({}, { circuitOpen: true });
    const key = randomUUID();
    const e = await post(service, sale('+5511900000301'), key);
    expect((await post(service, sale('+5511900000301'), key)).key).toBe(e.key);
    const other = await service.submit({
      key,
      terminalId: 't1',
      requestId: 'r2',
      body: sale('+5511900000301', 99),
    });
    expect(other).toMatchObject({ kind: 'invalid', message: postingMessages.keyReused });
  });

  test('an answer lost at delivery is verified before any re-send: committed = lançado; not committed = sent again once', async () => {
    const { upstream, service, circuit } = await setup({}, { circuitOpen: true });
    const committedLost = await post(service, sale('+5511900000401'));
    const notCommitted = await post(service, sale('+5511900000402'));
    upstream.outcomes.push('commit-then-reset', 'reset');
    circuit.set(false);
    const first = await until(service, committedLost.key, ['lançado']);
    const second = await until(service, notCommitted.key, ['lançado']);
    // Delivery runs customers in parallel: either sale may take the first outcome. The one
    // whose answer was lost after the commit is verified, never re-sent; the other, sent again.
    const [a, b] = first.attempts === 1 ? [first, second] : [second, first];
    expect(a.attempts).toBe(1);
    expect(a.reason).toBe(postingMessages.verifiedPosted);
    expect(b.attempts).toBe(2);
    expect(upstream.commits('+5511900000401')).toBe(1);
    expect(upstream.commits('+5511900000402')).toBe(1);
    expect(upstream.calls()).toBe(3);
  });

  test('refused at delivery: precisa de atenção with the reason; a manager resends with the right password or discards', async () => {
    const { upstream, service, circuit } = await setup({}, { circuitOpen: true });
    const wrong = await post(service, sale('+5511900000501', 1000, '9999'));
    const other = await post(service, sale('+5511900000502', 1000, '9999'));
    upstream.outcomes.push('refuse', 'refuse');
    circuit.set(false);
    for (const e of [wrong, other]) {
      expect(await until(service, e.key, ['precisa de atenção'])).toMatchObject({
        reason: 'Senha do atendente inválida.',
        answerStatus: 422,
        secret: null,
      });
    }
    await expect.poll(() => service.status()).toMatchObject({ waiting: 0, attention: 2 });
    const resent = await service.resolve(wrong.key, { resend: { password: '1234' } });
    expect(resent?.state).toMatch(/aguardando envio|enviando|lançado/);
    expect(await until(service, wrong.key, ['lançado'])).toMatchObject({ secret: null });
    expect(upstream.passwords.at(-1)).toBe('1234');
    expect(await service.resolve(wrong.key, { discard: true })).toBeNull();
    const discarded = await service.resolve(other.key, { discard: true });
    expect(discarded).toMatchObject({ state: 'descartado', reason: postingMessages.discarded });
    expect(upstream.commits('+5511900000501')).toBe(1);
    expect(upstream.commits('+5511900000502')).toBe(0);
    await expect.poll(() => service.status()).toMatchObject({ waiting: 0, attention: 0 });
  });

  test('limits: past the most kept sales, or once the oldest waited too long, a sale is refused plainly and nothing is kept', async () => {
    let clock = Date.now();
    const { service } = await setup(
      { maxWaiting: 2, maxWaitMs: 60_000, now: () => clock },
      { start: false, circuitOpen: true },
    );
    await post(service, sale('+5511900000601'));
    await post(service, sale('+5511900000602'));
    const key = randomUUID();
    const third = await service.submit({
      key,
      terminalId: 't1',
      requestId: 'r',
      body: sale('+5511900000603'),
    });
    expect(third).toEqual({ kind: 'full', message: postingMessages.fullCount(2) });
    expect(await service.get(key)).toBeNull();
    expect((await service.status()).accepting).toBe(false);

    const aged = await setup(
      { maxWaiting: 10, maxWaitMs: 60_000, now: () => clock },
      { start: false, circuitOpen: true },
    );
    await post(aged.service, sale('+5511900000604'));
    clock += 61_000;
    const late = await aged.service.submit({
      key: randomUUID(),
      terminalId: 't1',
      requestId: 'r',
      body: sale('+5511900000605'),
    });
    expect(late).toMatchObject({ kind: 'full', message: postingMessages.fullAge(0) });
  });

  test('a refused customer read is an answer: the sale is refused with the service message, nothing journaled or kept', async () => {
    const { store, upstream, service } = await setup();
    upstream.setBuscarRefuses(422);
    const r = await service.submit({
      key: randomUUID(),
      terminalId: 't1',
      requestId: 'r1',
      body: sale('+5511900000301'),
    });
    expect(r.kind).toBe('refused');
    if (r.kind !== 'refused') return;
    expect(r.status).toBe(422);
    expect(JSON.parse(r.body)).toMatchObject({
      message: expect.stringMatching(/^Celular inválido/),
    });
    const rows = await store.db.selectFrom('posting_journal').select('key').execute();
    expect(rows).toHaveLength(0);
    expect(upstream.calls()).toBe(0);
    expect(await service.status()).toMatchObject({ open: false, waiting: 0, attention: 0 });
  });

  test('a kept sale whose read the service refuses needs a manager at once: tried once, not looped', async () => {
    const { upstream, service, circuit } = await setup({}, { circuitOpen: true });
    const kept = await post(service, sale('+5511900000302'));
    expect(kept.state).toBe('aguardando envio');
    upstream.setBuscarRefuses(422);
    circuit.set(false);
    const e = await until(service, kept.key, ['precisa de atenção']);
    expect(e.reason).toMatch(/^O serviço recusou esta venda guardada: Celular inválido/);
    await new Promise((r) => setTimeout(r, 300));
    console.log(`kept sale refused on read: ${upstream.buscarCalls()} read(s), 0 postings`);
    expect(upstream.buscarCalls()).toBe(1);
    expect(upstream.calls()).toBe(0);
  });

  test('a kept sale that keeps being turned away is retried with growing waits, then needs a manager', async () => {
    const attempts = 5;
    const { upstream, service, circuit } = await setup(
      { maxDeliveryAttempts: attempts, retryBaseMs: 40, retryCapMs: 400 },
      { circuitOpen: true },
    );
    const kept = await post(service, sale('+5511900000303'));
    // 429 on every read: a refusal for now, so the sale waits its next turn each time.
    upstream.setBuscarRefuses(429);
    const started = Date.now();
    circuit.set(false);
    const e = await until(service, kept.key, ['precisa de atenção'], 10_000);
    const took = Date.now() - started;
    await new Promise((r) => setTimeout(r, 500));
    console.log(
      `kept sale turned away (429): ${upstream.buscarCalls()} reads in ${took} ms, then "precisa de atenção"`,
    );
    expect(e.reason).toBe(postingMessages.gaveUp(attempts, postingMessages.keptRequeued));
    expect(upstream.buscarCalls()).toBe(attempts);
    expect(upstream.calls()).toBe(0);
    // Waits of at least 20, 40, 80 and 160 ms (half of each doubling step) between the 5 tries.
    expect(took).toBeGreaterThanOrEqual(20 + 40 + 80 + 160);
    // A manager's resend starts its tries afresh.
    upstream.setBuscarRefuses(null);
    await service.resolve(kept.key, { resend: { password: '1234' } });
    expect((await until(service, kept.key, ['lançado'])).state).toBe('lançado');
    expect(upstream.commits('+5511900000303')).toBe(1);
  });

  test('a sale kept by one replica is delivered by another after the first died mid-delivery (its lease lapsed), once', async () => {
    const { store, upstream, service, circuit } = await setup({}, { circuitOpen: true });
    const kept = await post(service, sale('+5511900000701'));
    // The first replica's delivery hangs; the upstream commits later; the replica "dies".
    upstream.outcomes.push({ hangAndCommitAfter: 100 });
    await service.stop();
    const dying = createPostingService({
      store: createJournalStore(store),
      call: upstream.call,
      establishmentId: 1,
      sealKey: sealKeyFrom(SECRET),
      ...FAST,
      upstreamLimitMs: 60_000,
    });
    circuit.set(false);
    void dying.deliver();
    await until(dying, kept.key, ['enviando']);
    await new Promise((r) => setTimeout(r, 150));
    // A second replica takes over once the lease lapses: it verifies, never re-sends.
    const other = createPostingService({
      store: createJournalStore(store),
      call: upstream.call,
      establishmentId: 1,
      sealKey: sealKeyFrom(SECRET),
      ...FAST,
      leaseMs: 100_000,
    });
    // The dying replica's lease renewals stop (as with kill -9): simulate by letting its
    // lease run out while its call hangs forever.
    await store.db
      .updateTable('posting_journal')
      .set({ lease_until: 0, owner: 'dead' })
      .where('key', '=', kept.key)
      .execute();
    other.start();
    cleanup.push(() => other.stop());
    const final = await until(other, kept.key, ['lançado'], 8_000);
    expect(final.reason).toBe(postingMessages.verifiedPosted);
    expect(upstream.commits('+5511900000701')).toBe(1);
    expect(upstream.calls()).toBe(1);
    void dying.stop();
  });
});

describe('the sealed password', () => {
  test('opens only with the same APP_SECRET and the same sale', () => {
    const key = sealKeyFrom(SECRET);
    const sealed = seal(key, '1234', 'sale-a');
    expect(sealed).not.toContain('1234');
    expect(seal(key, '1234', 'sale-a')).not.toBe(sealed); // a fresh IV each time
    expect(unseal(key, sealed, 'sale-a')).toBe('1234');
    expect(unseal(key, sealed, 'sale-b')).toBeNull();
    expect(unseal(sealKeyFrom(`${SECRET}x`), sealed, 'sale-a')).toBeNull();
    expect(unseal(key, `${sealed.slice(0, -2)}AA`, 'sale-a')).toBeNull();
  });
});

describe('the upstream circuit', () => {
  test('failures in a row open it, a success in between resets the count; the probe closes it', async () => {
    let reachable = false;
    let probes = 0;
    const changes: boolean[] = [];
    const circuit = createCircuit({
      failures: 3,
      probeMs: 20,
      probe: async () => {
        probes += 1;
        return reachable;
      },
    });
    circuit.onChange((open) => changes.push(open));
    const failing = circuit.wrap({
      fetch: () => Promise.reject(new TypeError('fetch failed')),
    });
    const fiveHundred = circuit.wrap({ fetch: () => new Response('x', { status: 503 }) });
    const ok = circuit.wrap({ fetch: () => new Response('{}', { status: 404 }) });
    const req = () => new Request('http://upstream.test/');
    await expect(failing.fetch(req())).rejects.toThrow();
    await fiveHundred.fetch(req());
    await ok.fetch(req()); // an answer below 500: reachable
    await expect(failing.fetch(req())).rejects.toThrow();
    await expect(failing.fetch(req())).rejects.toThrow();
    expect(circuit.isOpen()).toBe(false);
    await fiveHundred.fetch(req());
    expect(circuit.isOpen()).toBe(true);
    expect(circuit.openedAt()).not.toBeNull();
    await expect.poll(() => probes, { timeout: 2_000 }).toBeGreaterThanOrEqual(2);
    expect(circuit.isOpen()).toBe(true);
    reachable = true;
    await expect.poll(() => circuit.isOpen(), { timeout: 1_000 }).toBe(false);
    expect(changes).toEqual([true, false]);
    circuit.stop();
  });
});
