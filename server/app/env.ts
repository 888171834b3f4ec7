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
