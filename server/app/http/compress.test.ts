import { gunzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { expect, test } from 'vitest';
import { makeApp, recordingUpstream } from '../../testing/app-harness';
import { compressJson } from './compress';

const BIG = { success: true, message: 'ok', data: { premios: Array(200).fill({ nome: 'Vale' }) } };

test('a JSON answer over 1 KB relayed from the service goes out gzipped when accepted', async () => {
  const rec = recordingUpstream(() => Response.json(BIG));
  const { app } = makeApp({ upstream: rec.upstream });
  const res = await app.request('/api/v4/estabelecimentos/1/recompensas', {
    headers: { 'accept-encoding': 'gzip, deflate, br' },
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-encoding')).toBe('gzip');
  expect(res.headers.get('vary')).toMatch(/Accept-Encoding/);
  const zipped = Buffer.from(await res.arrayBuffer());
  expect(JSON.parse(gunzipSync(zipped).toString())).toEqual(BIG);
  expect(zipped.length).toBeLessThan(JSON.stringify(BIG).length / 5);
});

test('small answers, clients that do not accept it and event streams go out as they are', async () => {
  const app = new Hono();
  app.use('*', compressJson());
  app.get('/small', (c) => c.json({ ok: true }));
  app.get('/big', (c) => c.json(BIG));
  app.get('/events', (c) => streamSSE(c, (s) => s.writeSSE({ data: 'x'.repeat(4096) })));
  const gzip = { headers: { 'accept-encoding': 'gzip' } };
  expect((await app.request('/small', gzip)).headers.get('content-encoding')).toBeNull();
  expect((await app.request('/big')).headers.get('content-encoding')).toBeNull();
  const events = await app.request('/events', gzip);
  expect(events.headers.get('content-encoding')).toBeNull();
  expect(await events.text()).toContain('x'.repeat(4096));
});

test('a peer on this computer gets the answer as it is; one across the network, gzipped', async () => {
  const app = new Hono();
  app.use('*', compressJson());
  app.get('/big', (c) => c.json(BIG));
  const from = (remoteAddress: string) =>
    app.request(
      '/big',
      { headers: { 'accept-encoding': 'gzip' } },
      {
        incoming: { socket: { remoteAddress } },
      },
    );
  expect((await from('127.0.0.1')).headers.get('content-encoding')).toBeNull();
  expect((await from('::ffff:127.0.0.1')).headers.get('content-encoding')).toBeNull();
  expect((await from('::1')).headers.get('content-encoding')).toBeNull();
  expect((await from('192.168.0.21')).headers.get('content-encoding')).toBe('gzip');
});
