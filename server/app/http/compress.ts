/**
 * JSON answers over about 1 KB go out compressed (gzip or deflate) when the client accepts it:
 * a page of the rewards list is 4.8 KB as JSON, 0.8 KB gzipped. Never an event stream (its
 * type is not JSON) nor an answer already encoded (the static files are precompressed).
 */
import type { MiddlewareHandler } from 'hono';
import { compress } from 'hono/compress';

const ACCEPTS = /(?:^|[\s,])(?:gzip|deflate|\*)(?:[\s;,]|$)/i;
const JSON_TYPE = /^\s*application\/(?:[\w.+-]*\+)?json(?:[;\s]|$)/i;

export function compressJson(threshold = 1024): MiddlewareHandler {
  const gzip = compress({ threshold, contentTypeFilter: JSON_TYPE });
  return (c, next) =>
    gzip(c, async () => {
      await next();
      const { res } = c;
      if (!JSON_TYPE.test(res.headers.get('Content-Type') ?? '')) return;
      if (c.req.method === 'HEAD' || res.body === null || res.headers.has('Content-Encoding')) {
        return;
      }
      // A client that takes no compression gets the answer streamed as it comes.
      if (!ACCEPTS.test(c.req.header('Accept-Encoding') ?? '')) return;
      // Read whole (JSON is parsed whole anyway; a relayed answer is bounded by the proxy's
      // limit), so the threshold sees its size (neither c.json nor the proxy sets
      // Content-Length), into a Response whose headers the middleware may change.
      const body = await c.res.arrayBuffer();
      const copy = new Response(body, c.res);
      copy.headers.set('Content-Length', String(body.byteLength));
      c.res = undefined;
      c.res = copy;
    });
}
