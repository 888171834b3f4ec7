import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { bodyNamesAnotherEstablishment } from '../domain/forward';
import type { Forwarder } from '../domain/forward';
import { fail, messages } from './envelope';
import type { RequestLogVars } from './request-log';

export const PROXY_PREFIX = '/api/v4/estabelecimentos/';

/** Set by the access layer (routeOperation): the query the role check read, each name once. */
type ProxyVars = RequestLogVars & { query?: URLSearchParams };
type ProxyContext = Context<{ Variables: ProxyVars }>;

/**
 * The query sent upstream: rebuilt from the parsed parameters the access layer checked, never
 * the browser's text (so the service reads exactly what was checked).
 */
function forwardedSearch(c: ProxyContext, url: URL): string {
  const text = (c.get('query') ?? new URLSearchParams(url.search)).toString();
  return text === '' ? '' : `?${text}`;
}

/**
 * What hears a customer lookup (`clientes/buscar`) pass through: `started` before it leaves
 * (null: not heard of again), `answered` with the service's answer, after it was relayed.
 */
export interface LookupHooks {
  started(c: Context, body: unknown): Promise<unknown>;
  answered(token: unknown, status: number, text: string): void;
}

export interface ProxyOptions {
  /** Sends an operation to the service with this server's tokens. */
  forwarder: Forwarder;
  /** The postings journal keeps a counter's lookups (see domain/journal/lookups.ts). */
  lookups?: LookupHooks | null;
  upstreamTimeoutMs: number;
  maxBodyBytes: number;
  /** Largest upstream answer relayed to the browser; larger is a 502. */
  maxResponseBytes: number;
}

/**
 * Browser headers passed on to the upstream. Everything else is dropped: cookies,
 * authorization, any token the browser tried to send, host, hop-by-hop headers, origin,
 * referer, forwarding headers. The tokens and `Accept` are then set by the upstream client.
 */
const FORWARDED_REQUEST_HEADERS = ['content-type', 'accept-language'] as const;
const SANDBOX_ONLY_REQUEST_HEADERS = ['x-sandbox-now'] as const;

/**
 * Upstream headers relayed to the browser. Not relayed: set-cookie, hop-by-hop headers,
 * content-length/content-encoding (the body is re-framed), x-powered-by, location, and
 * whatever else the service may add.
 */
const RELAYED_RESPONSE_HEADERS = [
  'content-type',
  'content-language',
  'retry-after',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
] as const;

const METHODS_WITHOUT_BODY = new Set(['GET', 'HEAD']);
const NULL_BODY_STATUSES = new Set([204, 205, 304]);

class TooLarge extends Error {
  override name = 'TooLarge';
}
class TimedOut extends Error {
  override name = 'TimedOut';
}

