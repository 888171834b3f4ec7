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
