/**
 * The one module that reads the environment: `readConfig(process.env)` checks every
 * variable once and returns one typed `Config`; server/main.ts passes its parts down. Error
 * messages name variables, never their values (a token must not end up in a log).
 */
import path from 'node:path';
import { canonicalIp, isLoopbackHost } from './domain/access/address';
import { DEFAULT_AUDIT_RETENTION_DAYS } from './domain/audit';
import type { PostingServiceOptions } from './domain/journal/context';
import { readBackupEnv, type BackupEnv } from './config-backup';
import { readWebhookEnv, type WebhookEnv } from './config-webhook';
import { LOG_LEVELS, OperationsEnv, rateLimit, type RateLimitEnv } from './config-operations';

export type { RateLimitEnv } from './config-operations';
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
      /** SANDBOX_STORES: the demo chain's stores; absent: 3 (establishment 1, then 3 and 4). */
      sandboxStores?: number;
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
    const storesText = value(env, 'SANDBOX_STORES');
    const sandboxStores = storesText === undefined ? undefined : integer(storesText, 1, 1000);
    if (sandboxStores === null) errors.push('SANDBOX_STORES must be an integer from 1 to 1000');
    if (errors.length > 0 || port === null || establishmentId === null || sandboxStores === null) {
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
        ...(sandboxStores === undefined ? {} : { sandboxStores }),
      },
    };
  }

  const missing = ['LOYALTY_APP_TOKEN', 'LOYALTY_ACCESS_TOKEN', 'LOYALTY_ESTABLISHMENT_ID'].filter(
    (name) => value(env, name) === undefined,
  );
  if (missing.length > 0) {
    errors.unshift(`live mode (LOYALTY_BASE_URL is set) needs ${missing.join(', ')}`);
  }
  let url: URL | null;
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

/**
 * The default store's establishment for the command lines (`npm run terminal`, `loja`), which
 * need no tokens: LOYALTY_ESTABLISHMENT_ID, or the sandbox's 1. Null when it is malformed.
 */
export function defaultEstablishmentId(env: Env): number | null {
  const text = value(env, 'LOYALTY_ESTABLISHMENT_ID');
  return text === undefined ? 1 : integer(text, 1, Number.MAX_SAFE_INTEGER);
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
    let url: URL | null;
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

/** The whole configuration, read once by server/main.ts. */
export interface Config {
  server: ServerEnv;
  access: AccessEnv;
  /** The journal's limits from JOURNAL_*; defaults (domain/journal/context.ts) where absent. */
  journal: Partial<PostingServiceOptions>;
  /** Contingency from CONTINGENCY_*: the circuit's settings and the journal's limits. */
  contingency: { failures?: number; probeMs?: number; journal: Partial<PostingServiceOptions> };
  /** Scheduled backups (BACKUP_*), or null without BACKUP_DIR. */
  backup: BackupEnv | null;
  logLevel: (typeof LOG_LEVELS)[number];
  /** METRICS_TOKEN: a bearer token that opens /metrics beyond loopback; null = loopback only. */
  metricsToken: string | null;
  /** SHUTDOWN_TIMEOUT_MS: how long postings in flight may take to finish on SIGTERM. */
  shutdownMs: number;
  /** The integration API (the store's PDV): PDV_*, RATE_LIMIT_INTEGRACAO; absent: defaults. */
  pdv: { password?: string; expiryMs?: number; rate?: RateLimitEnv };
  /** CONFERENCIA_*: the conferência's reads per second and the nightly run's local hour. */
  conferencia: { readsPerSecond: number; nightlyHour: number };
  /** AUDIT_RETENTION_DAYS: how long the audit trail keeps an entry (default 400). */
  auditRetentionDays: number;
  /** ALERT_WEBHOOK_URL and its secret: Vigilância's outbound webhook; null: off. */
  webhook: WebhookEnv | null;
  /** ALERT_WEBHOOK_RETENCAO_DIAS: settled deliveries are kept this long (ms). */
  webhookRetentionMs: number;
}

export type ConfigResult = { ok: true; config: Config } | { ok: false; error: string };

const defined = <T extends object>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

/** Reads and checks the whole environment; every problem found, in one line. */
export function readConfig(env: Env): ConfigResult {
  const server = readServerEnv(env);
  if (!server.ok) return server;
  const errors: string[] = [];
  const access = readAccessEnv(env, server.env);
  if (!access.ok) errors.push(access.error);
  const backup = readBackupEnv(env);
  if (!backup.ok) errors.push(backup.error);
  const webhook = readWebhookEnv(env);
  if (!webhook.ok) errors.push(webhook.error);
  const ops = OperationsEnv.safeParse(env);
  if (!ops.success) errors.push(...new Set(ops.error.issues.map((i) => i.message)));
  if (!access.ok || !backup.ok || !webhook.ok || !ops.success)
    return { ok: false, error: errors.join('; ') };
  const v = ops.data;
  const hours = v.CONTINGENCY_MAX_HOURS;
  return {
    ok: true,
    config: {
      server: server.env,
      access: access.env,
      journal: defined({
        upstreamLimitMs: v.JOURNAL_UPSTREAM_LIMIT_MS,
        waitMs: v.JOURNAL_WAIT_MS,
        quietMs: v.JOURNAL_QUIET_MS,
        unknownHorizonMs: v.JOURNAL_UNKNOWN_HORIZON_MS,
        recheckMs: v.JOURNAL_RECHECK_MS,
        leaseMs: v.JOURNAL_LEASE_MS,
        lookupReuseMs: v.JOURNAL_LOOKUP_REUSE_MS,
        retentionMs: v.JOURNAL_RETENTION_DAYS
          ? Number(v.JOURNAL_RETENTION_DAYS) * 24 * 3_600_000
          : undefined,
        // REWARD_HANDOVER=0: rewards are never handed over at the counter.
        rewardHandover: v.REWARD_HANDOVER === '0' ? false : undefined,
      }),
      contingency: {
        ...defined({ failures: v.CONTINGENCY_FAILURES, probeMs: v.CONTINGENCY_PROBE_MS }),
        journal: defined({
          maxWaiting: v.CONTINGENCY_MAX_WAITING,
          maxWaitMs: hours ? Math.round(Number(hours) * 3_600_000) : undefined,
          deliveryConcurrency: v.CONTINGENCY_DELIVERY_CONCURRENCY,
        }),
      },
      backup: backup.backup,
      logLevel: v.LOG_LEVEL ?? 'info',
      metricsToken: v.METRICS_TOKEN ?? null,
      shutdownMs: v.SHUTDOWN_TIMEOUT_MS ?? 30_000,
      pdv: defined({
        password: v.PDV_SENHA_ATENDENTE,
        expiryMs: v.PDV_VENDA_EXPIRA_MIN ? Math.round(v.PDV_VENDA_EXPIRA_MIN * 60_000) : undefined,
        rate: v.RATE_LIMIT_INTEGRACAO ?? undefined,
      }),
      conferencia: {
        readsPerSecond: v.CONFERENCIA_LEITURAS_POR_SEGUNDO ?? 5,
        nightlyHour: v.CONFERENCIA_HORA ?? 3,
      },
      auditRetentionDays: v.AUDIT_RETENTION_DAYS ?? DEFAULT_AUDIT_RETENTION_DAYS,
      webhook: webhook.webhook,
      webhookRetentionMs: webhook.retentionMs,
    },
  };
}
