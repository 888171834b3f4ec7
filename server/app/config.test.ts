import { describe, expect, test } from 'vitest';
import { readAccessEnv, readConfig, readServerEnv } from './config';
import { isLoopbackHost } from './domain/access/address';
import type { ServerEnv } from './config';

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

  test.each(['http://api.example.com', 'http://10.0.0.5:8080', 'http://sandbox.internal'])(
    'LOYALTY_BASE_URL %s (http to a non-loopback host) is refused: the tokens would travel in clear',
    (url) => {
      const r = readServerEnv({ ...LIVE, LOYALTY_BASE_URL: url });
      expect(!r.ok && r.error).toMatch(/^LOYALTY_BASE_URL must be https:\/\//);
    },
  );

  test.each(['http://127.0.0.1:8787', 'http://localhost:8787', 'http://[::1]:8787'])(
    'LOYALTY_BASE_URL %s (http to loopback) is accepted',
    (url) => {
      expect(readServerEnv({ ...LIVE, LOYALTY_BASE_URL: url }).ok).toBe(true);
    },
  );
});

describe('readAccessEnv', () => {
  const sandbox: ServerEnv = {
    mode: 'sandbox',
    port: 0,
    host: '127.0.0.1',
    establishmentId: 1,
    sandboxDb: null,
  };
  const live: ServerEnv = {
    mode: 'live',
    port: 0,
    host: '127.0.0.1',
    baseUrl: 'https://api.example.com',
    appToken: 'a',
    accessToken: 'b',
    establishmentId: 1,
    establishmentName: null,
  };
  const SECRET = 'x'.repeat(32);

  test('sandbox on loopback: auto-enrollment, data/app.db, generated secret', () => {
    expect(readAccessEnv({}, sandbox)).toEqual({
      ok: true,
      env: {
        publicOrigin: null,
        appDb: null,
        databaseUrl: null,
        appSecret: null,
        autoEnroll: true,
        rateLimits: {},
        trustedProxies: [],
      },
    });
  });

  test('TRUSTED_PROXIES: IP addresses, each in one form (an IPv4-mapped one as IPv4)', () => {
    const r = readAccessEnv(
      { TRUSTED_PROXIES: ' 10.0.0.2, ::FFFF:10.0.0.3,2001:DB8:0:0:0:0:0:1 ,' },
      sandbox,
    );
    expect(r.ok && r.env.trustedProxies).toEqual(['10.0.0.2', '10.0.0.3', '2001:db8::1']);
  });

  test('RATE_LIMIT_BURST, RATE_LIMIT_SUSTAINED and RATE_LIMIT_KIOSK_LOOKUP are requests/seconds', () => {
    const r = readAccessEnv(
      {
        RATE_LIMIT_BURST: '100/5',
        RATE_LIMIT_SUSTAINED: '5000/600',
        RATE_LIMIT_KIOSK_LOOKUP: '3/60',
      },
      sandbox,
    );
    expect(r.ok && r.env.rateLimits).toEqual({
      burst: { limit: 100, windowMs: 5000 },
      sustained: { limit: 5000, windowMs: 600_000 },
      kioskLookup: { limit: 3, windowMs: 60_000 },
    });
  });

  test('SANDBOX_AUTO_ENROLL=0 turns auto-enrollment off', () => {
    const r = readAccessEnv({ SANDBOX_AUTO_ENROLL: '0' }, sandbox);
    expect(r.ok && r.env.autoEnroll).toBe(false);
  });

  test('never auto-enrolls in live mode or with a public origin', () => {
    const l = readAccessEnv({ APP_SECRET: SECRET }, live);
    expect(l.ok && l.env.autoEnroll).toBe(false);
    const p = readAccessEnv({ PUBLIC_ORIGIN: 'https://pdv.example.com' }, sandbox);
    expect(p.ok && p.env).toMatchObject({
      publicOrigin: 'https://pdv.example.com',
      autoEnroll: false,
    });
  });

  test('a non-loopback HOST needs PUBLIC_ORIGIN', () => {
    const r = readAccessEnv({}, { ...sandbox, host: '0.0.0.0' });
    expect(!r.ok && r.error).toMatch(
      /^HOST=0\.0\.0\.0 is not a loopback address: set PUBLIC_ORIGIN/,
    );
    expect(
      readAccessEnv({ PUBLIC_ORIGIN: 'https://pdv.example.com' }, { ...sandbox, host: '0.0.0.0' })
        .ok,
    ).toBe(true);
  });

  test.each([
    [{ PUBLIC_ORIGIN: 'https://pdv.example.com/caixa' }, /^PUBLIC_ORIGIN must be an origin/],
    [{ PUBLIC_ORIGIN: 'ftp://pdv.example.com' }, /^PUBLIC_ORIGIN must be an origin/],
    [{ DATABASE_URL: 'mysql://x' }, /^DATABASE_URL must be a postgres:\/\/ URL/],
    [{ APP_SECRET: 'short' }, /^APP_SECRET must have at least 32 characters/],
    [{ SANDBOX_AUTO_ENROLL: 'yes' }, /^SANDBOX_AUTO_ENROLL must be 0 or 1/],
    [{ RATE_LIMIT_BURST: '40' }, /^RATE_LIMIT_BURST must be requests\/seconds/],
    [{ RATE_LIMIT_SUSTAINED: '0/60' }, /^RATE_LIMIT_SUSTAINED must be requests\/seconds/],
    [{ RATE_LIMIT_KIOSK_LOOKUP: 'six' }, /^RATE_LIMIT_KIOSK_LOOKUP must be requests\/seconds/],
    [{ TRUSTED_PROXIES: '10.0.0.0/8' }, /^TRUSTED_PROXIES must be IP addresses/],
    [{ TRUSTED_PROXIES: 'proxy.loja.internal' }, /^TRUSTED_PROXIES must be IP addresses/],
  ])('%o is refused', (env, error) => {
    const r = readAccessEnv(env, sandbox);
    expect(!r.ok && r.error).toMatch(error);
  });

  test('live mode needs APP_SECRET', () => {
    const r = readAccessEnv({}, live);
    expect(!r.ok && r.error).toMatch(/live mode needs APP_SECRET/);
  });

  test.each([
    ['localhost', true],
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['[::1]', true],
    ['::1', true],
    ['0.0.0.0', false],
    ['192.168.0.10', false],
    ['localhost.evil.example', false],
    ['127.0.0.1.nip.io', false],
  ])('isLoopbackHost(%s) is %s', (host, expected) => {
    expect(isLoopbackHost(host)).toBe(expected);
  });
});

