// The API client's setup for tests (not imported by app code).
import { afterEach, beforeEach, vi } from 'vitest';
import { configureApi } from '@/api/client';
import { jsonResponse, stubFetch } from '@/testing/fixtures';

/**
 * For a file (or describe block) whose tests call the service through a stubbed fetch: each
 * test starts with the API configured for establishment 1 and ends with the stubs removed.
 */
export function stubServiceEachTest(): void {
  beforeEach(() => configureApi({ establishmentId: 1 }));
  afterEach(() => vi.unstubAllGlobals());
}

/**
 * A refusal as the service (and our server) sends it: `success: false`, its message, `data`
 * (empty unless given) and, on a 422, its field errors.
 */
export function refusal(
  status: number,
  message: string,
  extra: { data?: unknown; errors?: Record<string, string[]> } = {},
): Response {
  return jsonResponse(status, { success: false, message, data: {}, ...extra });
}

/** A 422 that puts `message` on `field` (a request path) and says it as its message too. */
export const fieldRefusal = (field: string, message: string) =>
  refusal(422, message, { errors: { [field]: [message] } });

/** The Idempotency-Key a request was sent with. */
export const idempotencyKeyOf = (init: RequestInit | undefined) =>
  (init?.headers as Record<string, string> | undefined)?.['Idempotency-Key'];

/**
 * Stubs fetch so that the request to `url` leaves but its answer is lost (a network error after
 * sending); every other request (the journal's follow-ups) is answered by `follow` with the
 * lost request's Idempotency-Key. Returns the fetch mock and that key (once sent).
 */
export function loseAnswerAt(url: string, follow: (key: string) => Response) {
  let key = '';
  const fetchMock = stubFetch((to, init) => {
    if (to === url) {
      key = idempotencyKeyOf(init)!;
      throw new TypeError('Failed to fetch');
    }
    return follow(key);
  });
  return { fetchMock, lostKey: () => key };
}

/**
 * Stubs fetch so that requests to `url` never reach the server (a network error before any
 * answer) until `reach()` is called, then answer `answer()`; the journal's follow-ups are
 * answered 404 (our server never heard of the request). Returns the fetch mock, the
 * Idempotency-Keys the requests to `url` were sent with, and `reach`.
 */
export function neverReachAt(url: string, answer: () => Response) {
  const keys: string[] = [];
  let reaching = false;
  const fetchMock = stubFetch((to, init) => {
    if (to === url) {
      keys.push(idempotencyKeyOf(init)!);
      if (!reaching) throw new TypeError('Failed to fetch');
      return answer();
    }
    return refusal(404, 'Lançamento não encontrado.');
  });
  return { fetchMock, keys, reach: () => void (reaching = true) };
}
