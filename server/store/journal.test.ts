import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createJournalStore, openStore } from './index';
import type { JournalStore, NewEntry, Store } from './index';
import { describeEngines } from '../testing/pg-cluster';
import { storeFixture } from '../testing/store-fixture';

const stores = storeFixture('journal-test');

const T0 = 1_763_900_000_000;

function entry(over: Partial<NewEntry> = {}): NewEntry {
  return {
    key: randomUUID(),
    establishmentId: 1,
    terminalId: 'caixa-1',
    requestId: 'req-1',
    fingerprint: 'a'.repeat(64),
    customerKey: '+5511987654321',
    customerName: 'Maria',
    amount: 2590,
    owner: 'me',
    leaseUntil: T0 + 10_000,
    createdAt: T0,
    ...over,
  };
}

describeEngines('postings journal on %s', (engine) => {
  let store: JournalStore;
  let opened: Store;
  let databaseUrl: string | null = null;
  beforeAll(async () => {
    const where = await stores.location(engine);
    if ('databaseUrl' in where) databaseUrl = where.databaseUrl;
    opened = await openStore(where);
    store = createJournalStore(opened);
  });
  afterAll(() => opened?.close());

  test('an entry is created once; the same key answers the existing entry', async () => {
    const e = entry();
    expect(await store.create(e)).toEqual({ created: true });
    const again = await store.create({ ...e, fingerprint: 'b'.repeat(64) });
    expect(again.created).toBe(false);
    if (!again.created) {
      expect(again.existing).toMatchObject({
        key: e.key,
        fingerprint: e.fingerprint,
        state: 'enviando',
        amount: 2590,
        createdAt: T0,
      });
    }
  });

  test('only the owner may update an entry; the patch round-trips', async () => {
    const e = entry();
    await store.create(e);
    const snapshot = {
      exists: true,
      id_cliente: 7,
      nome: 'Maria',
      compras: 3,
      ultima_compra: '2026-11-23 10:00:00',
      saldo: 40,
      saldo_carencia: 0,
      ultimo_credito: 25,
    };
    expect(await store.update(e.key, 'someone-else', { state: 'lançado' }, T0 + 1)).toBe(false);
    expect(
      await store.update(
        e.key,
        'me',
        {
          state: 'lançado',
          snapshot,
          sentAt: T0 + 5,
          answerStatus: 200,
          answerBody: '{"success":true}',
          points: 25,
        },
        T0 + 9,
      ),
    ).toBe(true);
    expect(await store.get(e.key)).toMatchObject({
      state: 'lançado',
      snapshot,
      sentAt: T0 + 5,
      answerStatus: 200,
      points: 25,
      updatedAt: T0 + 9,
    });
  });

  test('one slot per establishment and customer; released, it can be taken again', async () => {
    const a = entry({ customerKey: '+5511911110000' });
    const b = entry({ customerKey: '+5511911110000' });
    const other = entry({ customerKey: '+5511911110000', establishmentId: 2 });
    const results = await Promise.all([
      store.takeSlot(1, a.customerKey, a.key, T0),
      store.takeSlot(1, b.customerKey, b.key, T0),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
    const holder = results[0] ? a : b;
    const waiter = results[0] ? b : a;
    expect(await store.takeSlot(2, other.customerKey, other.key, T0)).toBe(true);
    expect(await store.takeSlot(1, waiter.customerKey, waiter.key, T0)).toBe(false);
    expect(await store.takeSlot(1, holder.customerKey, holder.key, T0)).toBe(true); // re-entrant
    await store.releaseSlot(holder.key);
    expect(await store.takeSlot(1, waiter.customerKey, waiter.key, T0)).toBe(true);
  });

  test('the fast path journals an entry as sent and takes the slot in one step, at the turn read', async () => {
    const phone = '+5511922220000';
    const snapshot = {
      exists: true,
      id_cliente: 8,
      nome: 'Ana',
      compras: 2,
      ultima_compra: '2026-11-23 09:00:00',
      saldo: 10,
      saldo_carencia: 0,
      ultimo_credito: 10,
    };
    const started = (over: Partial<NewEntry> = {}) => ({
      ...entry({ customerKey: phone, ...over }),
      snapshot,
      sentAt: T0 + 1,
    });
    expect(await store.slotState(1, phone)).toEqual({ held: false, turn: 0 });
    // Many sales read the customer while the slot was free: exactly one starts.
    const sales = Array.from({ length: 6 }, () => started());
    const results = await Promise.all(sales.map((e) => store.start(e, 0)));
    expect(results.filter((r) => r.kind === 'started')).toHaveLength(1);
    expect(results.filter((r) => r.kind === 'moved')).toHaveLength(5);
    const winner = sales[results.findIndex((r) => r.kind === 'started')]!;
    expect(await store.get(winner.key)).toMatchObject({
      state: 'enviando',
      snapshot,
      sentAt: T0 + 1,
    });
    // What start answers is the entry as stored (the posting goes on without reading it back).
    expect(results.find((r) => r.kind === 'started')).toEqual({
      kind: 'started',
      entry: await store.get(winner.key),
    });
    expect(await store.get(sales.find((e) => e !== winner)!.key)).toBeNull();
    expect(await store.slotState(1, phone)).toEqual({ held: true, holder: winner.key, turn: 1 });
    // The same key again is that sale.
    expect(await store.start(winner, 1)).toMatchObject({ kind: 'exists' });
    // Settled: the final state and the slot's release are one write.
    expect(
      await store.finish(winner.key, 'me', { state: 'lançado', settledAt: T0 + 2 }, T0 + 2),
    ).toBe(true);
    expect((await store.get(winner.key))?.state).toBe('lançado');
    expect(await store.slotState(1, phone)).toEqual({ held: false, turn: 1 });
    // A sale that read the customer before that posting (turn 0) must not start.
    expect(await store.start(started(), 0)).toEqual({ kind: 'moved' });
    // The slow path's slot counts a turn too.
    const slow = started();
    expect(await store.takeSlot(1, phone, slow.key, T0)).toBe(true);
    expect(await store.slotState(1, phone)).toEqual({ held: true, holder: slow.key, turn: 2 });
    await store.releaseSlot(slow.key);
    expect(await store.start(started(), 2)).toMatchObject({ kind: 'started' });
  });

  test('the slot, its turn and whether the customer has kept sales, read in one statement', async () => {
    const phone = '+5511922220001';
    expect(await store.slotState(1, phone, { queued: true })).toEqual({
      held: false,
      turn: 0,
      queued: false,
    });
    const kept = entry({ customerKey: phone });
    await store.enqueue({ ...kept, body: { valor_gasto: 1 }, secret: 's', reason: null });
    expect(await store.takeSlot(1, phone, 'other', T0)).toBe(true);
    expect(await store.slotState(1, phone, { queued: true })).toEqual({
      held: true,
      holder: 'other',
      turn: 1,
      queued: true,
    });
    expect(await store.slotState(2, phone, { queued: true })).toEqual({
      held: false,
      turn: 0,
      queued: false,
    });
  });

  test('a commit that need not be flushed (durable: false) is written all the same', async () => {
    const e = entry({ customerKey: '+5511922220002' });
    await store.create(e);
    expect(await store.takeSlot(1, e.customerKey, e.key, T0)).toBe(true);
    expect(
      await store.finish(e.key, 'me', { state: 'lançado', points: 7 }, T0 + 1, { durable: false }),
    ).toBe(true);
    expect(await store.get(e.key)).toMatchObject({ state: 'lançado', points: 7 });
    expect(await store.slotState(1, e.customerKey)).toEqual({ held: false, turn: 1 });
    // The connection is back to flushed commits for what follows.
    if (engine === 'sqlite') {
      const { rows } = await sql<{ synchronous: number }>`pragma synchronous`.execute(opened.db);
      expect(rows).toEqual([{ synchronous: 2 }]);
    }
  });

  test('one key journaled from two replicas at once: one entry, every loser reads it', async () => {
    // On PostgreSQL a second store on the same database is another replica; SQLite's store is
    // one process's, so there both sides are the same store.
    const other =
      databaseUrl === null ? store : createJournalStore(await openStore({ databaseUrl }));
    const snapshot = {
      exists: true,
      id_cliente: 9,
      nome: 'Bia',
      compras: 0,
      ultima_compra: null,
      saldo: 0,
      saldo_carencia: 0,
      ultimo_credito: null,
    };
    const tally = { won: 0, readTheWinner: 0, other: 0 };
    try {
      for (let round = 0; round < 20; round++) {
        const e = entry({ customerKey: `+55119333300${String(round).padStart(2, '0')}` });
        const started = { ...e, snapshot, sentAt: T0 + 1 };
        const results = await Promise.all([
          store.start(started, 0),
          other.start(started, 0),
          store.create(e),
          other.create(e),
        ]);
        for (const r of results) {
          if (('kind' in r && r.kind === 'started') || ('created' in r && r.created)) tally.won++;
          else if ('existing' in r && r.existing.key === e.key) tally.readTheWinner++;
          else tally.other++;
        }
      }
    } finally {
      if (other !== store) await other.store.close();
    }
    console.log(
      `${engine}: 20 keys, each started and created twice at once from two stores: ${tally.won} won, ${tally.readTheWinner} read the winner's entry, ${tally.other} other`,
    );
    expect(tally).toEqual({ won: 20, readTheWinner: 60, other: 0 });
  });

  test('stale entries are claimed by exactly one of two processes, and only by their store', async () => {
    const stale = entry({ owner: 'dead', leaseUntil: T0 + 50 });
    const alive = entry({ owner: 'alive', leaseUntil: T0 + 5_000 });
    const dueCheck = entry({ owner: 'x', leaseUntil: T0 + 50 });
    // Another store's entry, as stale: read and re-sent with that store's token only.
    const otherStore = entry({ owner: 'dead', leaseUntil: T0 + 50, establishmentId: 2 });
    for (const e of [stale, alive, dueCheck, otherStore]) await store.create(e);
    await store.update(
      dueCheck.key,
      'x',
      { state: 'desconhecido', nextCheckAt: T0 + 99, leaseUntil: T0 + 98 },
      T0,
    );
    const now = T0 + 100;
    const [p, q] = await Promise.all([
      store.claimStale(1, now, 'p', now + 1000, 50),
      store.claimStale(1, now, 'q', now + 1000, 50),
    ]);
    const claimed = [...p, ...q]
      .map((e) => e.key)
      .filter((k) => [stale.key, alive.key, dueCheck.key].includes(k));
    expect(claimed.sort()).toEqual([stale.key, dueCheck.key].sort());
    expect((await store.get(stale.key))?.owner).toMatch(/^[pq]$/);
    expect((await store.get(alive.key))?.owner).toBe('alive');
    expect((await store.get(otherStore.key))?.owner).toBe('dead');
    const theirs = await store.claimStale(2, now, 'r', now + 1000, 50);
    expect(theirs.map((e) => e.key)).toEqual([otherStore.key]);
  });

  /**
   * Four entries of one establishment from `base`: caixa-a's, caixa-b's 10 ms later, caixa-a's
   * 20 ms later, and caixa-a's 5 s later (past a 1 s period).
   */
  async function fourEntries(base: number, establishmentId: number) {
    const at = (ms: number, terminalId: string) =>
      entry({ createdAt: base + ms, terminalId, establishmentId });
    const made: [NewEntry, NewEntry, NewEntry, NewEntry] = [
      at(0, 'caixa-a'),
      at(10, 'caixa-b'),
      at(20, 'caixa-a'),
      at(5_000, 'caixa-a'),
    ];
    for (const e of made) await store.create(e);
    return made;
  }

  test('the ledger lists one establishment, newest first, by terminal and period', async () => {
    const base = T0 + 1_000_000;
    const [a, b, c] = await fourEntries(base, 9);
    const day = { establishmentId: 9, from: base, to: base + 1_000 };
    expect((await store.list(day)).map((e) => e.key)).toEqual([c.key, b.key, a.key]);
    expect((await store.list({ ...day, terminalId: 'caixa-a' })).map((e) => e.key)).toEqual([
      c.key,
      a.key,
    ]);
  });

  test('unsettled entries of earlier days are listed apart, by terminal', async () => {
    const base = T0 + 2_000_000;
    const [open1, open2, done] = await fourEntries(base, 8);
    await store.update(done.key, 'me', { state: 'lançado' }, base);
    await store.update(open2.key, 'me', { state: 'desconhecido' }, base);
    const before = { establishmentId: 8, before: base + 1_000 };
    expect((await store.listUnsettled(before)).map((e) => e.key)).toEqual([open2.key, open1.key]);
    expect(
      (await store.listUnsettled({ ...before, terminalId: 'caixa-a' })).map((e) => e.key),
    ).toEqual([open1.key]);
  });

  test('pruning removes settled entries older than the limit and keeps unsettled ones', async () => {
    const old = entry({ createdAt: T0 - 100, establishmentId: 5 });
    const oldUnsettled = entry({ createdAt: T0 - 100, establishmentId: 5 });
    const recent = entry({ createdAt: T0 + 100, establishmentId: 5 });
    for (const e of [old, oldUnsettled, recent]) await store.create(e);
    await store.update(old.key, 'me', { state: 'lançado' }, T0);
    await store.update(recent.key, 'me', { state: 'lançado' }, T0);
    expect(await store.prune(T0)).toBeGreaterThanOrEqual(1);
    expect(await store.get(old.key)).toBeNull();
    expect(await store.get(oldUnsettled.key)).not.toBeNull();
    expect(await store.get(recent.key)).not.toBeNull();
  });
  test('kept sales: claimed oldest first, one per customer, never a busy customer, once', async () => {
    const est = 20;
    const kept = (customerKey: string, at: number) => ({
      ...entry({ establishmentId: est, customerKey, createdAt: T0 + at, leaseUntil: 0 }),
      body: { valor_gasto: 100 + at, cliente: { celular: customerKey } },
      secret: 'v1.sealed',
      reason: 'guardado',
    });
    const a1 = kept('+5511900000001', 1);
    const b1 = kept('+5511900000002', 2);
    const a2 = kept('+5511900000001', 3);
    const c1 = kept('+5511900000003', 4);
    for (const e of [a2, c1, b1, a1]) expect(await store.enqueue(e)).toEqual({ created: true });
    expect((await store.enqueue({ ...a1, amount: 1 })).created).toBe(false);
    // A posting of customer c is in flight: c waits.
    await store.create(entry({ establishmentId: est, customerKey: c1.customerKey }));
    expect(await store.queueStats(est)).toEqual({
      waiting: 4,
      attention: 0,
      oldestWaitingAt: T0 + 1,
    });
    expect(await store.customerQueued(est, a1.customerKey)).toBe(true);
    expect(await store.customerQueued(est, '+5511900000009')).toBe(false);

    // Two replicas claim at once: each sale goes to one of them.
    const [r1, r2] = await Promise.all([
      store.claimWaiting(est, T0 + 10, 'r1', T0 + 1_000, 5),
      store.claimWaiting(est, T0 + 10, 'r2', T0 + 1_000, 5),
    ]);
    const claimed = [...r1, ...r2];
    expect(claimed.map((e) => e.key).sort()).toEqual([a1.key, b1.key].sort());
    expect(claimed.every((e) => e.state === 'enviando' && e.attempts === 1)).toBe(true);
    expect(claimed.find((e) => e.key === a1.key)?.body).toEqual(a1.body);
    // a1 is in flight: a2 stays behind it, still counted as waiting.
    expect(await store.claimWaiting(est, T0 + 11, 'r1', T0 + 1_000, 5)).toEqual([]);
    expect((await store.queueStats(est)).waiting).toBe(4);
    const owner = r1.some((e) => e.key === a1.key) ? 'r1' : 'r2';
    expect(await store.finish(a1.key, owner, { state: 'lançado', secret: null }, T0 + 12)).toBe(
      true,
    );
    expect(await store.get(a1.key)).toMatchObject({ state: 'lançado', secret: null });
    const next = await store.claimWaiting(est, T0 + 13, 'r1', T0 + 1_000, 5);
    expect(next.map((e) => e.key)).toEqual([a2.key]);
  });

  test("a manager's decision applies once, only to a sale needing attention", async () => {
    const e = {
      ...entry({ establishmentId: 21, leaseUntil: 0 }),
      body: { valor_gasto: 10 },
      secret: 'v1.old',
      reason: null,
    };
    await store.enqueue(e);
    expect(await store.resolveAttention(e.key, T0, { discard: { reason: 'x' } })).toBe(false);
    const [claimed] = await store.claimWaiting(21, T0, 'me', T0 + 100, 1);
    expect(claimed?.key).toBe(e.key);
    await store.finish(e.key, 'me', { state: 'precisa de atenção', secret: null }, T0 + 1);
    expect((await store.queueStats(21)).attention).toBe(1);
    expect(await store.resolveAttention(e.key, T0 + 2, { resend: { secret: 'v1.new' } })).toBe(
      true,
    );
    expect(await store.get(e.key)).toMatchObject({ state: 'aguardando envio', secret: 'v1.new' });
    expect(await store.resolveAttention(e.key, T0 + 3, { resend: { secret: 'v1.x' } })).toBe(false);
    const [again] = await store.claimWaiting(21, T0 + 4, 'me', T0 + 100, 1);
    // A manager's resend starts its tries afresh (the cap of tries counts from it).
    expect(again?.attempts).toBe(1);
    await store.finish(e.key, 'me', { state: 'precisa de atenção', secret: null }, T0 + 5);
    expect(await store.resolveAttention(e.key, T0 + 6, { discard: { reason: 'descartada' } })).toBe(
      true,
    );
    expect(await store.get(e.key)).toMatchObject({
      state: 'descartado',
      reason: 'descartada',
      settledAt: T0 + 6,
      secret: null,
    });
    // Waiting and attention entries are never pruned.
    const waiting = { ...e, key: randomUUID(), createdAt: T0 - 1_000 };
    await store.enqueue(waiting);
    await store.prune(T0 + 1_000_000);
    expect(await store.get(waiting.key)).not.toBeNull();
  });

  test('a hand-over keeps its kind and reward; a posting is of kind pontos', async () => {
    const posting = entry();
    await store.create(posting);
    expect(await store.get(posting.key)).toMatchObject({ kind: 'pontos', reward: null });
    const reward = { id_premio: 1, id_cliente: 2, id_premio_cliente: null, nome: 'Vale' };
    const e = entry({ amount: 0, kind: 'premio', reward: { ...reward, before: null } });
    await store.create(e);
    expect(await store.get(e.key)).toMatchObject({
      kind: 'premio',
      reward: { ...reward, before: null },
    });
    const before = { pendentes: [4, 5], resgatados: [1] };
    expect(
      await store.update(e.key, 'me', { reward: { ...reward, before }, sentAt: T0 }, T0, [
        'enviando',
      ]),
    ).toBe(true);
    await store.finish(
      e.key,
      'me',
      { state: 'lançado', reward: { ...reward, id_premio_cliente: 4, before } },
      T0,
    );
    const done = await store.get(e.key);
    expect(done).toMatchObject({ state: 'lançado', kind: 'premio', sentAt: T0 });
    expect(done!.reward).toEqual({ ...reward, id_premio_cliente: 4, before });
    const listed = await store.list({ establishmentId: 1, from: T0 - 1, to: T0 + 1 });
    expect(listed.find((l) => l.key === e.key)?.kind).toBe('premio');
  });
});
