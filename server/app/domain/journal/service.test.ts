import { randomUUID } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import type { PostingServiceOptions } from './context';
import { postingMessages } from './messages';
import { ABSENT, compareReadings } from './readings';
import { createPostingService, type PostingService } from './service';
import {
  cleanupAfterEach,
  FAST_JOURNAL,
  scriptedUpstream,
  sqliteJournal,
  startedService,
} from '../../../testing/journal-support';
import type { JournalEntry } from '../../../store';
import { postEntry as post, startedOn } from '../../testing/journal';

const FAST = { ...FAST_JOURNAL, retryBaseMs: 20, retryCapMs: 200 };

const cleanup = cleanupAfterEach();

/** Another process's posting service on `store` (a restart after a crash), started. */
const restartedOn = (store: PostingServiceOptions['store'], call: PostingServiceOptions['call']) =>
  startedOn(cleanup, store, call, FAST);

async function setup(
  extra: Partial<PostingServiceOptions> = {},
  upstreamRules: Parameters<typeof scriptedUpstream>[0] = {},
) {
  const upstream = scriptedUpstream(upstreamRules);
  const { journal, service } = await startedService(cleanup, upstream.call, { ...FAST, ...extra });
  return { journal, upstream, service };
}

const sale = (celular: string, valor = 1000, senha = '1234') => ({
  valor_gasto: valor,
  senha_atendente: senha,
  cliente: { celular, nome: 'Maria' },
});

/** `body` sent under `key` by no terminal is answered as an entry in `state`, with `reason`. */
async function expectAnswered(
  service: PostingService,
  key: string,
  body: unknown,
  state: JournalEntry['state'],
  reason: string,
) {
  const r = await service.submit({ key, terminalId: null, requestId: null, body });
  expect(r.kind === 'entry' && r.entry.state).toBe(state);
  expect(r.kind === 'entry' && r.entry.reason).toBe(reason);
}

