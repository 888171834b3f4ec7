import { describe, expect, test } from 'vitest';
import { readServerEnv } from './env';

const LIVE = {
  LOYALTY_BASE_URL: 'https://api.example.com/',
  LOYALTY_APP_TOKEN: 'app-secret-value',
  LOYALTY_ACCESS_TOKEN: 'access-secret-value',
  LOYALTY_ESTABLISHMENT_ID: '42',
};

describe('readServerEnv', () => {
  test('with no LOYALTY_BASE_URL it is sandbox mode with the defaults', () => {
    expect(readServerEnv({})).toEqual({
      ok: true,
      env: { mode: 'sandbox', port: 4173, host: '127.0.0.1', establishmentId: 1, sandboxDb: null },
    });
  });

  test('sandbox mode takes PORT, HOST, the establishment and SANDBOX_DB', () => {
    expect(
      readServerEnv({
        PORT: '0',
        HOST: '0.0.0.0',
        LOYALTY_ESTABLISHMENT_ID: '2',
        SANDBOX_DB: '/tmp/x.db',
      }),
    ).toEqual({
      ok: true,
      env: {
        mode: 'sandbox',
        port: 0,
        host: '0.0.0.0',
        establishmentId: 2,
        sandboxDb: '/tmp/x.db',
      },
    });
  });

  test('live mode with everything set', () => {
    expect(
      readServerEnv({ ...LIVE, LOYALTY_ESTABLISHMENT_NAME: 'Loja Centro', PORT: '8080' }),
    ).toEqual({
      ok: true,
      env: {
        mode: 'live',
        port: 8080,
        host: '127.0.0.1',
        baseUrl: 'https://api.example.com',
        appToken: 'app-secret-value',
        accessToken: 'access-secret-value',
        establishmentId: 42,
        establishmentName: 'Loja Centro',
      },
    });
  });

  test('live mode keeps a path prefix of the base URL, without the trailing slash', () => {
    const r = readServerEnv({ ...LIVE, LOYALTY_BASE_URL: 'https://gw.example.com/fidelidade/' });
    expect(r.ok && r.env.mode === 'live' && r.env.baseUrl).toBe(
      'https://gw.example.com/fidelidade',
    );
  });

  test('live mode names every missing variable and no value', () => {
    const r = readServerEnv({
      LOYALTY_BASE_URL: 'https://api.example.com',
      LOYALTY_APP_TOKEN: 'app-secret-value',
    });
    expect(r).toEqual({
      ok: false,
      error:
        'live mode (LOYALTY_BASE_URL is set) needs LOYALTY_ACCESS_TOKEN, LOYALTY_ESTABLISHMENT_ID',
    });
  });

  test('an empty variable counts as missing', () => {
    const r = readServerEnv({ ...LIVE, LOYALTY_ACCESS_TOKEN: '  ' });
    expect(r).toEqual({
      ok: false,
      error: 'live mode (LOYALTY_BASE_URL is set) needs LOYALTY_ACCESS_TOKEN',
    });
  });

  test.each([
    [{ PORT: 'abc' }, 'PORT must be an integer between 0 and 65535'],
    [{ PORT: '70000' }, 'PORT must be an integer between 0 and 65535'],
    [{ PORT: '80.5' }, 'PORT must be an integer between 0 and 65535'],
    [{ LOYALTY_ESTABLISHMENT_ID: '1a' }, 'LOYALTY_ESTABLISHMENT_ID must be a positive integer'],
    [{ LOYALTY_ESTABLISHMENT_ID: '0' }, 'LOYALTY_ESTABLISHMENT_ID must be a positive integer'],
    [{ LOYALTY_ESTABLISHMENT_ID: '-3' }, 'LOYALTY_ESTABLISHMENT_ID must be a positive integer'],
  ])('%o is refused', (env, error) => {
    expect(readServerEnv(env)).toEqual({ ok: false, error });
    expect(readServerEnv({ ...LIVE, ...env })).toEqual({ ok: false, error });
  });

  test.each([
    'ftp://api.example.com',
    'not a url',
    'https://user:pw@api.example.com',
    'https://api.example.com/?k=1',
  ])('LOYALTY_BASE_URL %s is refused', (url) => {
    const r = readServerEnv({ ...LIVE, LOYALTY_BASE_URL: url });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toMatch(/^LOYALTY_BASE_URL must/);
    expect(JSON.stringify(r)).not.toContain('secret-value');
  });
});