describe('readConfig', () => {
  test('an empty environment is the sandbox with every default', () => {
    const r = readConfig({});
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.config).toMatchObject({
      server: { mode: 'sandbox', port: 4173 },
      access: { autoEnroll: true, trustedProxies: [] },
      journal: {},
      contingency: { journal: {} },
      backup: null,
      logLevel: 'info',
      metricsToken: null,
      shutdownMs: 30_000,
    });
  });

  test('REWARD_HANDOVER=0 turns the hand-over off; another value is refused by name', () => {
    const off = readConfig({ REWARD_HANDOVER: '0' });
    expect(off.ok && off.config.journal.rewardHandover).toBe(false);
    const on = readConfig({ REWARD_HANDOVER: '1' });
    expect(on.ok && on.config.journal.rewardHandover).toBeUndefined();
    expect(readConfig({ REWARD_HANDOVER: 'sim' })).toEqual({
      ok: false,
      error: 'REWARD_HANDOVER must be 0 (off) or 1 (on)',
    });
  });

  test('journal, contingency, backups, log level, metrics token and shutdown bound are read', () => {
    const r = readConfig({
      JOURNAL_WAIT_MS: '2500',
      JOURNAL_RETENTION_DAYS: '2',
      JOURNAL_LOOKUP_REUSE_MS: '0',
      CONTINGENCY_FAILURES: '5',
      CONTINGENCY_PROBE_MS: '250',
      CONTINGENCY_MAX_HOURS: '1.5',
      CONTINGENCY_MAX_WAITING: '0',
      BACKUP_DIR: '/var/backups/pdv',
      BACKUP_KEEP: '3',
      LOG_LEVEL: 'warn',
      METRICS_TOKEN: 'metrics-token-0123456789',
      SHUTDOWN_TIMEOUT_MS: '5000',
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.config.journal).toEqual({
      waitMs: 2500,
      retentionMs: 2 * 24 * 3_600_000,
      lookupReuseMs: 0,
    });
    expect(r.config.contingency).toEqual({
      failures: 5,
      probeMs: 250,
      journal: { maxWaiting: 0, maxWaitMs: 5_400_000 },
    });
    expect(r.config.backup).toEqual({ dir: '/var/backups/pdv', keep: 3, everyMs: 86_400_000 });
    expect(r.config.logLevel).toBe('warn');
    expect(r.config.metricsToken).toBe('metrics-token-0123456789');
    expect(r.config.shutdownMs).toBe(5000);
  });

  test('every bad variable is named in one line, never its value', () => {
    const r = readConfig({
      JOURNAL_WAIT_MS: 'soon-xyz',
      CONTINGENCY_FAILURES: '0',
      BACKUP_KEEP: '3',
      LOG_LEVEL: 'loud-xyz',
      METRICS_TOKEN: 'short-xyz',
      SHUTDOWN_TIMEOUT_MS: '-1',
      SANDBOX_AUTO_ENROLL: 'yes-xyz',
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    for (const name of [
      'JOURNAL_WAIT_MS must be a whole number of milliseconds',
      'CONTINGENCY_FAILURES must be a whole number of at least 1',
      'BACKUP_KEEP and BACKUP_EVERY_HOURS need BACKUP_DIR',
      'LOG_LEVEL must be one of',
      'METRICS_TOKEN must have at least 16 characters',
      'SHUTDOWN_TIMEOUT_MS must be a whole number of at least 0',
      'SANDBOX_AUTO_ENROLL must be 0 or 1',
    ]) {
      expect(r.error).toContain(name);
    }
    expect(r.error).not.toContain('xyz');
    expect(r.error.split('\n')).toHaveLength(1);
  });

  test('a server variable that is wrong stops reading there, with its own message', () => {
    expect(readConfig({ PORT: 'x', JOURNAL_WAIT_MS: 'y' })).toEqual({
      ok: false,
      error: 'PORT must be an integer between 0 and 65535',
    });
  });
});
