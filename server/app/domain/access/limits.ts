/**
 * The limits one terminal or one address may not pass, kept in the store so that every
 * replica counts together: a terminal's request rate, the attendant-password lockout, and
 * failed enrollment codes per client address. The decisions only: http/ turns them into
 * answers.
 */
import {
  hitRate,
  lockoutState,
  PASSWORD_LOCKOUT,
  recordFailure,
  recordSuccess,
  refundFailure,
  reserveAttempt,
  settleAttempt,
  sweepRateCounters,
} from '../../../store';
import type { LockoutPolicy, Store } from '../../../store';

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

/** Minutes and seconds in Portuguese: "4 min 10 s", "45 s". */
export function portugueseDuration(ms: number): string {
  const total = Math.max(1, Math.ceil(ms / 1000));
  const min = Math.floor(total / 60);
  const s = total % 60;
  if (min === 0) return `${s} s`;
  return s === 0 ? `${min} min` : `${min} min ${s} s`;
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

/** A reservation: counted (or refused because the key is locked until `lockedUntil`). */
export interface Reservation {
  counted: boolean;
  lockedUntil: number | null;
}

/** What the service said of a password: right, wrong, or nothing (no verdict). */
export type PasswordVerdict = 'right' | 'wrong' | 'none';

export interface LimitsDeps {
  store: Store;
  limits: AccessLimits;
  /**
   * Every pontuar is journaled in this same store: its flushed journaling, before anything
   * is sent, also flushes the password reservation (one fsync fewer per posting).
   */
  journaledInStore: boolean;
}

const passwordKey = (terminalId: number) => `senha:terminal:${terminalId}`;
const enrollKey = (address: string) => `enroll:${address}`;

export function createLimits(deps: LimitsDeps) {
  const { store, limits } = deps;
  let sweptAt = 0;

  return {
    limits,
    now: () => store.now(),
    /** A terminal's burst and sustained rate; old counters are swept now and then. */
    async terminalRate(
      terminalId: number,
    ): Promise<{ allowed: true } | { allowed: false; retryAfterMs: number }> {
      const rate = await hitRate(store, [
        { key: `terminal:${terminalId}`, ...limits.burst },
        { key: `terminal:${terminalId}`, ...limits.sustained },
      ]);
      if (!rate.allowed) return { allowed: false, retryAfterMs: rate.retryAfterMs };
      const now = store.now();
      if (now - sweptAt > 10 * 60_000) {
        sweptAt = now;
        void sweepRateCounters(store).catch(() => undefined);
      }
      return { allowed: true };
    },
    /** A kiosk terminal's phone lookups. */
    async kioskLookup(
      terminalId: number,
    ): Promise<{ allowed: true } | { allowed: false; retryAfterMs: number }> {
      const rate = await hitRate(store, [
        { key: `quiosque-consulta:${terminalId}`, ...limits.kioskLookup },
      ]);
      return rate.allowed ? { allowed: true } : { allowed: false, retryAfterMs: rate.retryAfterMs };
    },
    /** Until when the terminal's attendant password is locked, or null. */
    async passwordLockedUntil(terminalId: number): Promise<number | null> {
      return (await lockoutState(store, passwordKey(terminalId))).lockedUntil;
    },
    /**
     * Reserves a posting's attempt until its verdict is known: failures and attempts waiting
     * stay under the threshold together (parallel guesses from several replicas cannot pass
     * it), but only a wrong verdict counts as a failure.
     */
    reservePassword(terminalId: number, options: { durable?: boolean } = {}) {
      return reserveAttempt(store, passwordKey(terminalId), limits.password, {
        durable: options.durable ?? !deps.journaledInStore,
      });
    },
    /** The verdict on a reserved attempt; the end of the lock a wrong one started, or null. */
    settlePassword(terminalId: number, verdict: PasswordVerdict): Promise<number | null> {
      return settleAttempt(store, passwordKey(terminalId), verdict, limits.password);
    },
    /** Counts an enrollment attempt of an address as failed until its code proves valid. */
    reserveEnrollment(address: string): Promise<Reservation> {
      return recordFailure(store, enrollKey(address), limits.enroll);
    },
    /** No code was judged (no JSON, no code): the attempt is not counted. */
    refundEnrollment: (address: string) => refundFailure(store, enrollKey(address)),
    /** A valid code forgets the address's failures and ends a lock this attempt began. */
    enrollmentSucceeded: (address: string) => recordSuccess(store, enrollKey(address)),
  };
}

export type Limits = ReturnType<typeof createLimits>;
