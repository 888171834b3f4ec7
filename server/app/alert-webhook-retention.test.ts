/**
 * Vigilância's webhook deliveries are not kept forever, and `/metrics` tells how they go: a
 * real receiver (node:http on 127.0.0.1) answers, the deliveries live in a real store on both
 * engines, the store's clock is the test's. A night of a store deletes its delivered and failed
 * deliveries older than the retention, in bounded deletes; pending ones and other stores' stay.
 */
import { expect, test } from 'vitest';
import { createDeliveryStore } from '../store';
import type { Store } from '../store';
import { describeEngines } from '../testing/pg-cluster';
import { storeFixture } from '../testing/store-fixture';
import { webhookReceiver } from '../testing/webhook-receiver';
import { cleanupAfterEach } from '../testing/journal-support';
import { createMetrics } from './domain/ops/metrics';
import { createVigilancia } from './domain/vigilancia/service';
import { createAlertWebhook, pruneDeliveries } from './domain/vigilancia/webhook';
import { alertWire, until, WEBHOOK_SECRET } from './testing/alerts';

const fixture = storeFixture('alert-webhook-retention');
const DAY = 86_400_000;

const cleanup = cleanupAfterEach();

/** The samples of `name` in the metrics text, by their labels. */
function samples(text: string, name: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of text.matchAll(new RegExp(`^${name}\\{([^}]*)\\} (\\S+)$`, 'gm'))) {
    out[m[1]!] = Number(m[2]);
  }
  return out;
}

describeEngines('webhook deliveries: retention and metrics (%s)', (engine) => {
  test("a store's night deletes its settled deliveries past the retention; /metrics counts them", async () => {
    let t = Date.parse('2026-10-01T15:00:00Z');
    const store: Store = await fixture.open(engine, { now: () => t });
    cleanup.push(() => store.close());
    const metrics = createMetrics({ store, processDefaults: false });
    // Delivered, failed (a 400 is final), delivered; then one the receiver never gets.
    const r = await webhookReceiver(WEBHOOK_SECRET, [200, 400, 200]);
    cleanup.push(r.close);
    const w = createAlertWebhook({
      store,
      url: r.url,
      secret: WEBHOOK_SECRET,
      pollMs: 50,
      onSettled: metrics.webhookSettled,
    });
    cleanup.push(() => w.stop());
    w.start();
    const deliveries = createDeliveryStore(store);
    const settled = async () =>
      Object.entries(await deliveries.counts())
        .filter(([s]) => s !== 'pendente')
        .reduce((a, [, k]) => a + k, 0);
    for (const [i, [id, loja]] of [
      [1, 1],
      [2, 1],
      [3, 3],
    ].entries()) {
      await w.enqueue('alerta.criado', alertWire(id!, loja!));
      await until(settled, (n) => n === i + 1);
    }
    await w.stop();
    // Pending: recorded while the sender is stopped.
    await w.enqueue('alerta.criado', alertWire(4, 1));
    const before = await metrics.text();
    console.log(
      `[webhook retention ${engine}] settled ${JSON.stringify(samples(before, 'pdv_alert_webhook_deliveries_total'))}, ` +
        `pending ${JSON.stringify(samples(before, 'pdv_alert_webhook_deliveries_pending'))}`,
    );
    expect(samples(before, 'pdv_alert_webhook_deliveries_total')).toEqual({
      'estabelecimento="1",estado="entregue"': 1,
      'estabelecimento="1",estado="falhou"': 1,
      'estabelecimento="3",estado="entregue"': 1,
    });
    expect(samples(before, 'pdv_alert_webhook_deliveries_pending')).toEqual({
      'estabelecimento="1"': 1,
    });

    // 29 days on: nothing is old enough yet.
    t += 29 * DAY;
    expect(await pruneDeliveries(store, 1, 30 * DAY)).toBe(0);
    // 31 days on: store 1's night deletes its two settled ones, never its pending one nor
    // store 3's; store 3's night (its Vigilância's, through the nightly path) deletes its own.
    t += 2 * DAY;
    const night = (id: number) =>
      createVigilancia({ store, establishmentId: id, webhookRetentionMs: 30 * DAY }).runNight(
        '2026-10-31',
      );
    expect(await night(1)).toMatchObject({ ran: true });
    const afterOne = [
      (await deliveries.list(1, 50)).map((d) => d.status),
      (await deliveries.list(3, 50)).map((d) => d.status),
    ];
    expect(await night(3)).toMatchObject({ ran: true });
    const afterThree = (await deliveries.list(3, 50)).length;
    console.log(
      `[webhook retention ${engine}] after store 1's night: store 1 ${JSON.stringify(afterOne[0])}, ` +
        `store 3 ${JSON.stringify(afterOne[1])}; after store 3's: store 3 ${afterThree}`,
    );
    expect(afterOne).toEqual([['pendente'], ['entregue']]);
    expect(afterThree).toBe(0);
    const after = await metrics.text();
    expect(samples(after, 'pdv_alert_webhook_deliveries_pending')).toEqual({
      'estabelecimento="1"': 1,
    });
  });

  test('one delete takes at most its limit, oldest first', async () => {
    let t = Date.parse('2026-10-01T15:00:00Z');
    const store: Store = await fixture.open(engine, { now: () => t });
    cleanup.push(() => store.close());
    const deliveries = createDeliveryStore(store);
    for (let i = 1; i <= 5; i++) {
      await deliveries.enqueue({
        establishmentId: 1,
        event: 'alerta.criado',
        alertId: i,
        dedup: `alerta.criado:${i}`,
        body: '{}',
      });
    }
    const claimed = await deliveries.claimDue(t, 'me', t + 1_000, 10);
    for (const d of claimed) {
      await deliveries.settle(d.id, 'me', {
        status: 'entregue',
        attempts: 1,
        lastStatus: 200,
        lastError: null,
        nextAttemptAt: t,
      });
    }
    t += 40 * DAY;
    const before = t - 30 * DAY;
    const batches = [];
    for (let i = 0; i < 4; i++) batches.push(await deliveries.prune(1, before, 2));
    expect(batches).toEqual([2, 2, 1, 0]);
    expect(await deliveries.list(1, 50)).toEqual([]);
  });
});
