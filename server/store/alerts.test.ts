// Vigilância's tables (migration 0014) on both engines: an alert is recorded once per rule and
// evidence however often it is evaluated (two processes, the night again), an open alert's
// evidence grows, a decision is taken once, and the rules' reads find what they look for.
import { expect, test } from 'vitest';
import { createAlertsStore } from './index';
import type { NewAlert, Store } from './index';
import { describeEngines } from '../testing/pg-cluster';
import { storeFixture } from '../testing/store-fixture';

const stores = storeFixture('alerts-test');

const alert = (over: Partial<NewAlert> = {}): NewAlert => ({
  establishmentId: 1,
  rule: 'repeticao',
  dedup: 'repeticao:+5511987654321:2026-11-20',
  terminalId: '3',
  customerKey: '+5511987654321',
  day: '2026-11-20',
  amount: null,
  postingKeys: ['a', 'b', 'c', 'd'],
  evidence: { lancamentos_no_dia: 4 },
  summary: '4 lançamentos para o mesmo celular no dia.',
  ...over,
});

describeEngines('vigilância alerts on %s', (engine) => {
  let store: Store;
  stores.openEach(engine, (opened) => (store = opened));

  test('the same rule and evidence is one alert, even recorded at once from two places', async () => {
    const a = createAlertsStore(store);
    const results = await Promise.all([a.record(alert()), a.record(alert()), a.record(alert())]);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.id)).size).toBe(1);
    const grown = await a.record(alert({ postingKeys: ['a', 'b', 'c', 'd', 'e'] }));
    expect(grown.created).toBe(false);
    const listed = await a.list({
      establishmentId: 1,
      rule: null,
      state: null,
      terminalId: null,
      day: null,
      customerKey: null,
      limit: 10,
      offset: 0,
    });
    expect(listed.total).toBe(1);
    expect(JSON.parse(listed.rows[0]!.posting_keys)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(await a.openCounts(1)).toEqual({ repeticao: 1 });
  });

  test('a decision is taken once; a decided alert keeps its evidence', async () => {
    const a = createAlertsStore(store);
    const { id } = await a.record(alert());
    const first = await a.decide(1, id, 'descartado', 'família', 'Gerência');
    expect(first?.state).toBe('descartado');
    expect(await a.decide(1, id, 'reconhecido', 'outra', 'Gerência')).toBeNull();
    await a.record(alert({ postingKeys: ['x'] }));
    expect(JSON.parse((await a.get(1, id))!.posting_keys)).toEqual(['a', 'b', 'c', 'd']);
    expect(await a.flaggedKeys(1, '+5511987654321')).toEqual(new Set());
  });

  test('a night is claimed by one process only', async () => {
    const a = createAlertsStore(store);
    const claims = await Promise.all([
      a.claimNight(1, '2026-11-20'),
      a.claimNight(1, '2026-11-20'),
    ]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await a.claimNight(2, '2026-11-20')).toBe(true);
  });
});
