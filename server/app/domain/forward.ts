/**
 * Forwarding one of the service's operations for a browser: the request goes to the service
 * with this server's tokens (never the browser's), at the service's base URL, or, for the
 * embedded sandbox, at the browser-facing origin (so the absolute page URLs it writes, such
 * as `next_page_url`, lead back through this server).
 */
import type { UpstreamClient } from '../upstream/client';

export interface ForwardInit {
  method: string;
  /** The browser's headers that may pass (content-type, accept-language…), without tokens. */
  headers: Headers;
  body: BodyInit | null | undefined;
  signal?: AbortSignal;
}

export function createForwarder(client: UpstreamClient, mode: 'sandbox' | 'live') {
  return {
    mode,
    establishmentId: client.establishmentId,
    /** `url` is the browser's request URL; `search` the canonical query to send. */
    send(url: URL, search: string, init: ForwardInit): Promise<Response> {
      const origin = mode === 'sandbox' ? url.origin : client.baseUrl;
      return client.send(
        new Request(origin + url.pathname + search, {
          method: init.method,
          headers: client.withTokens(init.headers),
          body: init.body,
          redirect: 'manual',
          signal: init.signal,
        }),
      );
    },
  };
}

export type Forwarder = ReturnType<typeof createForwarder>;

/** A field naming an establishment, however spelled (`id_estabelecimento`, `establishment_id`…). */
const ESTABLISHMENT_KEY = /^(id_?)?(estabelecimento|establishment)(_?id)?$/i;

/**
 * Whether a request's JSON (or query, as an object) names an establishment other than `own`,
 * at any depth up to 4: a chain's terminal is answered for its own store only, and such a
 * request is refused before the service is called.
 */
export function namesAnotherEstablishment(value: unknown, own: number, depth = 0): boolean {
  if (depth > 4 || value === null || typeof value !== 'object') return false;
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((v) => ['', v])
    : Object.entries(value as Record<string, unknown>);
  for (const [key, v] of entries) {
    if (ESTABLISHMENT_KEY.test(key) && (typeof v !== 'object' || v === null)) {
      if (String(v) !== String(own)) return true;
    } else if (namesAnotherEstablishment(v, own, depth + 1)) {
      return true;
    }
  }
  return false;
}

/** The same of a request body's bytes (read only when it mentions an establishment at all). */
export function bodyNamesAnotherEstablishment(
  bytes: ArrayBuffer | Uint8Array | null | undefined,
  own: number,
): boolean {
  if (bytes === null || bytes === undefined || bytes.byteLength === 0) return false;
  const text = new TextDecoder().decode(bytes);
  if (!/estabelecimento|establishment/i.test(text)) return false;
  try {
    return namesAnotherEstablishment(JSON.parse(text) as unknown, own);
  } catch {
    return false;
  }
}
