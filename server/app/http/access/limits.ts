/**
 * The limits at the edge: a terminal's request rate, its postings in flight, and the
 * attendant-password lockout around every pontuar. The counting lives in domain/access.
 */
import type { Context } from 'hono';
import type { Limits } from '../../domain/access/limits';
import { namesPassword, portugueseDuration } from '../../domain/access/limits';
import type { AuditTrail } from '../../domain/audit';
import { actorOf } from '../actor';
import { fail, messages } from '../envelope';
import type { AccessContext, AccessMiddleware } from './terminal';
import { withRetryAfter } from './terminal';

/** A 429 telling the lock and its time left. */
export function lockedAnswer(c: Context, until: number, now: number): Response {
  const left = until - now;
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

/** A 429 telling that `max` of the terminal's postings are still waiting for their answer. */
function busyAnswer(c: Context, max: number): Response {
  withRetryAfter(c, 1000);
  return c.json(
    { success: false, message: messages.postingsInFlight(max), data: { em_andamento: max } },
    429,
  );
}

/** The password verdict a pontuar's answer carries (see passwordLockout). */
async function verdictOf(c: AccessContext) {
  const status = c.res.status;
  // 202: the journal has not heard the service's verdict yet (no verdict, no count); nor is
  // the journal's own refusal (a 422 for a missing key, say) a verdict on the password.
  if (c.get('noVerdict') === true || status === 202) return 'none';
  if (status !== 422) return status >= 200 && status < 300 ? 'right' : 'none';
  let body: unknown;
  try {
    body = await c.res.clone().json();
  } catch {
    body = null;
  }
  return namesPassword(body) ? 'wrong' : 'right';
}

export function limitsAccess(limits: Limits, audit: AuditTrail | null = null) {
  /** pontuar requests in flight in this process, per terminal id. */
  const inFlight = new Map<number, number>();
  /** pontuar and resgatar-premio: the operations carrying the attendant password. */
  const isPosting = (c: AccessContext) => c.get('operation')?.password === true;

  return {
    /**
     * pontuar: at most `password.maxFailures` (5) of a terminal's postings in flight in this
     * process, then a 429 that says so (`em_andamento`). Each posting in flight holds a
     * password-failure reservation (passwordLockout), so the 6th would find the terminal
     * locked and read a wrong-password message; in one process it reads this one instead.
     */
    postingsInFlight: (async (c, next) => {
      if (!isPosting(c)) return next();
      const id = c.get('terminal')!.id;
      const max = limits.limits.password.maxFailures;
      const now = inFlight.get(id) ?? 0;
      if (now >= max) {
        return busyAnswer(c, max);
      }
      inFlight.set(id, now + 1);
      try {
        await next();
      } finally {
        const left = (inFlight.get(id) ?? 1) - 1;
        if (left > 0) inFlight.set(id, left);
        else inFlight.delete(id);
      }
    }) satisfies AccessMiddleware,
    /**
     * pontuar on a locked terminal: the lock and its time left, before anything else (a
     * cashier must read why, not a rate-limit message). Read-only; the count is below.
     */
    passwordLocked: (async (c, next) => {
      if (!isPosting(c)) return next();
      const until = await limits.passwordLockedUntil(c.get('terminal')!.id);
      return until === null ? next() : lockedAnswer(c, until, limits.now());
    }) satisfies AccessMiddleware,
    /** Per terminal: a burst and a sustained rate (shared by every replica through the store). */
    rateLimit: (async (c, next) => {
      const rate = await limits.terminalRate(c.get('terminal')!.id);
      if (!rate.allowed) {
        withRetryAfter(c, rate.retryAfterMs);
        return fail(c, 429, messages.tooMany(portugueseDuration(rate.retryAfterMs)));
      }
      return next();
    }) satisfies AccessMiddleware,
    /**
     * pontuar: each attempt is reserved until the answer says what it was (failures and
     * attempts waiting stay under the threshold together, so even parallel guesses from
     * several replicas cannot pass it; one more waits as busy); a 2xx or a 422 not naming the
     * password clears the failures; no verdict (another status, or the journal's 202 while the
     * answer is pending) counts nothing; a wrong one counts, and the 5th locks.
     */
    passwordLockout: (async (c, next) => {
      if (!isPosting(c)) return next();
      const id = c.get('terminal')!.id;
      const reserved = await limits.reservePassword(id);
      if (reserved.busy) {
        const max = limits.limits.password.maxFailures;
        return busyAnswer(c, max);
      }
      if (!reserved.counted) return lockedAnswer(c, reserved.lockedUntil!, limits.now());
      await next();
      const verdict = await verdictOf(c);
      const lockedUntil = await limits.settlePassword(id, verdict);
      if (lockedUntil !== null) {
        // This attempt locked the terminal: recorded once (later attempts find it locked).
        await audit?.record(actorOf(c), 'senha.bloqueada', {
          operacao: c.get('operation')?.name ?? null,
          bloqueada_ate: new Date(lockedUntil).toISOString(),
        });
        c.res = lockedAnswer(c, lockedUntil, limits.now());
      }
    }) satisfies AccessMiddleware,
  };
}
