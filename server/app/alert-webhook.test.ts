/**
 * Vigilância's outbound webhook against a real receiver: a node:http server on 127.0.0.1 (a
 * free port) that checks every delivery's signature as docs/vigilancia.md tells a store's
 * developer to, and answers what each test scripts. The deliveries live in a real store, on
 * both engines; "replicas" are two senders over two connections to the same store.
 */
import { expect, test } from 'vitest';
import { openStore } from '../store';
import type { Store } from '../store';
import { describeEngines } from '../testing/pg-cluster';
import { storeFixture } from '../testing/store-fixture';
import { webhookReceiver } from '../testing/webhook-receiver';
import { cleanupAfterEach } from '../testing/journal-support';
import { createAlertWebhook } from './domain/vigilancia/webhook';
import type { AlertWebhook } from './domain/vigilancia/webhook';
import { alertWire, until, WEBHOOK_SECRET } from './testing/alerts';

const fixture = storeFixture('alert-webhook');
const cleanup = cleanupAfterEach();

function sender(
  store: Store,
  url: string,
  extra: Partial<Parameters<typeof createAlertWebhook>[0]> = {},
) {
  const w = createAlertWebhook({
    store,
    url,
    secret: WEBHOOK_SECRET,
    baseDelayMs: 200,
    pollMs: 50,
    ...extra,
  });
  cleanup.push(() => w.stop());
  return w;
}

async function opened(engine: 'sqlite' | 'postgres'): Promise<Store> {
  const s = await fixture.open(engine);
  cleanup.push(() => s.close());
  return s;
}

const only = async (w: AlertWebhook, loja = 1) => (await w.deliveries.list(loja, 50))[0]!;

/**
 * Alert `id` sent to a receiver answering `answers` in turn, by a sender (with `extra`) started
 * on a fresh store: the receiver and the delivery once it is no longer pending.
 */
async function deliver(
  engine: 'sqlite' | 'postgres',
  answers: number[],
  id: number,
  extra: Partial<Parameters<typeof createAlertWebhook>[0]> = {},
) {
  const r = await webhookReceiver(WEBHOOK_SECRET, answers);
  cleanup.push(r.close);
  const w = sender(await opened(engine), r.url, extra);
  w.start();
  await w.enqueue('alerta.criado', alertWire(id));
  const d = await until(
    () => only(w),
    (x) => x.status !== 'pendente',
  );
  return { r, d };
}

