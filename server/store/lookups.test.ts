import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createJournalStore } from './index';
import type { CustomerReading, JournalStore, Store } from './index';
import { describeEngines } from '../testing/pg-cluster';
import { storeFixture } from '../testing/store-fixture';

const stores = storeFixture('lookups-test');

const T0 = 1_763_900_000_000;

const reading = (compras: number, over: Partial<CustomerReading> = {}): CustomerReading => ({
  exists: true,
  id_cliente: 7,
  nome: 'Maria',
  compras,
  ultima_compra: `2026-11-23 10:00:0${compras}`,
  saldo: 10 * compras,
  saldo_carencia: 0,
  ultimo_credito: 10,
  readAt: T0,
  ...over,
});

describeEngines('customer lookups on %s', (engine) => {
  let store: JournalStore;
  let opened: Store;
  beforeAll(async () => {
    opened = await stores.open(engine);

    store = createJournalStore(opened);
  });
  afterAll(() => opened?.close());

  test("a terminal's lookup comes with its customer's slot, for that terminal and customer only", async () => {
    const phone = '+5511933330000';
    const lookup = {
      establishmentId: 1,
      terminalId: '4',
      customerKey: phone,
      turn: 3,
      reading: reading(2),
      readAt: T0,
    };
    await store.saveLookup(lookup);
    const mine = await store.slotState(1, phone, { lookup: '4', queued: true });
    expect(mine).toEqual({
      held: false,
      turn: 0,
      queued: false,
      lookup,
    });
    expect((await store.slotState(1, phone, { lookup: '5' })).lookup).toBeNull();
    expect((await store.slotState(2, phone, { lookup: '4' })).lookup).toBeNull();
    expect((await store.slotState(1, '+5511933339999', { lookup: '4' })).lookup).toBeNull();
    expect(await store.slotState(1, phone)).toEqual({ held: false, turn: 0 });
    // The terminal's next lookup (another customer) replaces it.
    await store.saveLookup({
      establishmentId: 1,
      terminalId: '4',
      customerKey: '+5511933339999',
      turn: 0,
      reading: reading(0, { exists: false, id_cliente: null }),
      readAt: T0 + 1_000,
    });
    expect((await store.slotState(1, phone, { lookup: '4' })).lookup).toBeNull();
    expect((await store.slotState(1, '+5511933339999', { lookup: '4' })).lookup).toMatchObject({
      turn: 0,
      readAt: T0 + 1_000,
      reading: { exists: false },
    });
  });

  test("a posting's points are completed once, from its customer's newest unpointed posting", async () => {
    const phone = '+5511944440000';
    const posted = async (at: number, points: number | null) => {
      const key = randomUUID();
      const started = await store.start(
        {
          key,
          establishmentId: 1,
          terminalId: '4',
          requestId: null,
          fingerprint: 'f'.repeat(64),
          customerKey: phone,
          customerName: null,
          amount: 1000,
          owner: 'me',
          leaseUntil: at + 10_000,
          createdAt: at,
          snapshot: reading(1),
          sentAt: at,
        },
        (await store.slotState(1, phone)).turn,
      );
      expect(started.kind).toBe('started');
      await store.finish(key, 'me', { state: 'lançado', points, settledAt: at }, at);
      return key;
    };
    const old = await posted(T0, null);
    const known = await posted(T0 + 1_000, 10);
    expect((await store.unpointed(1, phone, T0))?.key).toBe(old);
    expect(await store.unpointed(1, phone, T0 + 500)).toBeNull();
    const latest = await posted(T0 + 2_000, null);
    expect((await store.unpointed(1, phone, T0))?.key).toBe(latest);
    expect(await store.unpointed(2, phone, T0)).toBeNull();

    const after = reading(2, { nome: 'Maria da Silva' });
    const patch = { points: 10, reading: after, customerName: 'Maria da Silva' };
    expect(await store.completePoints(latest, patch, T0 + 3_000)).toBe(true);
    expect(await store.completePoints(latest, { ...patch, points: 99 }, T0 + 4_000)).toBe(false);
    expect(await store.completePoints(known, patch, T0 + 4_000)).toBe(false);
    expect(await store.get(latest)).toMatchObject({
      points: 10,
      reading: after,
      customerName: 'Maria da Silva',
      updatedAt: T0 + 3_000,
    });
    expect((await store.get(known))?.points).toBe(10);
  });
});
