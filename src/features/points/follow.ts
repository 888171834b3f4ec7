// What the posting flow and the hand-over flow share while they follow a journal entry on our
// server: the pauses between follow-ups, the abortable pause itself, and how a surprise that
// is not an ApiError is read.
import { ApiError, isApiError } from '@/api/errors';

/** Pauses between follow-ups while the server itself re-checks an unknown result. */
export const UNKNOWN_POLL_MS = 5_000;
/** Pauses before asking our server again when it could not be reached. */
export const UNREACHABLE_RETRY_MS = 3_000;
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