describeEngines('the alert webhook (%s)', (engine) => {
  test('a receiver answering 500 twice then 200 gets the alert on the third attempt, signed, after a growing wait', async () => {
    const { r, d } = await deliver(engine, [500, 500, 200], 41);
    const gaps = r.got.slice(1).map((g, i) => g.at - r.got[i]!.at);
    console.log(
      `[webhook ${engine}] 500,500,200: attempts=${d.attempts} status=${d.status} gaps ms=${gaps.join(',')}`,
    );
    expect(d).toMatchObject({ status: 'entregue', attempts: 3, last_status: 200 });
    expect(r.got.map((g) => g.verified)).toEqual([true, true, true]);
    expect(new Set(r.got.map((g) => g.delivery)).size).toBe(1);
    expect(r.got[0]!.body).toMatchObject({ evento: 'alerta.criado', loja: 1, alerta: { id: 41 } });
    // Backoff of 200 ms doubling, jittered to half or more: ≥ 100 ms, then ≥ 200 ms.
    expect(gaps[0]).toBeGreaterThanOrEqual(100);
    expect(gaps[1]).toBeGreaterThanOrEqual(200);
  });

  test('a receiver answering 400 is final: failed after one attempt, never sent again', async () => {
    const { r, d } = await deliver(engine, [400], 42);
    await new Promise((ok) => setTimeout(ok, 600));
    console.log(
      `[webhook ${engine}] 400: attempts=${d.attempts} status=${d.status} received=${r.got.length}`,
    );
    expect(d).toMatchObject({ status: 'falhou', attempts: 1, last_status: 400 });
    expect(r.got).toHaveLength(1);
  });

  test('408 and 429 are tried again; the cap ends it as failed', async () => {
    const { r, d } = await deliver(engine, [429, 408, 503], 43, {
      maxAttempts: 3,
      baseDelayMs: 50,
    });
    expect(d).toMatchObject({ status: 'falhou', attempts: 3, last_status: 503 });
    expect(r.got).toHaveLength(3);
  });

  test('a receiver down, then up on the same address, gets the delivery once it is back', async () => {
    const probe = await webhookReceiver(WEBHOOK_SECRET, [200]);
    const { port, url } = probe;
    await probe.close();
    const w = sender(await opened(engine), url);
    w.start();
    await w.enqueue('alerta.criado', alertWire(44));
    const down = await until(
      () => only(w),
      (x) => x.attempts >= 2,
    );
    expect(down).toMatchObject({
      status: 'pendente',
      last_status: null,
      last_error: 'conexão recusada',
    });
    const r = await webhookReceiver(WEBHOOK_SECRET, [200], port);
    cleanup.push(r.close);
    const d = await until(
      () => only(w),
      (x) => x.status !== 'pendente',
    );
    console.log(
      `[webhook ${engine}] down then up: attempts=${d.attempts} status=${d.status} received=${r.got.length}`,
    );
    expect(d).toMatchObject({ status: 'entregue', last_status: 200 });
    expect(d.attempts).toBeGreaterThanOrEqual(3);
    expect(r.got).toHaveLength(1);
    expect(r.got[0]!.verified).toBe(true);
  });

  test('a pending delivery survives a restart: the next process sends it', async () => {
    const r = await webhookReceiver(WEBHOOK_SECRET, [503, 200]);
    cleanup.push(r.close);
    const where = await fixture.location(engine);
    const first = await openStore(where);
    const w1 = createAlertWebhook({
      store: first,
      url: r.url,
      secret: WEBHOOK_SECRET,
      baseDelayMs: 300,
      pollMs: 50,
    });
    w1.start();
    await w1.enqueue('alerta.criado', alertWire(45));
    await until(
      () => only(w1),
      (x) => x.attempts === 1,
    );
    await w1.stop();
    await first.close();
    const second = await openStore(where);
    cleanup.push(() => second.close());
    const w2 = sender(second, r.url);
    w2.start();
    const d = await until(
      () => only(w2),
      (x) => x.status !== 'pendente',
    );
    expect(d).toMatchObject({ status: 'entregue', attempts: 2 });
    expect(r.got).toHaveLength(2);
  });

  test('two replicas over one store send each delivery once', async () => {
    const r = await webhookReceiver(WEBHOOK_SECRET, [200]);
    cleanup.push(r.close);
    const where = await fixture.location(engine);
    const a = await openStore(where);
    const b = await openStore(where);
    cleanup.push(
      () => a.close(),
      () => b.close(),
    );
    const wa = sender(a, r.url, { pollMs: 10 });
    const wb = sender(b, r.url, { pollMs: 10 });
    for (let i = 1; i <= 30; i += 1)
      await (i % 2 ? wa : wb).enqueue('alerta.criado', alertWire(100 + i));
    // The same event recorded again (another replica's evaluation) is the same delivery.
    await wb.enqueue('alerta.criado', alertWire(101));
    wa.start();
    wb.start();
    await until(
      () => wa.deliveries.counts(),
      (c) => c.entregue === 30,
    );
    const ids = r.got.map((g) => g.delivery);
    const counts = await wa.deliveries.counts();
    console.log(
      `[webhook ${engine}] 2 replicas: delivered=${counts.entregue} received=${ids.length} distinct=${new Set(ids).size}`,
    );
    expect(counts).toEqual({ entregue: 30 });
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
  });
});
