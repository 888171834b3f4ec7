import path from 'node:path';
import { canonicalIp, isLoopbackHost } from './domain/access/address';
/** What server/main.ts is asked to run, read from the environment. Pure, so it can be tested. */
export type ServerEnv =
  | {
      mode: 'live';
      port: number;
      host: string;
      baseUrl: string;
      appToken: string;
      accessToken: string;
      establishmentId: number;
      establishmentName: string | null;
    }
  | {
      mode: 'sandbox';
      port: number;
      host: string;
      establishmentId: number;
      /** As given; relative paths are resolved by the caller. Null = the default file. */
      sandboxDb: string | null;
    };

export type EnvResult = { ok: true; env: ServerEnv } | { ok: false; error: string };

type Env = Readonly<Record<string, string | undefined>>;

function value(env: Env, name: string): string | undefined {
  const v = env[name]?.trim();
  return v === undefined || v === '' ? undefined : v;
}

function integer(text: string, min: number, max: number): number | null {
  if (!/^\d+$/.test(text)) return null;
  const n = Number(text);
  return Number.isSafeInteger(n) && n >= min && n <= max ? n : null;
}

/**
 * Reads PORT, HOST, LOYALTY_* and SANDBOX_DB. Error messages name variables, never their
 * values (a token must not end up in a terminal or a log).
 */
export function readServerEnv(env: Env): EnvResult {
  const errors: string[] = [];

  const portText = value(env, 'PORT');
  const port = portText === undefined ? 4173 : integer(portText, 0, 65535);
  if (port === null) errors.push('PORT must be an integer between 0 and 65535');
  const host = value(env, 'HOST') ?? '127.0.0.1';

  const idText = value(env, 'LOYALTY_ESTABLISHMENT_ID');
  const establishmentId =
    idText === undefined ? undefined : integer(idText, 1, Number.MAX_SAFE_INTEGER);
  if (establishmentId === null) errors.push('LOYALTY_ESTABLISHMENT_ID must be a positive integer');

  const baseUrl = value(env, 'LOYALTY_BASE_URL');
  if (baseUrl === undefined) {
    if (errors.length > 0 || port === null || establishmentId === null) {
      return { ok: false, error: errors.join('; ') };
    }
    return {
      ok: true,
      env: {
        mode: 'sandbox',
        port,
        host,
        establishmentId: establishmentId ?? 1,
        sandboxDb: value(env, 'SANDBOX_DB') ?? null,
      },
    };
  }

  const missing = ['LOYALTY_APP_TOKEN', 'LOYALTY_ACCESS_TOKEN', 'LOYALTY_ESTABLISHMENT_ID'].filter(
    (name) => value(env, name) === undefined,
  );
  if (missing.length > 0) {
    errors.unshift(`live mode (LOYALTY_BASE_URL is set) needs ${missing.join(', ')}`);
  }
  let url: URL | null = null;
  try {
    url = new URL(baseUrl);
  } catch {
    url = null;
  }
  if (url === null || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    errors.push('LOYALTY_BASE_URL must be an http(s) URL');
  } else if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    errors.push('LOYALTY_BASE_URL must have no query, fragment or credentials');
  } else if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    errors.push(
      'LOYALTY_BASE_URL must be https:// (http:// only to a loopback address: the tokens would travel in clear)',
    );
  }

  const appToken = value(env, 'LOYALTY_APP_TOKEN');
  const accessToken = value(env, 'LOYALTY_ACCESS_TOKEN');
  if (
    errors.length > 0 ||
    port === null ||
    establishmentId === null ||
    establishmentId === undefined ||
    appToken === undefined ||
    accessToken === undefined ||
    url === null
  ) {
    return { ok: false, error: errors.join('; ') };
  }
  return {
    ok: true,
    env: {
      mode: 'live',
      port,
      host,
      baseUrl: url.origin + url.pathname.replace(/\/+$/, ''),
      appToken,
      accessToken,
      establishmentId,
      establishmentName: value(env, 'LOYALTY_ESTABLISHMENT_NAME') ?? null,
    },
  };
}

/** Who may reach the server and how terminals are recognised (see README, "Terminais"). */
export interface AccessEnv {
  /** e.g. https://pdv.loja.com.br: the one origin the terminals use. Null: loopback names only. */
  publicOrigin: string | null;
  /** SQLite file of the app server's store (null = data/app.db); unused with DATABASE_URL. */
  appDb: string | null;
  databaseUrl: string | null;
  /** HMAC key of the terminal credentials; null = sandbox default (a generated file). */
  appSecret: string | null;
  /** Sandbox on a loopback address: browsers are enrolled as gerente without a code. */
  autoEnroll: boolean;
  /**
   * Per-terminal request limits from RATE_LIMIT_BURST / RATE_LIMIT_SUSTAINED and a kiosk's
   * phone lookups from RATE_LIMIT_KIOSK_LOOKUP; {} = defaults.
   */
  rateLimits: { burst?: RateLimitEnv; sustained?: RateLimitEnv; kioskLookup?: RateLimitEnv };
  /**
   * TRUSTED_PROXIES: addresses of the proxies in front of this server (canonical form), whose
   * `X-Forwarded-For` names the client; [] = none (the peer is the client).
   */
  trustedProxies: string[];
}