/** Reads a body stream, giving up (and cancelling the stream) as soon as it exceeds `limit`. */
async function readLimited(
  body: ReadableStream<Uint8Array> | null,
  limit: number,
): Promise<Uint8Array<ArrayBuffer>> {
  if (body === null) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new TooLarge();
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/**
 * Checks the path: the pinned establishment first (403), then every other segment (400).
 * `rest` is what follows the establishment (e.g. `clientes/buscar`).
 */
export function checkPath(
  pathname: string,
  establishmentId: number,
): { rest: string } | 'forbidden' | 'bad' | 'notFound' {
  if (!pathname.startsWith(PROXY_PREFIX)) return 'notFound'; // the bare collection
  const [id = '', ...rest] = pathname.slice(PROXY_PREFIX.length).split('/');
  if (id !== String(establishmentId)) return 'forbidden';
  for (const raw of rest) {
    let seg: string;
    try {
      seg = decodeURIComponent(raw);
    } catch {
      return 'bad';
    }
    if (seg === '.' || seg === '..' || /[/\\\0]/.test(seg)) return 'bad';
  }
  return { rest: rest.join('/') };
}

function upstreamRequestHeaders(c: Context, mode: 'sandbox' | 'live'): Headers {
  const headers = new Headers();
  const names: readonly string[] =
    mode === 'sandbox'
      ? [...FORWARDED_REQUEST_HEADERS, ...SANDBOX_ONLY_REQUEST_HEADERS]
      : FORWARDED_REQUEST_HEADERS;
  for (const name of names) {
    const value = c.req.header(name);
    if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

const RELAYED = new Set<string>(RELAYED_RESPONSE_HEADERS);

/**
 * The answer itself with only the relayed headers (and `Cache-Control: no-store`): its body
 * is not copied. Headers that cannot change (a `fetch` answer) get a new Response instead.
 */
function keepRelayedHeaders(res: Response): Response {
  try {
    const headers = res.headers;
    for (const name of [...headers.keys()]) if (!RELAYED.has(name)) headers.delete(name);
    headers.set('cache-control', 'no-store');
    return res;
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
    return new Response(res.body, { status: res.status, headers: relayedHeaders(res.headers) });
  }
}

function relayedHeaders(from: Headers): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of RELAYED_RESPONSE_HEADERS) {
    const value = from.get(name);
    if (value !== null) headers[name] = value;
  }
  headers['cache-control'] = 'no-store';
  return headers;
}

function errorCode(err: unknown): string {
  if (!(err instanceof Error)) return 'unknown';
  const cause = (err as { cause?: unknown }).cause;
  const code = (cause as { code?: unknown } | undefined)?.code ?? (err as { code?: unknown }).code;
  return typeof code === 'string' ? code : err.name;
}

/** The JSON of a request body, or undefined. */
function jsonOf(bytes: ArrayBuffer | Uint8Array | null | undefined): unknown {
  if (bytes === null || bytes === undefined || bytes.byteLength === 0) return undefined;
  try {
    return JSON.parse(new TextDecoder().decode(bytes)) as unknown;
  } catch {
    return undefined;
  }
}

/** A request body; one naming another store's establishment is refused (`foreign` below). */
type Bytes = ArrayBuffer | Uint8Array | null | undefined;

export function createProxyHandler(options: ProxyOptions) {
  const { forwarder } = options;
  const mode = forwarder.mode;
  const lookups = options.lookups ?? null;
  const foreign = (body: Bytes) => bodyNamesAnotherEstablishment(body, forwarder.establishmentId);
  /** A lookup's token when the hooks want to hear its answer (null otherwise). */
  async function lookupStarted(
    c: ProxyContext,
    rest: string,
    method: string,
    body: ArrayBuffer | Uint8Array | null | undefined,
  ): Promise<unknown> {
    if (lookups === null || method !== 'POST' || rest !== 'clientes/buscar') return null;
    return lookups.started(c, jsonOf(body));
  }

  /**
   * The embedded sandbox (in this process, over a local SQLite file): called with the
   * browser's body as it came (its length declared and within the limit, which HTTP framing
   * holds it to), the tokens and the allowed headers; its answer, already a whole string in
   * memory, goes back as it is with only the relayed headers. No timer (nothing between them
   * can stall) and no web streams: reading the body as a stream, then relaying the answer as
   * one (sent chunked), cost more than the sandbox's own work on a lookup.
   */
  async function embedded(
    c: ProxyContext,
    url: URL,
    rest: string,
    method: string,
    withBody: boolean,
  ): Promise<Response> {
    const body = withBody ? await c.req.arrayBuffer() : null;
    if (foreign(body)) return fail(c, 403, messages.forbidden);
    const lookup = await lookupStarted(c, rest, method, body);
    let res: Response;
    try {
      res = await forwarder.send(url, forwardedSearch(c, url), {
        method,
        headers: upstreamRequestHeaders(c, mode),
        body: body !== null && body.byteLength > 0 ? body : null,
      });
    } catch (err) {
      c.set('upstreamError', errorCode(err));
      return fail(c, 502, messages.unavailable);
    }
    if (res.status < 200 || res.status > 599) {
      await res.body?.cancel();
      c.set('upstreamError', `status_${res.status}`);
      return fail(c, 502, messages.badUpstream);
    }
    const status = res.status as ContentfulStatusCode;
    if (NULL_BODY_STATUSES.has(status)) {
      await res.body?.cancel();
      return c.body(null, status as 204, relayedHeaders(res.headers));
    }
    if (lookup !== null && lookups !== null) {
      // Read once here (a whole string already), relayed as it came, then heard.
      const text = await res.text();
      const relayed = new Response(text, { status, headers: relayedHeaders(res.headers) });
      lookups.answered(lookup, status, text);
      return relayed;
    }
    return keepRelayedHeaders(res);
  }

  return async (c: ProxyContext): Promise<Response> => {
    const url = new URL(c.req.url);
    const check = checkPath(url.pathname, forwarder.establishmentId);
    if (check === 'forbidden') return fail(c, 403, messages.forbidden);
    if (check === 'bad') return fail(c, 400, messages.badPath);
    if (check === 'notFound') return fail(c, 404, messages.notFound);

    const method = c.req.method;
    let body: Uint8Array<ArrayBuffer> | undefined;
    const declared = c.req.header('content-length');
    if (!METHODS_WITHOUT_BODY.has(method)) {
      if (declared !== undefined && Number(declared) > options.maxBodyBytes) {
        return fail(c, 413, messages.tooLarge);
      }
      // The embedded sandbox takes the body as it comes when its length is declared (and
      // within the limit: HTTP framing holds it to that length).
      if (mode === 'sandbox' && declared !== undefined) {
        return embedded(c, url, check.rest, method, true);
      }
      try {
        body = await readLimited(c.req.raw.body, options.maxBodyBytes);
      } catch (err) {
        if (err instanceof TooLarge) return fail(c, 413, messages.tooLarge);
        throw err;
      }
    } else if (mode === 'sandbox') {
      return embedded(c, url, check.rest, method, false);
    }
    if (foreign(body)) return fail(c, 403, messages.forbidden);
    const lookup = await lookupStarted(c, check.rest, method, body);

    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new TimedOut());
      }, options.upstreamTimeoutMs);
    });
    deadline.catch(() => undefined);

    let answer: { status: number; headers: Headers; body: Uint8Array<ArrayBuffer> };
    try {
      answer = await Promise.race([
        (async () => {
          const res = await forwarder.send(url, forwardedSearch(c, url), {
            method,
            headers: upstreamRequestHeaders(c, mode),
            body: body !== undefined && body.byteLength > 0 ? body : undefined,
            signal: controller.signal,
          });
          const bytes = await readLimited(res.body, options.maxResponseBytes);
          return { status: res.status, headers: res.headers, body: bytes };
        })(),
        deadline,
      ]);
    } catch (err) {
      if (err instanceof TimedOut) {
        c.set('upstreamError', 'timeout');
        return fail(c, 504, messages.timeout);
      }
      if (err instanceof TooLarge) {
        c.set('upstreamError', 'response_too_large');
        return fail(c, 502, messages.badUpstream);
      }
      c.set('upstreamError', errorCode(err));
      return fail(c, 502, messages.unavailable);
    } finally {
      clearTimeout(timer);
    }

    if (answer.status < 200 || answer.status > 599) {
      c.set('upstreamError', `status_${answer.status}`);
      return fail(c, 502, messages.badUpstream);
    }
    const status = answer.status as ContentfulStatusCode;
    const headers = relayedHeaders(answer.headers);
    if (NULL_BODY_STATUSES.has(status)) return c.body(null, status as 204, headers);
    if (lookup !== null && lookups !== null) {
      lookups.answered(lookup, status, new TextDecoder().decode(answer.body));
    }
    return c.body(answer.body, status, headers);
  };
}
