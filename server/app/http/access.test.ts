import { describe, expect, test } from 'vitest';
import { addressKey, forwardedClient } from '../domain/access/address';
import { namesPassword, portugueseDuration } from '../domain/access/limits';
import { addTerminal, openStore, revokeTerminal } from '../../store';
import { makeApp, recordingUpstream } from '../../testing/app-harness';

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

describe('enrollment codes', () => {
  /** An app server whose store clock the test moves; every request from one address. */
  async function enrollSetup() {
    let clock = Date.now();
    const store = await openStore({ sqlitePath: ':memory:', now: () => clock });
    const { app } = makeApp({ store }, null);
    const register = (codigo: string) =>
      app.request('/api/terminal/registrar', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ codigo }),
      });
    const code = async () => (await addTerminal(store, { name: 'Caixa 3', role: 'caixa' })).code;
    return { store, register, code, advance: (ms: number) => (clock += ms) };
  }

  test('a guesser sharing the address delays a valid code by one minute at most, however long it guesses', async () => {
    const { store, register, code, advance } = await enrollSetup();
    let checked = 0;
    let refused = 0;
    // Half an hour at the limit (300 wrong codes: the old hourly cap was 30): each minute 10
    // wrong codes are checked, the 11th and a valid code are refused, for 60 s at most.
    for (let minute = 0; minute < 30; minute++) {
      for (let i = 0; i < 10; i++) expect((await register('AAAA-AAAA')).status).toBe(422);
      checked += 10;
      expect((await register('AAAA-AAAA')).status).toBe(429);
      const valid = await register(await code());
      expect(valid.status).toBe(429);
      expect(Number(valid.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      refused += 2;
      advance(60_000);
    }
    const ok = await register(await code());
    expect(ok.status).toBe(200);
    console.log(
      `enrollment: 30 minutes of guessing from one address → ${checked} checked (422), ${refused} refused (429, valid codes included); a valid code after the minute: ${ok.status}`,
    );
    await store.close();
  });

  test('a valid code, a missing code and a body that is not JSON do not count as failures', async () => {
    const { store, register, code } = await enrollSetup();
    for (let i = 0; i < 12; i++) expect((await register(await code())).status).toBe(200);
    for (let i = 0; i < 12; i++) expect((await register('')).status).toBe(422);
    for (let i = 0; i < 9; i++) expect((await register('AAAA-AAAA')).status).toBe(422);
    expect((await register(await code())).status).toBe(200);
    // The valid code forgot the nine failures: ten more are checked before the lock.
    for (let i = 0; i < 10; i++) expect((await register('AAAA-AAAA')).status).toBe(422);
    expect((await register('AAAA-AAAA')).status).toBe(429);
    await store.close();
  });
});

describe('client address behind proxies', () => {
  const proxies = new Set(['10.0.0.2', '10.0.0.3', '2001:db8::2']);

  test.each([
    [
      'a direct client: its own address, whatever it forwards',
      '203.0.113.9',
      '198.51.100.1',
      '203.0.113.9',
    ],
    ['a trusted proxy: the address it appended', '10.0.0.2', '198.51.100.1', '198.51.100.1'],
    [
      'what the client wrote left of it is ignored',
      '10.0.0.2',
      '1.1.1.1, 198.51.100.1',
      '198.51.100.1',
    ],
    ['two trusted proxies in a row', '10.0.0.2', '1.1.1.1, 198.51.100.1, 10.0.0.3', '198.51.100.1'],
    ['the peer IPv4-mapped', '::ffff:10.0.0.2', '198.51.100.1', '198.51.100.1'],
    ['a port on the hop', '10.0.0.2', '198.51.100.1:51234', '198.51.100.1'],
    ['an IPv6 hop', '2001:db8::2', '[2001:DB8::77]:443', '2001:db8::77'],
    ['a hop that is not an address: the proxy', '10.0.0.2', 'unknown', '10.0.0.2'],
    ['no header: the proxy', '10.0.0.2', undefined, '10.0.0.2'],
  ])('%s', (_, peer, header, client) => {
    expect(forwardedClient(peer, header, proxies)).toBe(client);
  });

  test('IPv6 clients are limited by their /64; IPv4 by the address', () => {
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe(addressKey('2001:db8:1:2:bbbb::9'));
    expect(addressKey('2001:db8:1:2::1')).not.toBe(addressKey('2001:db8:1:3::1'));
    expect(addressKey('198.51.100.1')).toBe('198.51.100.1');
  });
});

describe('postings in flight', () => {
  test('a 6th posting of one terminal while 5 are in flight: 429 that says so; none is lost', async () => {
    const gates: (() => void)[] = [];
    const rec = recordingUpstream(
      () =>
        new Promise<Response>((resolve) =>
          gates.push(() => resolve(Response.json({ success: true, message: 'ok', data: {} }))),
        ),
    );
    const { app } = makeApp({ upstream: rec.upstream }, 'caixa');
    const PONTUAR = '/api/v4/estabelecimentos/1/fidelidade/pontuar';
    const post = () =>
      app.request(PONTUAR, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ valor_gasto: 100, senha_atendente: '1234', cliente: {} }),
      });
    const flying = Array.from({ length: 5 }, post);
    await expect.poll(() => gates.length).toBe(5);
    const sixth = await post();
    expect(sixth.status).toBe(429);
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await sixth.json()).toEqual({
      success: false,
      message:
        'Há 5 lançamentos deste caixa em andamento. Aguarde um deles terminar e lance de novo.',
      data: { em_andamento: 5 },
    });
    gates.splice(0).forEach((open) => open());
    expect((await Promise.all(flying)).map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const next = post();
    await expect.poll(() => gates.length).toBe(1);
    gates[0]!();
    expect((await next).status).toBe(200);
    expect(rec.received).toHaveLength(6);
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
