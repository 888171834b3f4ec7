import { describe, expect, test } from 'vitest';
import { openStore } from '../../store';
import { makeApp } from '../../testing/app-harness';
import { createLifecycle } from '../domain/ops/lifecycle';
import { createMetrics } from '../domain/ops/metrics';

const TOKEN = 'metrics-token-0123456789abcdef';

async function setup() {
  const store = await openStore({ sqlitePath: ':memory:' });
  const lifecycle = createLifecycle();
  const metrics = createMetrics({ store, processDefaults: false });
  const { app } = makeApp({ store, lifecycle, metrics, metricsToken: TOKEN }, null);
  return { app, store, lifecycle };
}

describe('health and metrics', () => {
  test('/healthz answers without a terminal and says nothing of the configuration', async () => {
    const { app } = await setup();
    const res = await app.request('/healthz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  test('/readyz is ready with the store migrated, and 503 while draining', async () => {
    const { app, lifecycle } = await setup();
    const ready = await app.request('/readyz');
    expect(ready.status).toBe(200);
    const body = await ready.json();
    expect(body).toMatchObject({ status: 'ready', store: 'ok', draining: false });
    expect(JSON.stringify(body)).not.toMatch(/token|secret|api\.example/i);
    lifecycle.drain();
    const draining = await app.request('/readyz');
    expect(draining.status).toBe(503);
    expect(await draining.json()).toMatchObject({ status: 'unready', draining: true });
  });

  test('/readyz is 503 when the store is gone', async () => {
    const { app, store } = await setup();
    await store.close();
    const res = await app.request('/readyz');
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: 'unready', store: 'unreachable' });
  });

  test('/metrics is refused without loopback or the token, and answers with the token', async () => {
    const { app } = await setup();
    expect((await app.request('/metrics')).status).toBe(403);
    expect(
      (await app.request('/metrics', { headers: { authorization: 'Bearer wrong-token' } })).status,
    ).toBe(403);
    await app.request('/healthz');
    const res = await app.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(text).toContain('pdv_http_requests_total{route="/healthz",method="GET",status="200"} 1');
    expect(text).toContain('pdv_circuit_open 0');
    expect(text).toContain('pdv_kiosk_sales_staged 0');
  });
});