export interface RateLimitEnv {
  limit: number;
  windowMs: number;
}

/** "40/10": 40 requests per 10 seconds. */
function rateLimit(text: string): RateLimitEnv | null {
  const m = /^(\d+)\/(\d+)$/.exec(text);
  if (m === null) return null;
  const limit = Number(m[1]);
  const seconds = Number(m[2]);
  return limit >= 1 && seconds >= 1 && seconds <= 86_400 && Number.isSafeInteger(limit)
    ? { limit, windowMs: seconds * 1000 }
    : null;
}

export type AccessEnvResult = { ok: true; env: AccessEnv } | { ok: false; error: string };

/**
 * Reads PUBLIC_ORIGIN, APP_DB, DATABASE_URL, APP_SECRET, SANDBOX_AUTO_ENROLL,
 * RATE_LIMIT_BURST / RATE_LIMIT_SUSTAINED / RATE_LIMIT_KIOSK_LOOKUP ("requests/seconds") and
 * TRUSTED_PROXIES (comma-separated IP addresses).
 */
export function readAccessEnv(env: Env, server: ServerEnv): AccessEnvResult {
  const errors: string[] = [];
  let publicOrigin: string | null = null;
  const origin = value(env, 'PUBLIC_ORIGIN');
  if (origin !== undefined) {
    let url: URL | null = null;
    try {
      url = new URL(origin);
    } catch {
      url = null;
    }
    if (
      url === null ||
      (url.protocol !== 'https:' && url.protocol !== 'http:') ||
      url.origin !== origin.replace(/\/+$/, '')
    ) {
      errors.push('PUBLIC_ORIGIN must be an origin such as https://pdv.example.com (no path)');
    } else {
      publicOrigin = url.origin;
    }
  }
  if (publicOrigin === null && !isLoopbackHost(server.host)) {
    errors.push(
      `HOST=${server.host} is not a loopback address: set PUBLIC_ORIGIN to the address the terminals open (e.g. https://pdv.example.com)`,
    );
  }
  const databaseUrl = value(env, 'DATABASE_URL') ?? null;
  if (databaseUrl !== null && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    errors.push('DATABASE_URL must be a postgres:// URL');
  }
  const appSecret = value(env, 'APP_SECRET') ?? null;
  if (appSecret !== null && appSecret.length < 32) {
    errors.push('APP_SECRET must have at least 32 characters');
  }
  if (appSecret === null && server.mode === 'live') {
    errors.push('live mode needs APP_SECRET (at least 32 random characters)');
  }
  const auto = value(env, 'SANDBOX_AUTO_ENROLL');
  if (auto !== undefined && auto !== '0' && auto !== '1') {
    errors.push('SANDBOX_AUTO_ENROLL must be 0 or 1');
  }
  const rateLimits: AccessEnv['rateLimits'] = {};
  for (const [name, key] of [
    ['RATE_LIMIT_BURST', 'burst'],
    ['RATE_LIMIT_SUSTAINED', 'sustained'],
    ['RATE_LIMIT_KIOSK_LOOKUP', 'kioskLookup'],
  ] as const) {
    const text = value(env, name);
    if (text === undefined) continue;
    const parsed = rateLimit(text);
    if (parsed === null) errors.push(`${name} must be requests/seconds, such as 40/10`);
    else rateLimits[key] = parsed;
  }
  const trustedProxies: string[] = [];
  for (const item of (value(env, 'TRUSTED_PROXIES') ?? '').split(',')) {
    if (item.trim() === '') continue;
    const ip = canonicalIp(item);
    if (ip === null) {
      errors.push('TRUSTED_PROXIES must be IP addresses separated by commas, such as 10.0.0.2');
      break;
    }
    trustedProxies.push(ip);
  }
  if (errors.length > 0) return { ok: false, error: errors.join('; ') };
  return {
    ok: true,
    env: {
      rateLimits,
      trustedProxies,
      publicOrigin,
      appDb: value(env, 'APP_DB') ?? null,
      databaseUrl,
      appSecret,
      autoEnroll:
        server.mode === 'sandbox' &&
        isLoopbackHost(server.host) &&
        publicOrigin === null &&
        auto !== '0',
    },
  };
}

/** The SQLite file of the app store: APP_DB (relative to the working folder) or data/app.db. */
export function resolveAppDb(appDb: string | null, projectRoot: string): string {
  return appDb === null ? path.join(projectRoot, 'data', 'app.db') : path.resolve(appDb);
}
