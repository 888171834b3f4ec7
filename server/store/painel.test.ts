import { afterAll, beforeAll, expect, test } from 'vitest';
import { DAY_MS, painelGroups, painelGroupsCached } from './index';
import type { Store } from './index';
import { describeEngines } from '../testing/pg-cluster';
import { storeFixture } from '../testing/store-fixture';

const stores = storeFixture('dashboard-test');

/** 2026-11-23 00:00 in Brasília (UTC-3). */
const OFFSET = -3 * 3_600_000;
const MIDNIGHT = Date.UTC(2026, 10, 23, 3);
const DAY = (MIDNIGHT + OFFSET) / DAY_MS;
let n = 0;

async function row(
  store: Store,
  over: {
    at: number;
    state?: string;
    terminal?: string | null;
    points?: number | null;
    amount?: number;
    establishment?: number;
    snapshot?: string | null;
    body?: string | null;
    sentAt?: number | null;
    kind?: 'pontos' | 'premio';
  },
) {
  n += 1;
  await store.db
    .insertInto('posting_journal')
    .values({
      key: `k-${n}`,
      establishment_id: over.establishment ?? 1,
      terminal_id: over.terminal === undefined ? '1' : over.terminal,
      request_id: null,
      fingerprint: 'f',
      customer_key: `+55119876500${String(n).padStart(2, '0')}`,
      customer_name: null,
      amount: over.amount ?? 1000,
      state: over.state ?? 'lançado',
      reason: null,
      answer_status: null,
      answer_body: null,
      snapshot: over.snapshot === undefined ? '{"exists":true}' : over.snapshot,
      reading: null,
      points: over.points === undefined ? 10 : over.points,
      lost_kind: null,
      created_at: over.at,
      sent_at: over.sentAt ?? null,
      ended_at: null,
      updated_at: over.at,
      settled_at: null,
      owner: null,
      lease_until: 0,
      next_check_at: null,
      body: over.body ?? null,
      secret: null,
      kind: over.kind ?? 'pontos',
    })
    .execute();
}

describeEngines('dashboard figures on %s', (engine) => {
  let store: Store;
  beforeAll(async () => {
    store = await stores.open(engine);

    const H = 3_600_000;
    await row(store, { at: MIDNIGHT + H, points: 25, amount: 2500 });
    await row(store, { at: MIDNIGHT + 2 * H, points: 5, snapshot: '{"exists":false,"compras":0}' });
    await row(store, { at: MIDNIGHT + 23 * H, terminal: '2', state: 'recusado', points: null });
    // A reward handed over: a group of its own kind.
    await row(store, { at: MIDNIGHT + 3 * H, kind: 'premio', points: null, amount: 0 });
    // The next local day (21:00 UTC-3 is still the 23rd; 03:30 UTC of the 24th is 00:30 local).
    await row(store, {
      at: MIDNIGHT + DAY_MS + 30 * 60_000,
      body: '{}',
      sentAt: MIDNIGHT + DAY_MS + 90 * 60_000,
      points: 7,
    });
    await row(store, {
      at: MIDNIGHT + DAY_MS + H,
      body: '{}',
      state: 'aguardando envio',
      points: null,
    });
    // Outside: before the period, after it, another establishment.
    await row(store, { at: MIDNIGHT - 1 });
    await row(store, { at: MIDNIGHT + 2 * DAY_MS });
    await row(store, { at: MIDNIGHT + H, establishment: 2 });
  });
  afterAll(() => store?.close());

  test('groups the period by local day, terminal, state and kind', async () => {
    const groups = await painelGroups(store, {
      establishmentId: 1,
      from: MIDNIGHT,
      to: MIDNIGHT + 2 * DAY_MS,
      offsetMs: OFFSET,
    });
    const sorted = [...groups].sort(
      (a, b) =>
        a.day - b.day ||
        a.kind.localeCompare(b.kind) ||
        a.state.localeCompare(b.state) ||
        String(a.terminalId).localeCompare(String(b.terminalId)),
    );
    expect(
      sorted.map((g) => [g.day - DAY, g.kind, g.terminalId, g.state, g.postings, g.points]),
    ).toEqual([
      [0, 'pontos', '1', 'lançado', 2, 30],
      [0, 'pontos', '2', 'recusado', 1, 0],
      [0, 'premio', '1', 'lançado', 1, 0],
      [1, 'pontos', '1', 'aguardando envio', 1, 0],
      [1, 'pontos', '1', 'lançado', 1, 7],
    ]);
    expect(sorted[0]).toMatchObject({ amount: 3500, registered: 1, kept: 0 });
    expect(sorted[4]).toMatchObject({
      kept: 1,
      keptDelivered: 1,
      keptWaitMs: 3_600_000,
      keptMaxWaitMs: 3_600_000,
    });
    expect(sorted[3]).toMatchObject({ kept: 1, keptDelivered: 0, keptWaitMs: 0 });
  });

  test('an empty period has no groups', async () => {
    expect(
      await painelGroups(store, { establishmentId: 1, from: 0, to: 1000, offsetMs: OFFSET }),
    ).toEqual([]);
  });

  test('past days come from the cache, equal to the journal, until an entry changes', async () => {
    const sort = (gs: Awaited<ReturnType<typeof painelGroups>>) =>
      [...gs].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    // A week ending on the 24th, looked at on the 26th: the 18th–24th are all closed.
    const filter = {
      establishmentId: 1,
      from: MIDNIGHT - 5 * DAY_MS,
      to: MIDNIGHT + 2 * DAY_MS,
      offsetMs: OFFSET,
    };
    const now = MIDNIGHT + 3 * DAY_MS + 3_600_000;
    const raw = sort(await painelGroups(store, filter));
    expect(sort(await painelGroupsCached(store, filter, now))).toEqual(raw);
    const cachedDays = await store.db
      .selectFrom('dashboard_days')
      .select(['day'])
      .where('establishment_id', '=', 1)
      .execute();
    expect(cachedDays.map((d) => d.day - DAY).sort((a, b) => a - b)).toEqual([
      -5, -4, -3, -2, -1, 0, 1,
    ]);
    // Read again: the same figures, from the cache (a cached day's text is what is answered).
    await store.db
      .updateTable('dashboard_days')
      .set({ groups: '[]' })
      .where('day', '=', DAY - 5)
      .execute();
    expect(sort(await painelGroupsCached(store, filter, now))).toEqual(raw);
    // An entry of the 24th changes (a kept sale delivered): that day is read again.
    await store.db
      .updateTable('posting_journal')
      .set({ state: 'lançado', points: 9, updated_at: Date.now() })
      .where('state', '=', 'aguardando envio')
      .execute();
    const after = sort(await painelGroupsCached(store, filter, now));
    expect(after).toEqual(sort(await painelGroups(store, filter)));
    expect(after).not.toEqual(raw);
    // A period that includes today reads today from the journal, the rest from the cache.
    const open = { ...filter, to: MIDNIGHT + 3 * DAY_MS };
    expect(sort(await painelGroupsCached(store, open, now))).toEqual(
      sort(await painelGroups(store, open)),
    );
  });
});
