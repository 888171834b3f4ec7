// The chain's sweep probe on both engines: which stores' sweeps have work (a superset of what
// each store's own sweep would find), and the gate over it that lets a store's tick through.
import { randomUUID } from 'node:crypto';
import { expect, test } from 'vitest';
import { addIntegration, addTerminal, createJournalStore, createPdvSalesStore } from './index';
import type { NewEntry, Store } from './index';
import { storesToSweep } from './sweep-probe';
import { createSweepGate } from '../app/domain/sweep-gate';
import { describeEngines } from '../testing/pg-cluster';
import { storeFixture } from '../testing/store-fixture';

const stores = storeFixture('sweep-probe-test');

describeEngines('the sweep probe on %s', (engine) => {
  let store: Store;
  stores.openEach(engine, (opened) => (store = opened));

  const entry = (establishmentId: number, leaseUntil: number): NewEntry => ({
    key: randomUUID(),
    establishmentId,
    terminalId: 'caixa-1',
    requestId: 'req-1',
    fingerprint: 'a'.repeat(64),
    customerKey: `+55119876543${establishmentId}`,
    customerName: 'Maria',
    amount: 2590,
    owner: 'someone',
    leaseUntil,
    createdAt: Date.now(),
  });

  /** A PDV of a counter of `establishmentId` (null: a terminal of no named store). */
  async function pdvOf(establishmentId: number | null) {
    const counter = await addTerminal(store, { name: 'Caixa', role: 'caixa', establishmentId });
    return (await addIntegration(store, { name: 'PDV', counterId: counter.terminal.id })).terminal;
  }

  test('names the stores with a stale entry, a kept sale or a PDV sale due; no others', async () => {
    const now = Date.now();
    const journal = createJournalStore(store);
    expect(await storesToSweep(store, now)).toEqual({ journal: new Set(), pdv: new Set() });
    // Store 2: an entry in flight whose lease ran out (its process died). Store 3: one whose
    // process is alive. Store 4: a kept sale waiting for delivery.
    await journal.create(entry(2, now - 1_000));
    await journal.create(entry(3, now + 60_000));
    const kept = entry(4, now + 60_000);
    await journal.create(kept);
    await journal.update(kept.key, 'someone', { state: 'aguardando envio' }, now);
    const pdv = createPdvSalesStore(store);
    const sale = (terminalId: number, state: 'aguardando' | 'lançando', expiresAt: number) =>
      pdv.insert({
        id: randomUUID(),
        terminalId,
        counterId: null,
        saleId: randomUUID(),
        fingerprint: 'b'.repeat(64),
        amount: 1_000,
        items: null,
        state,
        postingKey: null,
        expiresAt,
      });
    // Store 5: a sale past its time. Store 6: one still within it. Store 7: one being posted.
    // A terminal of no named store: a sale past its time (the default store's).
    await sale((await pdvOf(5)).id, 'aguardando', now - 1);
    await sale((await pdvOf(6)).id, 'aguardando', now + 600_000);
    await sale((await pdvOf(7)).id, 'lançando', now + 600_000);
    await sale((await pdvOf(null)).id, 'aguardando', now - 1);
    const found = await storesToSweep(store, now);
    expect([...found.journal].sort()).toEqual([2, 4]);
    expect([...found.pdv].sort()).toEqual([5, 7, null]);
  });

  test("the gate lets a store's first tick through, then only when it has work", async () => {
    const journal = createJournalStore(store);
    const gate = createSweepGate(store, { everyMs: 0, forceEvery: 5 });
    const ticks = async (id: number, n: number) => {
      const out: boolean[] = [];
      for (let i = 0; i < n; i++) out.push(await gate.due('journal', id));
      return out;
    };
    expect(await ticks(2, 6)).toEqual([true, false, false, false, false, true]);
    await journal.create(entry(2, Date.now() - 1_000));
    expect(await ticks(2, 2)).toEqual([true, true]);
    expect(await ticks(3, 2)).toEqual([true, false]);
    // The default store's PDV sweep also covers terminals of no named store.
    const counter = await addTerminal(store, {
      name: 'Caixa',
      role: 'caixa',
      establishmentId: null,
    });
    const { terminal } = await addIntegration(store, {
      name: 'PDV',
      counterId: counter.terminal.id,
    });
    await createPdvSalesStore(store).insert({
      id: randomUUID(),
      terminalId: terminal.id,
      counterId: null,
      saleId: randomUUID(),
      fingerprint: 'c'.repeat(64),
      amount: 500,
      items: null,
      state: 'lançando',
      postingKey: null,
      expiresAt: Date.now() + 60_000,
    });
    expect([await gate.due('pdv', 1, true), await gate.due('pdv', 1, true)]).toEqual([true, true]);
    expect([await gate.due('pdv', 8), await gate.due('pdv', 8)]).toEqual([true, false]);
  });
});
