/**
 * Who may reach the service through this server: the Host and Origin checks, the terminal
 * credential (cookie), roles, per-terminal rate limits and the attendant-password lockout.
 * Every refusal is the service's envelope with a Portuguese message; none calls the upstream.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import {
  activeTerminal,
  enrollDirectly,
  hitRate,
  lockoutState,
  PASSWORD_LOCKOUT,
  recordFailure,
  recordSuccess,
  redeemCode,
  refundFailure,
  sweepRateCounters,
} from '../../store';
import type { LockoutPolicy, Store, Terminal } from '../../store';
import { credentialVerifier, signCredential } from '../domain/credential';
import { fail, messages } from './envelope';
import { canonicalIp, isLoopbackHost } from '../config';
import { canonicalQuery, navigationFor, operationAt, roleMay } from '../domain/operations';
import type { Operation } from '../domain/operations';
import { checkPath } from './proxy';
import type { RequestLogVars } from './request-log';

export interface RateLimit {
  limit: number;
  windowMs: number;
}

export interface AccessLimits {
  /** Per terminal: a short burst and a sustained rate. */
  burst: RateLimit;
  sustained: RateLimit;
  /**
   * Per client address, failed code redemptions only (a code has ~40 bits and lives 15 min:
   * 10 failures a minute keep guessing hopeless). The lock is short and never escalates, so
   * a terminal sharing an address with a guesser waits a minute at most; a valid code never
   * counts.
   */
  enroll: LockoutPolicy;
  password: LockoutPolicy;
  /**
   * Per kiosk terminal: phone lookups (`/api/quiosque/saldo`, `cadastro`), so a kiosk cannot
   * be used to enumerate customers.
   */
  kioskLookup: RateLimit;
}

export const DEFAULT_LIMITS: AccessLimits = {
  burst: { limit: 40, windowMs: 10_000 },
  sustained: { limit: 600, windowMs: 10 * 60_000 },
  enroll: { maxFailures: 10, windowMs: 60_000, baseLockMs: 60_000, maxLockMs: 60_000 },
  password: PASSWORD_LOCKOUT,
  kioskLookup: { limit: 6, windowMs: 60_000 },
};

export interface AccessOptions {
  store: Store;
  /** HMAC key of the credentials (APP_SECRET). */
  secret: string;
  /** The origin terminals use (PUBLIC_ORIGIN), or null: loopback names only, plain http. */
  publicOrigin: string | null;
  /** Sandbox on loopback: a browser without a credential is enrolled as gerente by /api/config. */
  autoEnroll: boolean;
  limits?: Partial<AccessLimits>;
  /**
   * TRUSTED_PROXIES (canonical addresses): a request from one of them is from the client its
   * `X-Forwarded-For` names (the right-most address that is not a trusted proxy).
   */
  trustedProxies?: readonly string[];
  /**
   * Every pontuar goes through the postings journal in this same store: its flushed
   * journaling, before anything is sent, also flushes the attempt's password reservation, which
   * therefore need not be flushed on its own (one fsync fewer per posting).
   */
  journaledInStore?: boolean;
}

export type AccessVars = RequestLogVars & {
  terminal?: Terminal;
  operation?: Operation;
  /** The operation's query, each parameter once: what the role check reads and the proxy sends. */
  query?: URLSearchParams;
  /** Set by a route that refused a posting itself, before the service judged its password. */
  noVerdict?: boolean;
};
type C = Context<{ Variables: AccessVars }>;
type Middleware = MiddlewareHandler<{ Variables: AccessVars }>;

/** Minutes and seconds in Portuguese: "4 min 10 s", "45 s". */
export function portugueseDuration(ms: number): string {
  const total = Math.max(1, Math.ceil(ms / 1000));
  const min = Math.floor(total / 60);
  const s = total % 60;
  if (min === 0) return `${s} s`;
  return s === 0 ? `${min} min` : `${min} min ${s} s`;
}

function withRetryAfter(c: C, ms: number): void {
  c.header('Retry-After', String(Math.max(1, Math.ceil(ms / 1000))));
}

/** A 422 naming `senha_atendente`, in any of the error shapes the service may use. */
export function namesPassword(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const b = body as Record<string, unknown>;
  for (const field of ['errors', 'messages']) {
    const errs = b[field];
    if (typeof errs === 'object' && errs !== null && 'senha_atendente' in errs) return true;
  }
  return false;
}

