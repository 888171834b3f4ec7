import { beforeEach, expect, test } from 'vitest';
import {
  claimStaleRuns,
  createRun,
  finishRun,
  markReported,
  pendingCustomers,
  saveCustomer,
} from './index';
import type { NewRun, Store } from './index';
import { describeEngines } from '../testing/pg-cluster';
import { storeFixture } from '../testing/store-fixture';

const stores = storeFixture('reconciliation-test');

let clock = 1_000_000;
const run = (over: Partial<NewRun> = {}): NewRun => ({
  establishmentId: 1,
  day: '2026-11-22',
  offsetMin: -180,
  origin: 'gerente',
  owner: 'a',
  leaseUntil: clock + 15_000,
  customers: ['+5511900000001', '+5511900000002'],
  postings: 3,
  ...over,
});
const found = { confirmed: 1, findings: [], reads: 1, idCliente: 7 };

describeEngines('the conferência’s runs on %s', (engine) => {
  let store: Store;
  beforeEach(async () => {
    clock = 1_000_000;
    store = await stores.open(engine, { now: () => clock });
    return () => store.close();
  });

  test('one run of a day at a time, and one nightly run of a day, whichever asks', async () => {
    const first = await createRun(store, run());
    expect(first.created).toBe(true);
    const again = await createRun(store, run({ owner: 'b' }));
    expect(again).toMatchObject({ created: false, run: { id: first.run!.id, owner: 'a' } });
    await finishRun(store, first.run!.id, 'a', { confirmed: 0, findings: 0, summary: {} });
    expect((await createRun(store, run({ owner: 'b' }))).created).toBe(true);
    const other = run({ day: '2026-11-21', origin: 'noite' });
    const night = await createRun(store, other);
    await finishRun(store, night.run!.id, 'a', { confirmed: 0, findings: 0, summary: {} });
    expect(await createRun(store, { ...other, owner: 'c' })).toMatchObject({
      created: false,
      run: { id: night.run!.id },
    });
  });

  test('a run whose lease ran out is taken over and goes on where it stopped', async () => {
    const { run: r } = await createRun(store, run());
    expect(await saveCustomer(store, r!.id, 'a', { ...found, customerKey: '+5511900000001' })).toBe(
      true,
    );
    expect(await claimStaleRuns(store, 1, 'b', clock + 15_000)).toEqual([]);
    clock += 16_000;
    const [taken] = await claimStaleRuns(store, 1, 'b', clock + 15_000);
    expect(taken).toMatchObject({ id: r!.id, owner: 'b', done: 1 });
    // The first owner no longer writes; the new one reads what is left.
    expect(await saveCustomer(store, r!.id, 'a', { ...found, customerKey: '+5511900000002' })).toBe(
      false,
    );
    expect(await pendingCustomers(store, r!.id)).toEqual(['+5511900000002']);
    const done = await finishRun(store, r!.id, 'b', { confirmed: 1, findings: 0, summary: {} });
    expect(done?.state).toBe('concluída');
    expect([await markReported(store, r!.id), await markReported(store, r!.id)]).toEqual([
      true,
      false,
    ]);
  });
});