async function settled(
  service: PostingService,
  key: string,
  timeoutMs = 3_000,
): Promise<JournalEntry> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const e = await service.get(key);
    if (
      e &&
      (e.state === 'lançado' ||
        e.state === 'recusado' ||
        (e.state === 'desconhecido' && e.settledAt !== null))
    )
      return e;
    if (Date.now() > until) throw new Error(`not settled: ${JSON.stringify(e)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('the key', () => {
  test('a posting without Idempotency-Key is refused and nothing is sent', async () => {
    const { service, upstream } = await setup();
    const r = await service.submit({
      key: undefined,
      terminalId: null,
      requestId: null,
      body: sale('+5511900000001'),
    });
    expect(r).toEqual({ kind: 'invalid', message: postingMessages.noKey });
    const bad = await service.submit({
      key: 'abc',
      terminalId: null,
      requestId: null,
      body: sale('+5511900000001'),
    });
    expect(bad).toMatchObject({ kind: 'invalid', message: postingMessages.badKey });
    expect(upstream.calls()).toBe(0);
  });

  test('a posting without the customer phone is refused on cliente.celular', async () => {
    const { service } = await setup();
    const r = await service.submit({
      key: randomUUID(),
      terminalId: null,
      requestId: null,
      body: { valor_gasto: 1000, senha_atendente: '1234', cliente: { nome: 'Maria' } },
    });
    expect(r).toMatchObject({
      kind: 'invalid',
      errors: { 'cliente.celular': [postingMessages.noCustomer] },
    });
  });

  test.each([
    [
      'a phone without the country code',
      { cliente: { celular: '11111111111' } },
      'cliente.celular',
    ],
    [
      'full-width digits',
      { cliente: { celular: '+５５１１９８７６５４３２１' } },
      'cliente.celular',
    ],
    [
      'an invalid CPF',
      { cliente: { celular: '+5511900000009', cpf: '12345678900' } },
      'cliente.cpf',
    ],
    ['an amount of zero', { valor_gasto: 0 }, 'valor_gasto'],
    ['an amount in reais', { valor_gasto: 10.5 }, 'valor_gasto'],
    ['a basket that does not add up', { itens: [{ descricao: 'Pão', valor: 999 }] }, 'itens'],
  ])(
    'a body the service would refuse (%s) is refused at once, nothing journaled or sent',
    async (_, change, field) => {
      const { journal, service, upstream } = await setup();
      const body = { ...sale('+5511900000009'), ...change };
      const r = await service.submit({
        key: randomUUID(),
        terminalId: null,
        requestId: null,
        body,
      });
      expect(r.kind).toBe('invalid');
      if (r.kind !== 'invalid') return;
      expect(Object.keys(r.errors ?? {})).toEqual([field]);
      expect(r.message).toBe(r.errors?.[field]?.[0]);
      expect(await journal.db.selectFrom('posting_journal').select('key').execute()).toHaveLength(
        0,
      );
      expect(upstream.buscarCalls()).toBe(0);
      expect(upstream.calls()).toBe(0);
    },
  );

  test('the same key again answers the stored result without sending again', async () => {
    const { service, upstream } = await setup();
    const key = randomUUID();
    const first = await post(service, sale('+5511900000002'), key);
    expect(first.state).toBe('lançado');
    const again = await post(service, sale('+5511900000002'), key.toUpperCase());
    expect(again.key).toBe(first.key);
    expect(again.answerBody).toBe(first.answerBody);
    expect(upstream.calls()).toBe(1);
    expect(upstream.commits('+5511900000002')).toBe(1);
  });

  test('the same key with another body is refused (422) and changes nothing', async () => {
    const { service, upstream } = await setup();
    const key = randomUUID();
    await post(service, sale('+5511900000003', 1000), key);
    const r = await service.submit({
      key,
      terminalId: null,
      requestId: null,
      body: sale('+5511900000003', 2000),
    });
    expect(r).toEqual({ kind: 'invalid', message: postingMessages.keyReused });
    expect(upstream.commits('+5511900000003')).toBe(1);
  });

  test('the same key while in flight waits for the first request and sends once', async () => {
    const { service, upstream } = await setup();
    upstream.outcomes.push({ delay: 150 });
    const key = randomUUID();
    const [a, b] = await Promise.all([
      post(service, sale('+5511900000004'), key),
      post(service, sale('+5511900000004'), key),
    ]);
    expect(a.state).toBe('lançado');
    expect(b.state).toBe('lançado');
    expect(upstream.calls()).toBe(1);
  });

  test('the attendant password is never stored, not even in the fingerprint', async () => {
    const { service, journal } = await setup();
    const e = await post(service, sale('+5511900000005', 1000, 'senha-secreta-991'));
    const rows = await journal.db.selectFrom('posting_journal').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain('senha-secreta-991');
    // A retry that only fixes the password is the same sale.
    const same = await service.submit({
      key: e.key,
      terminalId: null,
      requestId: null,
      body: sale('+5511900000005', 1000, '1234'),
    });
    expect(same.kind).toBe('entry');
  });
});

/** The entry once its final write is in the store (after the answer, its points read). */
async function stored(
  journal: Awaited<ReturnType<typeof sqliteJournal>>,
  key: string,
): Promise<JournalEntry> {
  const until = Date.now() + 3_000;
  for (;;) {
    const e = await journal.store.get(key);
    if (e !== null && e.settledAt !== null) return e;
    if (Date.now() > until) throw new Error(`not stored as settled: ${JSON.stringify(e)}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('answers', () => {
  test('a posted answer is lançado with the upstream answer and its points', async () => {
    const { service, journal } = await setup();
    const e = await post(service, sale('+5511900000010', 2590));
    expect(e.state).toBe('lançado');
    expect(e.answerStatus).toBe(200);
    expect(JSON.parse(e.answerBody!).data.saldo_atual).toBe(25);
    expect(e.snapshot).toEqual({ ...ABSENT, readAt: expect.any(Number) });
    expect((await stored(journal, e.key)).points).toBe(25);
  });

  test('it knows the store it journals in (whose earlier commits its journaling flushes)', async () => {
    const { service, journal } = await setup();
    const other = await sqliteJournal();
    cleanup.push(other.close);
    expect(service.journalsIn(journal.store.store)).toBe(true);
    expect(service.journalsIn(other.store.store)).toBe(false);
  });

  test('a posting that wins a reward keeps its own points, not the balance it left', async () => {
    const { service, journal } = await setup({}, { rewardCost: 100 });
    const first = await post(service, sale('+5511900000012', 6000));
    expect((await stored(journal, first.key)).points).toBe(60);
    // 60 + 70 = 130 ≥ 100: a reward is won, 100 debited; the balance goes 60 → 30.
    const e = await post(service, sale('+5511900000012', 7000));
    expect(JSON.parse(e.answerBody!).data.saldo_atual).toBe(30);
    const final = await stored(journal, e.key);
    expect(final.state).toBe('lançado');
    expect(final.points).toBe(70);
    // The ledger lists it with those points, even asked the moment the answer left.
    const third = await post(service, sale('+5511900000012', 9000));
    const { entries } = await service.ledger({
      terminalId: 't1',
      from: Date.now() - 60_000,
      to: Date.now() + 60_000,
    });
    expect(entries.map((x) => [x.key, x.points])).toEqual([
      [third.key, 90],
      [e.key, 70],
      [first.key, 60],
    ]);
  });

  test('a refusal (422) is recusado with the service message; nothing was posted', async () => {
    const { service, upstream } = await setup();
    upstream.outcomes.push('refuse');
    const e = await post(service, sale('+5511900000011'));
    expect(e.state).toBe('recusado');
    expect(e.answerStatus).toBe(422);
    expect(e.reason).toBe('Senha do atendente inválida.');
    expect(upstream.commits('+5511900000011')).toBe(0);
  });
});

describe('lost answers are decided by re-reading the customer', () => {
  test('committed then reset: lançado (conferido), one posting', async () => {
    const { service, upstream } = await setup();
    upstream.outcomes.push('commit-then-reset');
    const e = await post(service, sale('+5511900000020'));
    expect(e.state).toBe('lançado');
    expect(e.answerStatus).toBeNull();
    expect(e.reason).toBe(postingMessages.verifiedPosted);
    expect(e.reading?.compras).toBe(1);
    expect(upstream.commits('+5511900000020')).toBe(1);
  });

  test('a 5xx without a trustworthy body after a commit: lançado (conferido)', async () => {
    const { service, upstream } = await setup();
    upstream.outcomes.push('commit-then-500');
    const e = await post(service, sale('+5511900000021'));
    expect(e.state).toBe('lançado');
    expect(upstream.commits('+5511900000021')).toBe(1);
  });

  test('reset before commit: verificando, then não lançado after the quiet period', async () => {
    const { service, upstream } = await setup();
    upstream.outcomes.push('reset');
    const key = randomUUID();
    const first = await service.submit({
      key,
      terminalId: null,
      requestId: null,
      body: sale('+5511900000022'),
    });
    expect(first.kind === 'entry' && ['verificando', 'recusado'].includes(first.entry.state)).toBe(
      true,
    );
    const e = await settled(service, key);
    expect(e.state).toBe('recusado');
    expect(e.reason).toBe(postingMessages.verifiedNotPosted);
    expect(upstream.commits('+5511900000022')).toBe(0);
    // The cashier's retry is a new sale: posted once.
    expect((await post(service, sale('+5511900000022'))).state).toBe('lançado');
    expect(upstream.commits('+5511900000022')).toBe(1);
  });

  test('a timeout whose commit lands later: desconhecido, then lançado by a re-check', async () => {
    const { service, upstream } = await setup({ upstreamLimitMs: 100 });
    upstream.outcomes.push({ hangAndCommitAfter: 250 });
    const key = randomUUID();
    await expectAnswered(
      service,
      key,
      sale('+5511900000023'),
      'desconhecido',
      postingMessages.unknown,
    );
    const e = await settled(service, key);
    expect(e.state).toBe('lançado');
    expect(upstream.commits('+5511900000023')).toBe(1);
  });

  test('a timeout never committed: não lançado only after the long horizon', async () => {
    const { service, upstream } = await setup({ upstreamLimitMs: 100 });
    upstream.outcomes.push({ hangAndCommitAfter: 60_000 });
    const key = randomUUID();
    const started = Date.now();
    await service.submit({ key, terminalId: null, requestId: null, body: sale('+5511900000024') });
    const e = await settled(service, key);
    expect(e.state).toBe('recusado');
    expect(Date.now() - started).toBeGreaterThanOrEqual(100 + FAST.unknownHorizonMs - 20);
  });

  test('the customer unreadable after a lost answer: desconhecido until it can be read', async () => {
    const { upstream } = await setup();
    upstream.outcomes.push('commit-then-reset');
    const key = randomUUID();
    upstream.setBuscarFails(false);
    const call = upstream.call;
    // Reads fail after the snapshot: flip once pontuar has been called.
    let pontuarSeen = false;
    const svc = createPostingService({
      store: (await sqliteJournal()).store,
      establishmentId: 1,
      ...FAST,
      call: async (op, body, signal) => {
        if (op === 'pontuar') pontuarSeen = true;
        else if (pontuarSeen && upstream.customers.size > 0 && !readable)
          throw new TypeError('fetch failed');
        return call(op, body, signal);
      },
    });
    let readable = false;
    svc.start();
    cleanup.push(() => svc.stop());
    await expectAnswered(
      svc,
      key,
      sale('+5511900000025'),
      'desconhecido',
      postingMessages.unknownReadFailed,
    );
    readable = true;
    const e = await settled(svc, key);
    expect(e.state).toBe('lançado');
    expect(upstream.commits('+5511900000025')).toBe(1);
  });

  test('another purchase of the same customer from outside: desconhecido (ambiguous), never guessed', async () => {
    expect(
      compareReadings(
        { ...ABSENT, exists: true, compras: 3, ultima_compra: 'a' },
        { ...ABSENT, exists: true, compras: 5, ultima_compra: 'b' },
      ),
    ).toBe('ambiguous');
    expect(
      compareReadings(
        { ...ABSENT, exists: true, compras: 3, ultima_compra: 'a' },
        { ...ABSENT, exists: true, compras: 4, ultima_compra: 'b' },
      ),
    ).toBe('posted');
    expect(
      compareReadings(
        { ...ABSENT, exists: true, compras: 3, ultima_compra: 'a' },
        { ...ABSENT, exists: true, compras: 3, ultima_compra: 'a' },
      ),
    ).toBe('unchanged');
    expect(compareReadings(ABSENT, ABSENT)).toBe('unchanged');
    expect(
      compareReadings(ABSENT, { ...ABSENT, exists: true, compras: 1, ultima_compra: 'b' }),
    ).toBe('posted');
  });
});

describe('one posting per customer at a time', () => {
  test('a second sale for the same customer waits its turn: both posted, never concurrently', async () => {
    const { service, upstream } = await setup();
    upstream.outcomes.push({ delay: 200 }, { delay: 50 });
    const [a, b] = await Promise.all([
      post(service, sale('+5511900000030', 1000)),
      post(service, sale('+5511900000030', 2000)),
    ]);
    expect([a.state, b.state]).toEqual(['lançado', 'lançado']);
    expect(upstream.commits('+5511900000030')).toBe(2);
    expect(upstream.maxInFlight('+5511900000030')).toBe(1);
  });

  test('a lost answer is not confused by the next sale of the same customer', async () => {
    const { service, upstream } = await setup();
    upstream.outcomes.push('commit-then-reset', 'ok');
    const [a, b] = await Promise.all([
      post(service, sale('+5511900000031', 1000)),
      post(service, sale('+5511900000031', 2000)),
    ]);
    // Whichever took the customer's slot first had its answer lost; it is verified as
    // posted, and the other sale's posting (sent only after) is not mistaken for it.
    expect([a.state, b.state], JSON.stringify([a.reason, b.reason])).toEqual([
      'lançado',
      'lançado',
    ]);
    expect([a.reason, b.reason].sort()).toEqual([null, postingMessages.verifiedPosted].sort());
    expect(upstream.commits('+5511900000031')).toBe(2);
    expect(upstream.maxInFlight('+5511900000031')).toBe(1);
  });

  test('waiting longer than its bound: recusado (nothing sent)', async () => {
    const { service, upstream } = await setup({ slotWaitMs: 100 });
    upstream.outcomes.push({ delay: 600 });
    const slow = post(service, sale('+5511900000032', 1000));
    await new Promise((r) => setTimeout(r, 30));
    const b = await post(service, sale('+5511900000032', 2000));
    expect(b.state).toBe('recusado');
    expect(b.reason).toBe(postingMessages.busy);
    expect((await slow).state).toBe('lançado');
    expect(upstream.commits('+5511900000032')).toBe(1);
  });
});

describe('a posting taken over before it is sent', () => {
  test('settled by another process while it waited: it is never sent', async () => {
    const { journal, upstream, service } = await setup({ leaseMs: 60_000 });
    const phone = '+5511900000045';
    // Another posting holds the customer, so this one journals and waits for the slot.
    expect(await journal.store.takeSlot(1, phone, 'someone-else', Date.now())).toBe(true);
    const key = randomUUID();
    const pending = post(service, sale(phone), key);
    await expect.poll(async () => (await journal.store.get(key))?.state).toBe('enviando');
    // A process that believed it dead (a stalled event loop) takes it over and settles it.
    const [stolen] = await journal.store.claimStale(
      1,
      Date.now() + 120_000,
      'thief',
      Date.now() + 180_000,
      10,
    );
    expect(stolen?.key).toBe(key);
    await journal.store.update(
      key,
      'thief',
      { state: 'recusado', settledAt: Date.now() },
      Date.now(),
    );
    await journal.store.releaseSlot('someone-else');
    await pending;
    await new Promise((r) => setTimeout(r, 300));
    expect(upstream.commits(phone)).toBe(0);
    expect((await journal.store.get(key))?.state).toBe('recusado');
  });
});

describe('a process that dies mid-posting', () => {
  test('its entry sent but unanswered is settled by the next process from the customer', async () => {
    const journal = await sqliteJournal();
    cleanup.push(journal.close);
    const upstream = scriptedUpstream();
    // The dead process: journaled, sent (the upstream committed), never answered.
    upstream.outcomes.push({ hangAndCommitAfter: 10 });
    const dead = createPostingService({
      store: journal.store,
      call: upstream.call,
      establishmentId: 1,
      ...FAST,
      waitMs: 50,
      upstreamLimitMs: 60_000,
      // Its lease renewal must not outrun the expiry the test forces (it is "dead").
      leaseMs: 60_000,
    });
    const key = randomUUID();
    await dead.submit({ key, terminalId: null, requestId: null, body: sale('+5511900000040') });
    // (no stop(): like kill -9, its timers just stop mattering; its lease is not renewed)
    const e0 = await journal.store.get(key);
    expect(e0?.state).toBe('enviando');
    await journal.store.update(key, e0!.owner!, { leaseUntil: Date.now() - 1 }, Date.now());
    await new Promise((r) => setTimeout(r, 30));

    const next = restartedOn(journal.store, upstream.call);
    const e = await settled(next, key);
    expect(e.state).toBe('lançado');
    expect(upstream.commits('+5511900000040')).toBe(1);
    // The dead process cannot write over the new owner's verdict.
    expect(await journal.store.update(key, e0!.owner!, { state: 'recusado' }, Date.now())).toBe(
      false,
    );
  });

  test('its entry never sent is settled as não lançado (nothing left)', async () => {
    const journal = await sqliteJournal();
    cleanup.push(journal.close);
    const upstream = scriptedUpstream();
    const key = randomUUID();
    await journal.store.create({
      key,
      establishmentId: 1,
      terminalId: null,
      requestId: null,
      fingerprint: 'f',
      customerKey: '+5511900000041',
      customerName: null,
      amount: 1000,
      owner: 'dead',
      leaseUntil: Date.now() - 1,
      createdAt: Date.now(),
    });
    const next = restartedOn(journal.store, upstream.call);
    const e = await settled(next, key);
    expect(e.state).toBe('recusado');
    expect(e.reason).toBe(postingMessages.notSentRestart);
    expect(upstream.calls()).toBe(0);
  });
});

describe('retention', () => {
  test('settled entries older than the retention are pruned; unsettled ones stay', async () => {
    let clock = Date.now();
    const { service, journal } = await setup({ now: () => clock, retentionMs: 1000 });
    const old = await post(service, sale('+5511900000050'));
    await stored(journal, old.key);
    await journal.store.create({
      key: randomUUID(),
      establishmentId: 1,
      terminalId: null,
      requestId: null,
      fingerprint: 'f',
      customerKey: '+5511900000051',
      customerName: null,
      amount: 1,
      owner: 'x',
      leaseUntil: clock + 10 * 3600_000,
      createdAt: clock,
    });
    clock += 2 * 3600_000;
    await service.sweep();
    expect(await journal.store.get(old.key)).toBeNull();
    const rest = await journal.db.selectFrom('posting_journal').select('state').execute();
    expect(rest).toEqual([{ state: 'enviando' }]);
  });
});