export function createAccess(o: AccessOptions) {
  const limits: AccessLimits = { ...DEFAULT_LIMITS, ...o.limits };
  const secure = o.publicOrigin?.startsWith('https://') ?? false;
  /**
   * __Host- binds the cookie to this exact host over HTTPS (no Domain, Path=/). Over plain
   * http (loopback) the port is in the name: cookies ignore ports, and two app servers on
   * one computer (sandbox establishments 1 and 2) must not overwrite each other's.
   */
  function cookieName(c: C): string {
    if (secure) return '__Host-pdv_terminal';
    return credentialCookieName(o.publicOrigin ?? c.req.url);
  }
  const publicHost = o.publicOrigin === null ? null : new URL(o.publicOrigin).host;
  const trusted: ReadonlySet<string> = new Set(o.trustedProxies ?? []);
  /** pontuar requests in flight in this process, per terminal id. */
  const inFlight = new Map<number, number>();
  let sweptAt = 0;

  /**
   * The request URL's host is the `Host` header (@hono/node-server builds the URL from it,
   * falling back to the bound address when a client sends none).
   */
  function hostAllowed(url: URL): boolean {
    if (publicHost !== null) return url.host === publicHost;
    return isLoopbackHost(url.hostname);
  }

  function expectedOrigin(c: C): string {
    return o.publicOrigin ?? new URL(c.req.url).origin;
  }

  function setCredential(c: C, terminal: Terminal, nonce: string): void {
    setCookie(c, cookieName(c), signCredential(o.secret, terminal.id, nonce), {
      path: '/',
      httpOnly: true,
      sameSite: 'Strict',
      secure,
      maxAge: 400 * 24 * 3600, // the longest a browser keeps a cookie; revocation ends it sooner
    });
  }

  const verify = credentialVerifier(o.secret);
  async function terminalOf(c: C): Promise<Terminal | null> {
    const cred = verify(getCookie(c, cookieName(c)));
    if (cred === null) return null;
    return activeTerminal(o.store, cred.id, cred.nonce);
  }

  function describe(terminal: Terminal | null) {
    return terminal === null
      ? null
      : {
          id: terminal.id,
          name: terminal.name,
          role: terminal.role,
          navigation: navigationFor(terminal.role),
        };
  }

  /** Every request: a Host this server serves (DNS rebinding gets nothing). */
  const hostGuard: Middleware = async (c, next) => {
    const url = new URL(c.req.url);
    if (hostAllowed(url)) return next();
    const { pathname } = url;
    if (pathname === '/api' || pathname.startsWith('/api/')) {
      return fail(c, 421, messages.foreignHost);
    }
    return c.text('Misdirected Request\n', 421);
  };

  /** Non-GET: same-origin `Origin` (a cross-site form gets nothing); POST: a JSON body. */
  const sameOriginJson: Middleware = async (c, next) => {
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD') return next();
    if (c.req.header('origin') !== expectedOrigin(c)) return fail(c, 403, messages.crossOrigin);
    if (method === 'POST') {
      const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      if (type !== 'application/json') return fail(c, 415, messages.notJson);
    }
    return next();
  };

  return {
    hostGuard,
    sameOriginJson,
    terminalOf,
    setCredential,
    describe,
    limits,
    /** GET /api/config: answers anyone; auto-enrolls in sandbox-on-loopback. */
    async configTerminal(c: C): Promise<ReturnType<typeof describe>> {
      let terminal = await terminalOf(c);
      if (terminal === null && o.autoEnroll) {
        const enrolled = await enrollDirectly(o.store, {
          name: 'Navegador local (sandbox)',
          role: 'gerente',
        });
        setCredential(c, enrolled.terminal, enrolled.nonce);
        terminal = enrolled.terminal;
      }
      return describe(terminal);
    },
    /**
     * POST /api/terminal/registrar { codigo }: redeems a one-time code, sets the cookie. Each
     * attempt counts as a failure of its client address until the code proves valid (a
     * reservation, so parallel guesses cannot pass the limit either); a valid code, a request
     * with no code or no JSON take theirs back.
     */
    async enroll(c: C): Promise<Response> {
      const key = `enroll:${addressKey(clientAddress(c, trusted))}`;
      const reserved = await recordFailure(o.store, key, limits.enroll);
      if (!reserved.counted) {
        const left = reserved.lockedUntil! - o.store.now();
        withRetryAfter(c, left);
        return fail(c, 429, messages.enrollTooMany(portugueseDuration(left)));
      }
      let body: unknown;
      try {
        body = await c.req.json();
      } catch {
        await refundFailure(o.store, key);
        return fail(c, 400, messages.badJson);
      }
      const code = (body as { codigo?: unknown } | null)?.codigo;
      if (typeof code !== 'string' || code.trim() === '') {
        await refundFailure(o.store, key);
        return c.json(
          {
            success: false,
            message: messages.codeMissing,
            errors: { codigo: [messages.codeMissing] },
            data: {},
          },
          422,
        );
      }
      const redeemed = code.length <= 32 ? await redeemCode(o.store, code) : null;
      if (redeemed === null) {
        return c.json(
          {
            success: false,
            message: messages.codeInvalid,
            errors: { codigo: [messages.codeInvalid] },
            data: {},
          },
          422,
        );
      }
      // A success forgets the address's failures and ends a lock this very attempt began.
      await recordSuccess(o.store, key);
      setCredential(c, redeemed.terminal, redeemed.nonce);
      return c.json({
        success: true,
        message: `Terminal registrado: ${redeemed.terminal.name}.`,
        data: { terminal: describe(redeemed.terminal) },
      });
    },
    /** The enrolled terminal whose role may run this operation (401/403 otherwise). */
    requireTerminal: (async (c, next) => {
      const terminal = await terminalOf(c);
      if (terminal === null) return fail(c, 401, messages.notEnrolled);
      c.set('terminal', terminal);
      const op = c.get('operation');
      if (
        op !== undefined &&
        !roleMay(terminal.role, op.name, c.get('query') ?? new URLSearchParams())
      ) {
        return fail(c, 403, messages.roleForbidden);
      }
      return next();
    }) satisfies Middleware,
    /** Routes of the counter's own (a posting's state): never the kiosk. */
    staffOnly: (async (c, next) => {
      if (c.get('terminal')?.role === 'quiosque') return fail(c, 403, messages.roleForbidden);
      return next();
    }) satisfies Middleware,
    /**
     * pontuar: at most `password.maxFailures` (5) of a terminal's postings in flight in this
     * process, then a 429 that says so (`em_andamento`). Each posting in flight holds a
     * password-failure reservation (passwordLockout), so the 6th would find the terminal
     * locked and read a wrong-password message; in one process it reads this one instead.
     */
    postingsInFlight: (async (c, next) => {
      if (c.get('operation')?.name !== 'pontuar') return next();
      const id = c.get('terminal')!.id;
      const max = limits.password.maxFailures;
      const now = inFlight.get(id) ?? 0;
      if (now >= max) {
        withRetryAfter(c, 1000);
        return c.json(
          { success: false, message: messages.postingsInFlight(max), data: { em_andamento: max } },
          429,
        );
      }
      inFlight.set(id, now + 1);
      try {
        await next();
      } finally {
        const left = (inFlight.get(id) ?? 1) - 1;
        if (left > 0) inFlight.set(id, left);
        else inFlight.delete(id);
      }
    }) satisfies Middleware,
    /**
     * pontuar on a locked terminal: the lock and its time left, before anything else (a
     * cashier must read why, not a rate-limit message). Read-only; the count is below.
     */
    passwordLocked: (async (c, next) => {
      if (c.get('operation')?.name !== 'pontuar') return next();
      const state = await lockoutState(o.store, passwordKey(c));
      return state.lockedUntil === null ? next() : locked(c, state.lockedUntil);
    }) satisfies Middleware,
    /** Per terminal: a burst and a sustained rate (shared by every replica through the store). */
    rateLimit: (async (c, next) => {
      const id = c.get('terminal')!.id;
      const rate = await hitRate(o.store, [
        { key: `terminal:${id}`, ...limits.burst },
        { key: `terminal:${id}`, ...limits.sustained },
      ]);
      if (!rate.allowed) {
        withRetryAfter(c, rate.retryAfterMs);
        return fail(c, 429, messages.tooMany(portugueseDuration(rate.retryAfterMs)));
      }
      const now = o.store.now();
      if (now - sweptAt > 10 * 60_000) {
        sweptAt = now;
        void sweepRateCounters(o.store).catch(() => undefined);
      }
      return next();
    }) satisfies Middleware,
    /**
     * pontuar: each attempt counts as a password failure until the answer says otherwise
     * (a reservation), so even parallel guesses from several replicas cannot pass the
     * threshold; a 2xx or a 422 not naming the password clears it; no verdict (another
     * status, or the journal's 202 while the answer is pending) refunds it.
     */
    passwordLockout: (async (c, next) => {
      if (c.get('operation')?.name !== 'pontuar') return next();
      const key = passwordKey(c);
      const reserved = await recordFailure(o.store, key, limits.password, {
        durable: o.journaledInStore !== true,
      });
      if (!reserved.counted) return locked(c, reserved.lockedUntil!);
      await next();
      const status = c.res.status;
      // 202: the journal has not heard the service's verdict yet (no verdict, no count); nor
      // is the journal's own refusal (a 422 for a missing key, say) a verdict on the password.
      if (
        c.get('noVerdict') === true ||
        status === 202 ||
        (status !== 422 && (status < 200 || status >= 300))
      ) {
        return void (await refundFailure(o.store, key));
      }
      if (status !== 422) return void (await recordSuccess(o.store, key));
      let body: unknown = null;
      try {
        body = await c.res.clone().json();
      } catch {
        body = null;
      }
      if (!namesPassword(body)) return void (await recordSuccess(o.store, key));
      if (reserved.lockedUntil !== null) c.res = locked(c, reserved.lockedUntil);
    }) satisfies Middleware,
    /**
     * Proxied paths: sets c.var.operation and c.var.query, or answers 403 (another
     * establishment), 400 (a bad segment; a query parameter repeated or not the operation's),
     * 404 (not one of the four), 405 with Allow (not its one method; TRACE too).
     */
    routeOperation:
      (establishmentId: number): Middleware =>
      async (c, next) => {
        const pathname = new URL(c.req.url).pathname;
        const check = checkPath(pathname, establishmentId);
        if (check === 'forbidden') return fail(c, 403, messages.forbidden);
        if (check === 'bad') return fail(c, 400, messages.badPath);
        if (check === 'notFound') return fail(c, 404, messages.notFound);
        const op = operationAt(check.rest);
        if (op === null) return fail(c, 404, messages.notFound);
        if (c.req.method !== op.method) {
          c.header('Allow', op.method);
          return fail(c, 405, messages.methodNotAllowed);
        }
        const query = canonicalQuery(op, new URL(c.req.url).search);
        if (!query.ok) {
          const name = query.name.slice(0, 40);
          return fail(
            c,
            400,
            query.reason === 'repeated'
              ? messages.repeatedParam(name)
              : messages.unknownParam(name),
          );
        }
        c.set('operation', op);
        c.set('query', query.query);
        return next();
      },
  };

  function passwordKey(c: C): string {
    return `senha:terminal:${c.get('terminal')!.id}`;
  }

  function locked(c: C, until: number): Response {
    const left = until - o.store.now();
    withRetryAfter(c, left);
    return c.json(
      {
        success: false,
        message: messages.passwordLocked(portugueseDuration(left)),
        data: {
          bloqueado_ate: new Date(until).toISOString(),
          segundos_restantes: Math.ceil(left / 1000),
        },
      },
      429,
    );
  }
}

