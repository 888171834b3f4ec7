// The dashboard's PDV figures (an aggregate over pdv_sales) and a counter's customer display
// (terminals.pdv_kiosk_id), on both engines.
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  addIntegration,
  DAY_MS,
  enrollDirectly,
  pdvPainelGroups,
  pdvDisplayOf,
  revokeTerminal,
  setPdvDisplay,
} from './index';
import type { Store } from './index';
import { describeEngines } from '../testing/pg-cluster';
import { storeFixture } from '../testing/store-fixture';

const stores = storeFixture('pdv-painel-test');

/** 2026-11-23 00:00 in Brasília (UTC-3). */
const OFFSET = -3 * 3_600_000;
const MIDNIGHT = Date.UTC(2026, 10, 23, 3);
const DAY = (MIDNIGHT + OFFSET) / DAY_MS;
const H = 3_600_000;

describeEngines('PDV figures and displays on %s', (engine) => {
  let store: Store;
  let counter = 0;
  let other = 0;
  let kiosk = 0;
  let n = 0;
  const sale = async (at: number, state: string, counterId: number | null = counter) => {
    n += 1;
    await store.db
      .insertInto('pdv_sales')
      .values({
        id: `s-${n}`,
        terminal_id: pdv,
        counter_id: counterId,
        sale_id: `v-${n}`,
        fingerprint: 'f',
        amount: 1000,
        items: null,
        state,
        posting_key: null,
        created_at: at,
        expires_at: at + 600_000,
        updated_at: at,
      })
      .execute();
  };
  let pdv = 0;

  beforeAll(async () => {
    store = await stores.open(engine);

    counter = (await enrollDirectly(store, { name: 'Caixa 1', role: 'caixa' })).terminal.id;
    other = (await enrollDirectly(store, { name: 'Caixa 2', role: 'caixa' })).terminal.id;
    kiosk = (await enrollDirectly(store, { name: 'Tela', role: 'quiosque' })).terminal.id;
    pdv = (await addIntegration(store, { name: 'PDV', counterId: counter })).terminal.id;
    await sale(MIDNIGHT + H, 'lançada');
    await sale(MIDNIGHT + 2 * H, 'lançada');
    await sale(MIDNIGHT + 3 * H, 'não identificada');
    await sale(MIDNIGHT + 4 * H, 'cancelada');
    await sale(MIDNIGHT + 23 * H, 'lançada', other);
    // 00:30 local of the next day.
    await sale(MIDNIGHT + DAY_MS + 30 * 60_000, 'aguardando');
    // Outside the period.
    await sale(MIDNIGHT - 1, 'lançada');
    await sale(MIDNIGHT + 2 * DAY_MS, 'lançada');
  });
  afterAll(() => store?.close());

  test('counts the period by local day, counter and state', async () => {
    const groups = await pdvPainelGroups(store, {
      from: MIDNIGHT,
      to: MIDNIGHT + 2 * DAY_MS,
      offsetMs: OFFSET,
    });
    const rows = groups
      .map((g) => [g.day - DAY, g.counterId === counter ? 'c1' : 'c2', g.state, g.sales])
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    expect(rows).toEqual([
      [0, 'c1', 'cancelada', 1],
      [0, 'c1', 'lançada', 2],
      [0, 'c1', 'não identificada', 1],
      [0, 'c2', 'lançada', 1],
      [1, 'c1', 'aguardando', 1],
    ]);
  });

  test('a counter names its display; a revoked kiosk is no display', async () => {
    expect(await pdvDisplayOf(store, counter)).toBeNull();
    expect(await setPdvDisplay(store, counter, counter)).toBe('no-kiosk');
    expect(await setPdvDisplay(store, kiosk, kiosk)).toBe('no-counter');
    expect(await setPdvDisplay(store, counter, kiosk)).toBe('ok');
    expect(await pdvDisplayOf(store, counter)).toBe(kiosk);
    expect(await pdvDisplayOf(store, other)).toBeNull();
    await revokeTerminal(store, kiosk);
    expect(await pdvDisplayOf(store, counter)).toBeNull();
    expect(await setPdvDisplay(store, counter, null)).toBe('ok');
  });
});
