import { sql } from 'kysely';
import { expect, test } from 'vitest';
import { insertAudit, purgeAudit, readAudit } from './index';
import type { AuditEntryInput, Store } from './index';
import { describeEngines } from '../testing/pg-cluster';
import { everyAuditEntry, storeFixture } from '../testing/store-fixture';

const stores = storeFixture('audit-test');

const T0 = Date.UTC(2026, 10, 23, 12);
const entry = (over: Partial<AuditEntryInput> = {}): AuditEntryInput => ({
  at: T0,
  terminalId: 3,
  terminalName: 'Gerência',
  role: 'gerente',
  action: 'venda.descartada',
  details: { chave: 'k' },
  requestId: 'req-1',
  ...over,
});

describeEngines('audit trail on %s', (engine) => {
  let store: Store;
  stores.openEach(engine, (opened) => (store = opened));

  test('reads back entries newest first, filtered and paged, with the total', async () => {
    await insertAudit(store, entry({ at: T0 - 2000, action: 'terminal.registrado' }));
    await insertAudit(store, entry({ at: T0 - 1000, terminalId: 4, terminalName: 'Caixa 1' }));
    await insertAudit(store, entry({ at: T0, details: { linhas: 3 } }));
    const all = await readAudit(store, everyAuditEntry({ limit: 2 }));
    expect(all.total).toBe(3);
    expect(all.entries.map((e) => e.at)).toEqual([T0, T0 - 1000]);
    expect(all.entries[0]).toMatchObject({
      terminalId: 3,
      terminalName: 'Gerência',
      role: 'gerente',
      requestId: 'req-1',
      details: { linhas: 3 },
    });
    const page2 = await readAudit(store, everyAuditEntry({ offset: 2, limit: 2 }));
    expect(page2.entries.map((e) => e.action)).toEqual(['terminal.registrado']);
    const filtered = await readAudit(store, {
      from: T0 - 1500,
      to: T0,
      action: 'venda.descartada',
      terminalId: 4,
      offset: 0,
      limit: 10,
    });
    expect(filtered.total).toBe(1);
    expect(filtered.entries[0]!.terminalName).toBe('Caixa 1');
  });

  test('refuses to change or delete an entry, whatever the statement', async () => {
    await insertAudit(store, entry({ at: T0 - 10 * 86_400_000 }));
    const attempts: [string, () => Promise<unknown>][] = [
      ['update', () => store.db.updateTable('audit_log').set({ action: 'x' }).execute()],
      ['delete', () => store.db.deleteFrom('audit_log').execute()],
      [
        'delete in a transaction',
        () => store.transaction((trx) => trx.deleteFrom('audit_log').where('id', '=', 1).execute()),
      ],
    ];
    if (engine === 'postgres') {
      attempts.push(['truncate', () => sql`truncate audit_log`.execute(store.db)]);
    }
    for (const [what, run] of attempts) {
      await expect(run(), what).rejects.toThrow(/append-only/);
    }
    const left = await readAudit(store, everyAuditEntry());
    expect(left.total).toBe(1);
    expect(left.entries[0]!.action).toBe('venda.descartada');
    console.log(`[audit ${engine}] refused=${attempts.length} of ${attempts.length} left=1`);
  });

  test('the retention purge deletes only what is older than its cutoff, then closes again', async () => {
    const day = 86_400_000;
    await insertAudit(store, entry({ at: T0 - 500 * day }));
    await insertAudit(store, entry({ at: T0 - 401 * day }));
    await insertAudit(store, entry({ at: T0 - 399 * day }));
    expect(await purgeAudit(store, T0 - 400 * day)).toBe(2);
    const left = await readAudit(store, everyAuditEntry());
    expect(left.entries.map((e) => e.at)).toEqual([T0 - 399 * day]);
    // The guard is closed again: the remaining entry cannot be deleted outside a purge.
    await expect(store.db.deleteFrom('audit_log').execute()).rejects.toThrow(/append-only/);
    const guard = await store.db.selectFrom('audit_purge').selectAll().execute();
    expect(guard).toEqual([{ id: 1, cutoff: null }]);
  });
});
