import { describe, expect, test } from 'vitest';
import { createJournalStore, enrollDirectly, openStore } from '../../store';
import { makeApp, TEST_SECRET } from '../../testing/app-harness';
import { signCredential } from '../domain/credential';
import { credentialCookieName } from './access/terminal';
import { createLifecycle } from '../domain/ops/lifecycle';
import { createMetrics } from '../domain/ops/metrics';
import { embeddedPostings, testAppServer } from '../testing/embedded-postings';

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

test('a drain ends every event stream with a short retry hint, and the gauge follows', async () => {
  const store = await openStore({ sqlitePath: ':memory:' });
  const closers: (() => unknown)[] = [() => store.close()];
  const { upstream, service: postings } = await embeddedPostings(closers, {
    store: createJournalStore(store),
  });
  const lifecycle = createLifecycle();
  const metrics = createMetrics({ store, postings, processDefaults: false });
  const app = testAppServer({
    ...upstream,
    store,
    postings,
    lifecycle,
    metrics,
    metricsToken: TOKEN,
  });
  try {
    const { terminal, nonce } = await enrollDirectly(store, { name: 'Caixa', role: 'caixa' });
    const cookie = `${credentialCookieName('http://localhost/')}=${signCredential(TEST_SECRET, terminal.id, nonce)}`;
    const open = async () =>
      Number(
        /^pdv_event_streams_open (\d+)$/m.exec(
          await (
            await app.request('http://localhost/metrics', {
              headers: { authorization: `Bearer ${TOKEN}` },
            })
          ).text(),
        )?.[1],
      );
    const res = await app.request('http://localhost/api/quiosque/eventos', {
      headers: { cookie },
    });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = decoder.decode((await reader.read()).value);
    expect(text).toContain('event: pronto');
    expect(await open()).toBe(1);
    lifecycle.drain();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value);
    }
    expect(text).toMatch(/retry: 1000\n\n$/);
    expect(await open()).toBe(0);
  } finally {
    while (closers.length) await closers.pop()!();
  }
});
