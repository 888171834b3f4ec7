import { expect, test } from 'vitest';
import {
  activeTerminal,
  addTerminal,
  hitRate,
  listTerminals,
  lockoutState,
  reserveAttempt,
  settleAttempt,
  openStore,
  recordFailure,
  recordSuccess,
  refundFailure,
  redeemCode,
  revokeTerminal,
} from './index';
import type { Store } from './index';
import type { StoreOptions } from './store';
import { TERMINAL_TRUST_MS } from './terminals/active';
import { describeEngines } from '../testing/pg-cluster';
import { storeFixture } from '../testing/store-fixture';

const stores = storeFixture('store-test');

describeEngines('store on %s', (engine) => {
  let t = 1_700_000_000_000;
  const clock = () => t;

  async function fresh(): Promise<{ store: Store; where: StoreOptions }> {
    const where = { ...(await stores.location(engine)), now: clock };
    return { store: await openStore(where), where };
  }

  /**
   * A second app-server replica on the same database: PostgreSQL only. SQLite is one process's
   * store (better-sqlite3 waits for a lock synchronously, so two connections in one process
   * would block each other); there the "replica" is the same store.
   */
  async function replica(store: Store, where: StoreOptions): Promise<Store> {
    return engine === 'postgres' ? openStore(where) : store;
  }
  async function closeBoth(a: Store, b: Store): Promise<void> {
    await a.close();
    if (b !== a) await b.close();
  }

  test('opens on the engine asked for, migrations are idempotent and replicas may start together', async () => {
    const { store, where } = await fresh();
    expect(store.engine).toBe(engine);
    await store.close();
    const [a, b] = await Promise.all([openStore(where), openStore(where)]);
    expect(await a.db.selectFrom('terminals').selectAll().execute()).toEqual([]);
    await Promise.all([a.close(), b.close()]);
  });

  test('a code enrolls its terminal once, never after 15 minutes, never once revoked', async () => {
    const { store } = await fresh();
    const added = await addTerminal(store, { name: 'Caixa 1', role: 'caixa' });
    expect(added.code).toMatch(/^[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/);
    expect(added.expiresAt - t).toBe(15 * 60_000);
    expect((await listTerminals(store))[0]).toMatchObject({ status: 'aguardando código' });

    // Typed in lower case with a space instead of the dash: still the code.
    const typed = added.code.toLowerCase().replace('-', ' ');
    const redeemed = await redeemCode(store, typed);
    expect(redeemed?.terminal).toMatchObject({
      id: added.terminal.id,
      role: 'caixa',
      name: 'Caixa 1',
    });
    expect(await redeemCode(store, added.code)).toBeNull();
    expect(await activeTerminal(store, added.terminal.id, redeemed!.nonce)).toMatchObject({
      role: 'caixa',
    });
    expect(await activeTerminal(store, added.terminal.id, 'forged-nonce')).toBeNull();

    const late = await addTerminal(store, { name: 'Caixa 2', role: 'caixa' });
    t += 15 * 60_000;
    expect(await redeemCode(store, late.code)).toBeNull();

    const revoked = await addTerminal(store, { name: 'Gerência', role: 'gerente' });
    expect(await revokeTerminal(store, revoked.terminal.id)).toBe(true);
    expect(await redeemCode(store, revoked.code)).toBeNull();
    expect(await revokeTerminal(store, 999)).toBe(false);

    expect((await listTerminals(store)).map((x) => [x.name, x.status])).toEqual([
      ['Caixa 1', 'ativo'],
      ['Caixa 2', 'código expirado'],
      ['Gerência', 'revogado'],
    ]);
    await store.close();
  });

  test('revocation ends an enrolled credential at once, and survives a restart', async () => {
    const { store, where } = await fresh();
    const added = await addTerminal(store, { name: 'Quiosque', role: 'quiosque' });
    const { nonce } = (await redeemCode(store, added.code))!;
    await revokeTerminal(store, added.terminal.id);
    expect(await activeTerminal(store, added.terminal.id, nonce)).toBeNull();
    await store.close();
    const reopened = await openStore(where);
    expect(await activeTerminal(reopened, added.terminal.id, nonce)).toBeNull();
    expect((await listTerminals(reopened))[0]?.status).toBe('revogado');
    await reopened.close();
  });

  test('a terminal checked once and kept in memory is refused as soon as it is revoked, here or elsewhere', async () => {
    const { store, where } = await fresh();
    const enroll = async (name: string) => {
      const added = await addTerminal(store, { name, role: 'caixa' });
      return { id: added.terminal.id, nonce: (await redeemCode(store, added.code))!.nonce };
    };
    const here = await enroll('Caixa 1');
    const elsewhere = await enroll('Caixa 2');
    // PostgreSQL keeps a terminal only once it hears the other replicas: let it subscribe.
    for (let i = 0; i < 3; i++) {
      expect(await activeTerminal(store, here.id, here.nonce)).not.toBeNull();
      expect(await activeTerminal(store, elsewhere.id, elsewhere.nonce)).not.toBeNull();
      if (engine === 'postgres') await new Promise((r) => setTimeout(r, 300));
    }

    // Revoked through this store: refused on the very next check.
    await revokeTerminal(store, here.id);
    expect(await activeTerminal(store, here.id, here.nonce)).toBeNull();

    // Revoked by another connection: `npm run terminal` (another process on the SQLite file,
    // its data_version changes) or another replica (PostgreSQL NOTIFY).
    const other = await openStore(where);
    const started = performance.now();
    await revokeTerminal(other, elsewhere.id);
    let refusedAfter = -1;
    let checks = 0;
    while (performance.now() - started < 5_000) {
      checks++;
      if ((await activeTerminal(store, elsewhere.id, elsewhere.nonce)) === null) {
        refusedAfter = performance.now() - started;
        break;
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    console.log(
      `${engine}: revoked by another connection, refused after ${refusedAfter.toFixed(1)} ms`,
    );
    expect(refusedAfter).toBeGreaterThanOrEqual(0);
    if (engine === 'sqlite') {
      // No waiting at all: the first check after the commit reads the row again.
      expect(checks).toBe(1);
      await other.close();
      return void (await store.close());
    }
    expect(refusedAfter).toBeLessThan(TERMINAL_TRUST_MS);

    // PostgreSQL without a notification (a change behind the store's back): trusted for at
    // most TERMINAL_TRUST_MS.
    const third = await enroll('Caixa 3');
    // Its own enrollment's notification makes this store forget what it kept: let it arrive.
    await new Promise((r) => setTimeout(r, 500));
    expect(await activeTerminal(store, third.id, third.nonce)).not.toBeNull();
    await other.db
      .updateTable('terminals')
      .set({ revoked_at: t, credential_nonce: null })
      .where('id', '=', third.id)
      .execute();
    expect(await activeTerminal(store, third.id, third.nonce)).not.toBeNull();
    t += TERMINAL_TRUST_MS;
    expect(await activeTerminal(store, third.id, third.nonce)).toBeNull();
    await closeBoth(store, other);
  });

  test('a code redeemed by many browsers at once enrolls exactly one', async () => {
    const { store } = await fresh();
    const { code } = await addTerminal(store, { name: 'Caixa 1', role: 'caixa' });
    const results = await Promise.all(Array.from({ length: 20 }, () => redeemCode(store, code)));
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    await store.close();
  });

  test('rate windows count every hit, refuse past the limit and reopen with the next window', async () => {
    const { store } = await fresh();
    t = 1_700_000_040_000; // a multiple of 1 s and 60 s
    const windows = [
      { key: 'terminal:1', windowMs: 1_000, limit: 3 },
      { key: 'terminal:1', windowMs: 60_000, limit: 4 },
    ];
    const first = [];
    for (let i = 0; i < 4; i++) first.push((await hitRate(store, windows)).allowed);
    expect(first).toEqual([true, true, true, false]);
    t += 1_000;
    expect(await hitRate(store, windows)).toEqual({ allowed: false, retryAfterMs: 59_000 });
    t += 59_000;
    expect((await hitRate(store, windows)).allowed).toBe(true);
    // Another key has its own counters.
    expect((await hitRate(store, [{ key: 'terminal:2', windowMs: 1_000, limit: 1 }])).allowed).toBe(
      true,
    );
    await store.close();
  });

  test('two windows of one length (burst and sustained set alike) count each hit once', async () => {
    const { store } = await fresh();
    const windows = [
      { key: 'terminal:5', windowMs: 1_000, limit: 3 },
      { key: 'terminal:5', windowMs: 1_000, limit: 2 },
    ];
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push((await hitRate(store, windows)).allowed);
    // The stricter limit refuses the third hit; no hit was counted twice, none failed.
    expect(answers).toEqual([true, true, false]);
    await store.close();
  });

  test('concurrent hits are all counted (no lost update)', async () => {
    const { store, where } = await fresh();
    const other = await replica(store, where);
    const w = [{ key: 'k', windowMs: 3_600_000, limit: 60 }];
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => hitRate(i % 2 ? store : other, w)),
    );
    expect(results.filter((r) => r.allowed)).toHaveLength(60);
    await closeBoth(store, other);
  });

  test('a reservation committed without its own flush (a journaled posting flushes it) counts the same', async () => {
    const { store, where } = await fresh();
    const key = 'senha:terminal:9';
    const relaxed = { durable: false };
    for (let i = 1; i <= 4; i++)
      expect((await recordFailure(store, key, undefined, relaxed)).failures).toBe(i);
    expect((await recordFailure(store, key, undefined, relaxed)).lockedUntil).toBe(t + 60_000);
    // The next flushed commit of the store (here, a durable reservation) carries it to disk.
    expect((await recordFailure(store, 'senha:terminal:10')).counted).toBe(true);
    await store.close();
    const again = await openStore(where);
    expect((await lockoutState(again, key)).lockedUntil).toBe(t + 60_000);
    await again.close();
  });

  test('postings waiting for their answer never lock a terminal; only wrong answers do', async () => {
    const { store } = await fresh();
    const key = 'senha:terminal:3';
    // Five postings in flight (a slow or refusing service): the sixth waits as busy, no lock.
    for (let i = 0; i < 5; i++) expect((await reserveAttempt(store, key)).counted).toBe(true);
    expect(await reserveAttempt(store, key)).toEqual({
      counted: false,
      lockedUntil: null,
      busy: true,
    });
    // Their answers carry no verdict (a 401 for the store's token, a 503): nothing counted.
    for (let i = 0; i < 5; i++) expect(await settleAttempt(store, key, 'none')).toBeNull();
    expect((await lockoutState(store, key)).lockedUntil).toBeNull();
    expect((await reserveAttempt(store, key)).counted).toBe(true);
    await settleAttempt(store, key, 'none');
    // Parallel guesses: five reach the service, the others wait; five wrong answers lock.
    const guesses = await Promise.all(Array.from({ length: 8 }, () => reserveAttempt(store, key)));
    expect(guesses.filter((g) => g.counted)).toHaveLength(5);
    const ends = [];
    for (let i = 0; i < 5; i++) ends.push(await settleAttempt(store, key, 'wrong'));
    expect(ends).toEqual([null, null, null, null, t + 60_000]);
    expect(await reserveAttempt(store, key)).toEqual({
      counted: false,
      lockedUntil: t + 60_000,
      busy: false,
    });
    // Four wrong and one right: the right one forgets the failures.
    t += 60_000;
    for (let i = 0; i < 4; i++) {
      await reserveAttempt(store, key);
      await settleAttempt(store, key, 'wrong');
    }
    await reserveAttempt(store, key);
    await settleAttempt(store, key, 'right');
    expect((await lockoutState(store, key)).failures).toBe(0);
    // A waiting count left by a crashed replica lapses with the window.
    for (let i = 0; i < 5; i++) await reserveAttempt(store, key);
    expect((await reserveAttempt(store, key)).busy).toBe(true);
    t += 10 * 60_000;
    expect((await reserveAttempt(store, key)).counted).toBe(true);
    await store.close();
  });

  test('5 password failures in 10 minutes lock for 1 minute, then 2, 4…; a success resets', async () => {
    const { store, where } = await fresh();
    const key = 'senha:terminal:1';
    for (let i = 1; i <= 4; i++)
      expect(await recordFailure(store, key)).toEqual({
        lockedUntil: null,
        failures: i,
        counted: true,
      });
    const locked = await recordFailure(store, key);
    expect(locked).toEqual({ lockedUntil: t + 60_000, failures: 0, counted: true });
    expect((await recordFailure(store, key)).counted).toBe(false);
    // Holds across a restart (and on PostgreSQL across replicas).
    await store.close();
    const again = await openStore(where);
    expect((await lockoutState(again, key)).lockedUntil).toBe(t + 60_000);
    t += 60_000;
    expect((await lockoutState(again, key)).lockedUntil).toBeNull();
    for (let i = 0; i < 4; i++) await recordFailure(again, key);
    expect((await recordFailure(again, key)).lockedUntil).toBe(t + 120_000);
    t += 120_000;
    await recordSuccess(again, key);
    for (let i = 0; i < 4; i++) await recordFailure(again, key);
    expect((await recordFailure(again, key)).lockedUntil).toBe(t + 60_000);
    // A refunded attempt (no verdict: the service was down) does not count.
    t += 60_000;
    await recordSuccess(again, key);
    for (let i = 0; i < 4; i++) await recordFailure(again, key);
    await refundFailure(again, key);
    expect((await recordFailure(again, key)).lockedUntil).toBeNull();
    // Failures spread beyond the window do not add up.
    const slow = 'senha:terminal:2';
    for (let i = 0; i < 10; i++) {
      expect((await recordFailure(again, slow)).lockedUntil).toBeNull();
      t += 3 * 60_000;
    }
    await again.close();
  });

  test('concurrent failures from two replicas lock exactly once', async () => {
    const { store, where } = await fresh();
    const other = await replica(store, where);
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => recordFailure(i % 2 ? store : other, 'senha:x')),
    );
    expect(results.filter((r) => r.lockedUntil === null)).toHaveLength(4);
    expect(results.filter((r) => r.counted)).toHaveLength(5);
    const row = await store.db.selectFrom('lockouts').selectAll().executeTakeFirstOrThrow();
    expect(row.strikes).toBe(1);
    await closeBoth(store, other);
  });

  test('failures counted on one replica while successes on another delete the row all answer', async () => {
    const { store, where } = await fresh();
    const other = await replica(store, where);
    const key = 'senha:terminal:3';
    // A success deletes the row a failure inserts if absent and then counts on: the count must
    // never find it gone (a 500 on a posting sent to two replicas at once).
    const settled = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) =>
        i % 2 ? recordFailure(store, key) : recordSuccess(other, key),
      ),
    );
    const refused = settled.filter((r) => r.status === 'rejected');
    console.log(`${engine}: 100 failures racing 100 successes, ${refused.length} threw`);
    expect(refused).toEqual([]);
    await closeBoth(store, other);
  });

  test('a transaction that throws leaves nothing behind', async () => {
    const { store } = await fresh();
    await expect(
      store.transaction(async (trx) => {
        await trx
          .insertInto('terminals')
          .values({ name: 'x', role: 'caixa', created_at: t })
          .execute();
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await store.db.selectFrom('terminals').selectAll().execute()).toEqual([]);
    // The role is checked by the database too.
    await expect(
      store.db
        .insertInto('terminals')
        .values({ name: 'x', role: 'admin' as 'caixa', created_at: t })
        .execute(),
    ).rejects.toThrow();
    await store.close();
  });

  // SQLite only: on PostgreSQL it does not apply (not registered there, rather than skipped).
  if (engine === 'sqlite')
    test('a prepared statement run while a transaction is open waits for it: not rolled back with it, not left unflushed', async () => {
      const { store } = await fresh();
      const { conn } = store.sqlite!;
      const add = conn.prepare(
        'insert into lockouts (key, failures, window_start, strikes) values (?, 0, 0, 0)',
      );
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const failing = store.transaction(
        async (trx) => {
          await trx
            .insertInto('lockouts')
            .values({ key: 'in-transaction', failures: 0, window_start: 0, strikes: 0 })
            .execute();
          await gate;
          throw new Error('boom');
        },
        { durable: false },
      );
      // Let the transaction begin and insert its row.
      await new Promise((r) => setTimeout(r, 10));
      let level: unknown = null;
      const outside = store.sqlite!.run(() => {
        level = conn.pragma('synchronous', { simple: true });
        return add.run('outside').changes;
      });
      release();
      await expect(failing).rejects.toThrow('boom');
      expect(await outside).toBe(1);
      // FULL (2): the relaxed level of the transaction was not in force when it ran.
      expect(level).toBe(2);
      const keys = await store.db.selectFrom('lockouts').select('key').execute();
      expect(keys.map((k) => k.key)).toEqual(['outside']);
      await store.close();
    });

  test('notify reaches listeners (every replica on PostgreSQL)', async () => {
    const { store, where } = await fresh();
    const other = await replica(store, where);
    const got: string[] = [];
    let heard!: () => void;
    const arrived = new Promise<void>((resolve) => (heard = resolve));
    // listen resolves once LISTEN is registered, so the NOTIFY below cannot precede it.
    await other.listen('postings', (p) => {
      got.push(p);
      heard();
    });
    await store.notify('postings', '{"id":1}');
    await arrived;
    expect(got).toEqual(['{"id":1}']);
    await expect(store.notify('bad channel; drop', 'x')).rejects.toThrow('invalid channel');
    await closeBoth(store, other);
  });
});
