/** Which of the service's operations a forwarded path is, and its one canonical query. */
import { namesAnotherEstablishment } from '../../domain/forward';
import { canonicalQuery, operationAt } from '../../domain/operations';
import { fail, messages } from '../envelope';
import { checkPath } from '../proxy';
import type { AccessMiddleware } from './terminal';

/**
 * Proxied paths: sets c.var.operation and c.var.query, or answers 403 (another
 * establishment), 400 (a bad segment; a query parameter repeated or not the operation's),
 * 404 (not one of the operations), 405 with Allow (not its one method; TRACE too).
 */
export function routeOperation(establishmentId: number): AccessMiddleware {
  return async (c, next) => {
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
    const search = new URL(c.req.url).search;
    // Another store's establishment named in the query: refused as in the path.
    if (
      namesAnotherEstablishment(Object.fromEntries(new URLSearchParams(search)), establishmentId)
    ) {
      return fail(c, 403, messages.forbidden);
    }
    const query = canonicalQuery(op, search);
    if (!query.ok) {
      const name = query.name.slice(0, 40);
      return fail(
        c,
        400,
        query.reason === 'repeated' ? messages.repeatedParam(name) : messages.unknownParam(name),
      );
    }
    c.set('operation', op);
    c.set('query', query.query);
    return next();
  };
}
