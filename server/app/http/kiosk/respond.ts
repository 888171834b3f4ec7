/**
 * What every kiosk handler shares: its Hono types, the role check, the terminal asking, and
 * answers in the service's envelope whose `data` is typed by the contract's schema.
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type * as z from 'zod/mini';
import type { AccessVars } from '../access';
import { portugueseDuration } from '../access';
import { fail, messages } from '../envelope';
import { invalid } from '../validate';
import type { AuditTrail } from '../../domain/audit';
import type { PasswordVerdict } from '../../domain/kiosk/password';
import { actorOf } from '../actor';

export type Vars = { Variables: AccessVars };
export type C = Context<Vars>;
type Terminal = NonNullable<AccessVars['terminal']>;

/** The enrolled terminal asking (the kiosk's routes run after `requireTerminal`). */
export const me = (c: C): Terminal => c.get('terminal')!;

/** Only terminals of these roles reach the route; any other: 403. */
export const requireRole =
  (roles: readonly Terminal['role'][]): MiddlewareHandler<Vars> =>
  async (c, next) => {
    const t = c.get('terminal');
    if (t === undefined || !roles.includes(t.role)) return fail(c, 403, messages.roleForbidden);
    return next();
  };

/** A success whose `data` is what the contract's `schema` reads (`z.input` of it). */
export function ok<S extends z.ZodMiniType>(
  c: C,
  _schema: S,
  message: string,
  data: z.input<S>,
  status: ContentfulStatusCode = 200,
): Response {
  return c.json({ success: true, message, data }, status);
}

/** A refusal that still carries the state the contract's `schema` reads (a 409 with the sale). */
export function refuse<S extends z.ZodMiniType>(
  c: C,
  _schema: S,
  status: ContentfulStatusCode,
  message: string,
  data: z.input<S>,
): Response {
  return c.json({ success: false, message, data }, status);
}

/** 429 with `Retry-After` in whole seconds (at least 1). */
export function tooMany(c: C, retryAfterMs: number, message: string): Response {
  c.header('Retry-After', String(Math.max(1, Math.ceil(retryAfterMs / 1000))));
  return fail(c, 429, message);
}

export const text = {
  passwordWrong: 'Senha do atendente incorreta.',
  notFound: 'Venda não encontrada neste terminal.',
  unavailable: messages.unavailable,
} as const;

/**
 * The answer to an attendant password the service refused, locked out or could not judge; the
 * attempt that locked the terminal is recorded in the audit trail (`operacao` says where).
 */
export async function passwordRefusal(
  c: C,
  verdict: Extract<PasswordVerdict, { ok: false }>,
  audit: AuditTrail | null | undefined,
  operacao: string,
): Promise<Response> {
  if (verdict.reason === 'locked' && verdict.started === true) {
    await audit?.record(actorOf(c), 'senha.bloqueada', {
      operacao,
      bloqueada_ate: new Date(Date.now() + verdict.retryAfterMs).toISOString(),
    });
  }
  switch (verdict.reason) {
    case 'wrong':
      return invalid(c, { senha_atendente: [text.passwordWrong] });
    case 'locked':
      return tooMany(
        c,
        verdict.retryAfterMs,
        messages.passwordLocked(portugueseDuration(verdict.retryAfterMs)),
      );
    case 'unavailable':
      return fail(c, 503, text.unavailable);
  }
}
