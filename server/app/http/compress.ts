/**
 * JSON answers over about 1 KB go out compressed (gzip) when the client accepts it and is not
 * on this very computer: a page of the rewards list is 4.8 KB as JSON, 0.8 KB gzipped. Never
 * an event stream (its type is not JSON) nor an answer already encoded (the static files are
 * precompressed). A loopback peer (a browser on the server's computer, or a proxy in front of
 * it, which compresses for its own clients) has no link to save: compressing for it only cost
 * time (the proxy's added latency went from 0.09 to 0.5 ms a lookup in `npm run bench`).
 *
 * Compressed in one call on the answer already in memory, at a low level: a web
 * CompressionStream per answer cost the proxy about 0.5 ms a request on loopback, more than
 * the whole of its own work; level 1 takes a few tens of microseconds on a lookup and still
 * shrinks a page of rewards about five times.
 */
import { gzipSync, constants } from 'node:zlib';
import type { Context, MiddlewareHandler } from 'hono';
import { canonicalIp, isLoopbackHost } from '../domain/access/address';

const ACCEPTS_GZIP = /(?:^|[\s,])(?:gzip|\*)(?:[\s;,]|$)/i;
const JSON_TYPE = /^\s*application\/(?:[\w.+-]*\+)?json(?:[;\s]|$)/i;

/** The peer is this computer (or the request came in-process, as in tests: no socket). */
function fromLoopback(c: Context): boolean {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  const peer = env?.incoming?.socket?.remoteAddress;
  if (peer === undefined) return false;
  return isLoopbackHost(canonicalIp(peer) ?? peer);
}

export function compressJson(threshold = 1024): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (fromLoopback(c)) return;
    const { res } = c;
    if (!JSON_TYPE.test(res.headers.get('Content-Type') ?? '')) return;
    if (c.req.method === 'HEAD' || res.body === null || res.headers.has('Content-Encoding')) {
      return;
    }
    // A client that takes no compression gets the answer streamed as it comes.
    if (!ACCEPTS_GZIP.test(c.req.header('Accept-Encoding') ?? '')) return;
    const declared = Number(res.headers.get('Content-Length') ?? NaN);
    if (declared < threshold) return;
    // Read whole (JSON is parsed whole anyway; a relayed answer is bounded by the proxy's
    // limit), so its size is known: neither c.json nor the proxy always sets Content-Length.
    const body = new Uint8Array(await res.arrayBuffer());
    const headers = new Headers(res.headers);
    headers.append('Vary', 'Accept-Encoding');
    if (body.byteLength < threshold) {
      headers.set('Content-Length', String(body.byteLength));
      c.res = undefined;
      c.res = new Response(body, { status: res.status, headers });
      return;
    }
    const gz = gzipSync(body, { level: constants.Z_BEST_SPEED });
    headers.set('Content-Encoding', 'gzip');
    headers.set('Content-Length', String(gz.byteLength));
    c.res = undefined;
    c.res = new Response(gz, { status: res.status, headers });
  };
}