/** The credential cookie's name over plain http: `pdv_terminal`, plus `_<port>` when there is one. */
export function credentialCookieName(url: string): string {
  const { port } = new URL(url);
  return port === '' ? 'pdv_terminal' : `pdv_terminal_${port}`;
}

/**
 * The client's address: the peer's, unless the peer is a trusted proxy; then the right-most
 * address of `X-Forwarded-For` that is not a trusted proxy (each proxy appends the address it
 * got the request from, so what is left of that was written by whoever sent it and may be
 * forged). An entry that is not an address stops the walk at the proxy that wrote it.
 */
export function forwardedClient(
  peer: string,
  forwardedFor: string | undefined,
  trusted: ReadonlySet<string>,
): string {
  let client = canonicalIp(peer) ?? peer;
  if (!trusted.has(client) || forwardedFor === undefined) return client;
  const hops = forwardedFor.split(',');
  for (let i = hops.length - 1; i >= 0; i--) {
    const ip = canonicalIp(stripPort(hops[i]!.trim()));
    if (ip === null) return client;
    client = ip;
    if (!trusted.has(ip)) return ip;
  }
  return client;
}

/** `[2001:db8::1]:443` and `10.0.0.5:443` without their port. */
function stripPort(hop: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(hop);
  if (bracketed !== null) return bracketed[1]!;
  const v4 = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(hop);
  return v4 === null ? hop : v4[1]!;
}

/** The key an address is limited by: IPv4 as is, IPv6 by its /64 (one host holds a /64). */
export function addressKey(ip: string): string {
  if (!ip.includes(':')) return ip;
  const [head = '', tail] = ip.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups =
    tail === undefined
      ? left
      : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return `${groups.slice(0, 4).join(':')}::/64`;
}

/** The client address of a request (see forwardedClient). */
function clientAddress(c: C, trusted: ReadonlySet<string>): string {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  const peer = env?.incoming?.socket?.remoteAddress ?? 'local';
  return forwardedClient(peer, c.req.header('x-forwarded-for'), trusted);
}
