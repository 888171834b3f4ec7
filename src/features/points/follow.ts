// What the posting flow and the hand-over flow share while they follow a journal entry on our
// server: the pauses between follow-ups (growing, jittered, capped), the abortable pause
// itself, and how a surprise that is not an ApiError is read.
import { ApiError, isApiError } from '@/api/errors';

/** First pause between follow-ups while the server itself re-checks an unknown result. */
export const UNKNOWN_POLL_MS = 5_000;
/** First pause before asking our server again when it could not be reached. */
export const UNREACHABLE_RETRY_MS = 3_000;
/** The longest pause between two follow-ups. */
export const FOLLOW_MAX_PAUSE_MS = 30_000;
/**
 * Follow-ups in a row without a settled answer after which a screen stops asking by itself
 * (about 20 minutes): the server keeps checking, and the cashier asks again when needed.
 */
export const MAX_FOLLOW_UPS = 45;

/**
 * The pause before the `n`th follow-up in a row (from 0): `base` doubling up to 30 s, each
 * between 80% and 120% of that, so that counters that lost the server together do not all
 * come back in the same second.
 */
export function followPause(base: number, n: number, random: () => number = Math.random): number {
  return Math.round(
    Math.min(base * 2 ** Math.min(n, 10), FOLLOW_MAX_PAUSE_MS) * (0.8 + 0.4 * random()),
  );
}
/** A lost request unknown to the server is asked about once more after this pause. */
export const NOT_FOUND_CONFIRM_MS = 1_000;

/** Anything thrown that is not an ApiError is a surprise: treat it as an unreadable answer. */
export const asApiError = (e: unknown): ApiError =>
  isApiError(e) ? e : new ApiError({ kind: 'contract', cause: e });

/** Waits `ms`, or less when `signal` aborts. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        resolve();
      },
      { once: true },
    );
  });
}
