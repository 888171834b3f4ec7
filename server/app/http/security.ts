import type { Context, MiddlewareHandler } from 'hono';
import { PAGE_CODE_LOADER_HASH } from './page-code';

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  // The painted page's loader of its code, allowed by its hash and by nothing else inline.
  `script-src 'self' ${PAGE_CODE_LOADER_HASH}`,
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

/** HSTS, sent only when the public origin is https (a browser ignores it over http anyway). */
export const HSTS = 'max-age=31536000; includeSubDomains';

/** The headers every response carries: SECURITY_HEADERS plus HSTS when served over https. */
export function securityHeadersFor(https: boolean): Readonly<Record<string, string>> {
  return https ? { ...SECURITY_HEADERS, 'Strict-Transport-Security': HSTS } : SECURITY_HEADERS;
}

/**
 * Sets the security headers on every response, whatever produced it (a route, the
 * not-found handler or the error handler: Hono resolves both inside `next()`).
 *
 * On the finished response's own headers: Hono's `c.header()` after `next()` builds a new
 * Response per call (and turns a string body into a stream), which cost the proxied lookup
 * more than the rest of this middleware chain. Only headers that cannot change (a
 * `Response.redirect`, a `fetch` answer) fall back to one copy.
 */
export function securityHeaders(options: { https?: boolean } = {}): MiddlewareHandler {
  const headers = Object.entries(securityHeadersFor(options.https ?? false));
  return async (c, next) => {
    await next();
    setResponseHeaders(c, (h) => {
      for (const [name, value] of headers) h.set(name, value);
      h.delete('X-Powered-By');
    });
  };
}

/**
 * Changes the finished response's headers in place (`c.res.headers`), or on a copy when they
 * are immutable. Use it after `await next()` instead of `c.header()`, which copies the
 * response on every call.
 */
export function setResponseHeaders(c: Context, change: (headers: Headers) => void): void {
  try {
    change(c.res.headers);
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
    const copy = new Response(c.res.body, c.res);
    change(copy.headers);
    c.res = undefined;
    c.res = copy;
  }
}

/**
 * A plain fetch handler with the same headers (for `npm run sandbox`, which has no Hono
 * middleware of the app server): SECURITY_HEADERS and `Cache-Control: no-store`.
 */
export function withSecurityHeaders(
  fetch: (req: Request) => Promise<Response>,
): (req: Request) => Promise<Response> {
  return async (req) => {
    const res = await fetch(req);
    const out = new Response(res.body, res);
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) out.headers.set(name, value);
    out.headers.set('Cache-Control', 'no-store');
    out.headers.delete('X-Powered-By');
    return out;
  };
}
