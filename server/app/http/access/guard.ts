/** Where a request may come from: a Host this server serves, a same-origin JSON write. */
import type { MiddlewareHandler } from 'hono';
import { isLoopbackHost } from '../../domain/access/address';
import { fail, messages } from '../envelope';

/** Every request: a Host this server serves (DNS rebinding gets nothing). */
export function hostGuard(publicOrigin: string | null): MiddlewareHandler {
  const publicHost = publicOrigin === null ? null : new URL(publicOrigin).host;
  // The request URL's host is the `Host` header (@hono/node-server builds the URL from it,
  // falling back to the bound address when a client sends none).
  const allowed = (url: URL) =>
    publicHost !== null ? url.host === publicHost : isLoopbackHost(url.hostname);
  return async (c, next) => {
    const url = new URL(c.req.url);
    if (allowed(url)) return next();
    const { pathname } = url;
    if (pathname === '/api' || pathname.startsWith('/api/')) {
      return fail(c, 421, messages.foreignHost);
    }
    return c.text('Misdirected Request\n', 421);
  };
}

/** Non-GET: same-origin `Origin` (a cross-site form gets nothing); POST: a JSON body. */
export function sameOriginJson(publicOrigin: string | null): MiddlewareHandler {
  return async (c, next) => {
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD') return next();
    const expected = publicOrigin ?? new URL(c.req.url).origin;
    if (c.req.header('origin') !== expected) return fail(c, 403, messages.crossOrigin);
    if (method === 'POST') {
      const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      if (type !== 'application/json') return fail(c, 415, messages.notJson);
    }
    return next();
  };
}
