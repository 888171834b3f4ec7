import { describe, expect, test } from 'vitest';
import { namesPassword, portugueseDuration } from './access';
import { revokeTerminal } from '../store';
import { makeApp } from './test-helpers';

const BUSCAR = '/api/v4/estabelecimentos/1/clientes/buscar';
const json = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' };

describe('per-terminal rate limits', () => {
  test('past the burst: 429 in Portuguese with Retry-After, the upstream not called', async () => {
    const { app, received } = makeApp({
      limits: {
        burst: { limit: 3, windowMs: 60_000 },
        sustained: { limit: 100, windowMs: 600_000 },
      },
    });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await app.request(BUSCAR, json)).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const res = await app.request(BUSCAR, json);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await res.json()).message).toMatch(
      /^Muitas requisições deste terminal\. Aguarde (\d+ min( \d+ s)?|\d+ s) e tente novamente\.$/,
    );
    expect(received).toHaveLength(3);
  });

  test('each terminal has its own counters', async () => {
    const limits = {
      burst: { limit: 1, windowMs: 60_000 },
      sustained: { limit: 100, windowMs: 600_000 },
    };
    const a = makeApp({ limits });
    expect((await a.app.request(BUSCAR, json)).status).toBe(200);
    expect((await a.app.request(BUSCAR, json)).status).toBe(429);
    const { store } = await a.ready;
    const b = makeApp({ limits, store }); // a second terminal on the same store
    expect((await b.app.request(BUSCAR, json)).status).toBe(200);
  });
});

describe('terminal credential', () => {
  test('a terminal revoked while its requests are answered is refused from the next one on', async () => {
    const { app, ready, received } = makeApp({}, 'caixa');
    for (let i = 0; i < 3; i++) expect((await app.request(BUSCAR, json)).status).toBe(200);
    const { store } = await ready;
    const [terminal] = await store.db.selectFrom('terminals').select('id').execute();
    expect(await revokeTerminal(store, terminal!.id)).toBe(true);
    const res = await app.request(BUSCAR, json);
    expect(res.status).toBe(401);
    expect(received).toHaveLength(3);
  });
});

describe('helpers', () => {
  test.each([
    [400, '1 s'],
    [45_000, '45 s'],
    [60_000, '1 min'],
    [250_000, '4 min 10 s'],
  ])('portugueseDuration(%i) is %s', (ms, text) => {
    expect(portugueseDuration(ms)).toBe(text);
  });

  test('a 422 names the password in each error shape the service may use', () => {
    expect(namesPassword({ errors: { senha_atendente: ['x'] } })).toBe(true);
    expect(namesPassword({ error: true, messages: { senha_atendente: ['x'] } })).toBe(true);
    expect(namesPassword({ errors: { valor_gasto: ['x'] } })).toBe(false);
    expect(namesPassword('senha_atendente')).toBe(false);
    expect(namesPassword(null)).toBe(false);
  });
});
