/**
 * The terminal behind a request: its credential cookie, enrollment (a manager's code, or
 * directly in sandbox-on-loopback), and the role checks of the routes.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { addressKey, forwardedClient } from '../../domain/access/address';
import type { Limits } from '../../domain/access/limits';
import { portugueseDuration } from '../../domain/access/limits';
import { describeTerminal } from '../../domain/access/terminals';
import type { Terminal, TerminalView, Terminals } from '../../domain/access/terminals';
import type { AuditTrail } from '../../domain/audit';
import { roleMay } from '../../domain/operations';
import type { Operation } from '../../domain/operations';
import { EnrollRequest } from '#contract/api/terminals';
import { fail, messages } from '../envelope';
import { actorOf } from '../actor';
import type { RequestLogVars } from '../request-log';

export type AccessVars = RequestLogVars & {
  terminal?: Terminal;
  operation?: Operation;
  /** The operation's query, each parameter once: what the role check reads and the proxy sends. */
  query?: URLSearchParams;
  /** Set by a route that refused a posting itself, before the service judged its password. */
  noVerdict?: boolean;
};
export type AccessContext = Context<{ Variables: AccessVars }>;
export type AccessMiddleware = MiddlewareHandler<{ Variables: AccessVars }>;

export function withRetryAfter(c: Context, ms: number): void {
  c.header('Retry-After', String(Math.max(1, Math.ceil(ms / 1000))));
}

/** The credential cookie's name over plain http: `pdv_terminal`, plus `_<port>` when there is one. */
export function credentialCookieName(url: string): string {
  const { port } = new URL(url);
  return port === '' ? 'pdv_terminal' : `pdv_terminal_${port}`;
}

/** The client address of a request (see forwardedClient). */
function clientAddress(c: Context, trusted: ReadonlySet<string>): string {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  const peer = env?.incoming?.socket?.remoteAddress ?? 'local';
  return forwardedClient(peer, c.req.header('x-forwarded-for'), trusted);
}

export interface TerminalAccessDeps {
  terminals: Terminals;
  limits: Limits;
  /** The origin terminals use (PUBLIC_ORIGIN), or null: loopback names only, plain http. */
  publicOrigin: string | null;
  /** Sandbox on loopback: a browser without a credential is enrolled as gerente by /api/config. */
  autoEnroll: boolean;
  /** TRUSTED_PROXIES (canonical addresses). */
  trustedProxies: readonly string[];
  audit: AuditTrail | null;
}

export function terminalAccess(deps: TerminalAccessDeps) {
  const secure = deps.publicOrigin?.startsWith('https://') ?? false;
  const trusted: ReadonlySet<string> = new Set(deps.trustedProxies);
  /**
   * __Host- binds the cookie to this exact host over HTTPS (no Domain, Path=/). Over plain
   * http (loopback) the port is in the name: cookies ignore ports, and two app servers on
   * one computer (sandbox establishments 1 and 2) must not overwrite each other's.
   */
  const cookieName = (c: Context) =>
    secure ? '__Host-pdv_terminal' : credentialCookieName(deps.publicOrigin ?? c.req.url);

  function setCredential(c: Context, credential: string): void {
    setCookie(c, cookieName(c), credential, {
      path: '/',
      httpOnly: true,
      sameSite: 'Strict',
      secure,
      maxAge: 400 * 24 * 3600, // the longest a browser keeps a cookie; revocation ends it sooner
    });
  }

  const terminalOf = (c: Context) => deps.terminals.identify(getCookie(c, cookieName(c)));

  /** An enrollment, recorded with the terminal it enrolled as the actor. */
  const recordEnrollment = async (c: Context, t: Terminal, how: 'código' | 'automático') =>
    deps.audit?.record(actorOf(c, t), 'terminal.registrado', {
      terminal: { id: t.id, nome: t.name, papel: t.role },
      modo: how,
    });

  const invalidCode = (c: Context, message: string) =>
    c.json({ success: false, message, errors: { codigo: [message] }, data: {} }, 422);

  return {
    terminalOf,
    setCredential,
    /** GET /api/config: answers anyone; auto-enrolls in sandbox-on-loopback. */
    async configTerminal(c: Context): Promise<TerminalView | null> {
      let terminal = await terminalOf(c);
      if (terminal === null && deps.autoEnroll) {
        const enrolled = await deps.terminals.enrollLocal();
        setCredential(c, enrolled.credential);
        terminal = enrolled.terminal;
        await recordEnrollment(c, terminal, 'automático');
      }
      return terminal === null ? null : describeTerminal(terminal);
    },
    /**
     * POST /api/terminal/registrar { codigo }: redeems a one-time code, sets the cookie. Each
     * attempt counts as a failure of its client address until the code proves valid (a
     * reservation, so parallel guesses cannot pass the limit either); a valid code, a request
     * with no code or no JSON take theirs back.
     */
    async enroll(c: Context): Promise<Response> {
      const address = addressKey(clientAddress(c, trusted));
      const reserved = await deps.limits.reserveEnrollment(address);
      if (!reserved.counted) {
        const left = reserved.lockedUntil! - deps.limits.now();
        withRetryAfter(c, left);
        return fail(c, 429, messages.enrollTooMany(portugueseDuration(left)));
      }
      let body: unknown;
      try {
        body = await c.req.json();
      } catch {
        await deps.limits.refundEnrollment(address);
        return fail(c, 400, messages.badJson);
      }
      const request = EnrollRequest.safeParse(body);
      if (!request.success || request.data.codigo.trim() === '') {
        await deps.limits.refundEnrollment(address);
        return invalidCode(c, messages.codeMissing);
      }
      const redeemed = await deps.terminals.redeem(request.data.codigo);
      if (redeemed === null) return invalidCode(c, messages.codeInvalid);
      await deps.limits.enrollmentSucceeded(address);
      await recordEnrollment(c, redeemed.terminal, 'código');
      setCredential(c, redeemed.credential);
      return c.json({
        success: true,
        message: `Terminal registrado: ${redeemed.terminal.name}.`,
        data: { terminal: describeTerminal(redeemed.terminal) },
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
    }) satisfies AccessMiddleware,
    /** Routes of the counter's own (a posting's state): never the kiosk. */
    staffOnly: (async (c, next) => {
      if (c.get('terminal')?.role === 'quiosque') return fail(c, 403, messages.roleForbidden);
      return next();
    }) satisfies AccessMiddleware,
  };
}
