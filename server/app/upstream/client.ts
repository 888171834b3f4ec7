/**
 * The one client of the loyalty service: it knows the base URL, the establishment and the
 * tokens, and every request the app server sends goes through its `fetcher` (in production
 * wrapped by the circuit, so each outcome is counted). Nothing above it adds a token.
 */

/** What sends a request: global fetch (live), the in-process sandbox, or a test double. */
export interface Fetcher {
  fetch(req: Request): Response | Promise<Response>;
}

/**
 * The journal's requests: a posting, a customer read, a reward handed over, and a read of a
 * customer's rewards (`recompensas`, a GET whose `body` is its query parameters).
 */
export type UpstreamCall = (
  op: 'pontuar' | 'buscar' | 'resgatar-premio' | 'recompensas',
  body: unknown,
  signal: AbortSignal,
) => Promise<Response>;

export interface UpstreamClientOptions {
  fetcher: Fetcher;
  /** Base URL of the service (live) or any origin (the embedded sandbox). */
  baseUrl: string;
  appToken: string;
  accessToken: string;
  establishmentId: number;
}

const PATHS = {
  pontuar: 'fidelidade/pontuar',
  buscar: 'clientes/buscar',
  'resgatar-premio': 'fidelidade/resgatar-premio',
} as const;

export function createUpstreamClient(options: UpstreamClientOptions) {
  const base = options.baseUrl.replace(/\/+$/, '');
  const prefix = `/api/v4/estabelecimentos/${options.establishmentId}`;

  /** The tokens and `Accept`, on top of `headers` (which must not carry tokens of its own). */
  function withTokens(headers: Headers = new Headers()): Headers {
    headers.set('accept', 'application/json');
    headers.set('app-token', options.appToken);
    headers.set('access-token', options.accessToken);
    return headers;
  }

  /** A JSON request to one of this establishment's paths (`clientes/buscar`, `recompensas?…`). */
  function json(
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    signal: AbortSignal,
  ): Promise<Response> {
    const headers = withTokens();
    if (body !== undefined) headers.set('content-type', 'application/json');
    return Promise.resolve(
      options.fetcher.fetch(
        new Request(`${base}${prefix}/${path}`, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          redirect: 'manual',
          signal,
        }),
      ),
    );
  }

  return {
    establishmentId: options.establishmentId,
    baseUrl: base,
    withTokens,
    json,
    /** Sends a request built by the caller (the proxy's forwarding) through the fetcher. */
    send: (req: Request) => Promise.resolve(options.fetcher.fetch(req)),
    /** The journal's calls, JSON, with the tokens. */
    call: ((op, body, signal) =>
      op === 'recompensas'
        ? json(
            'GET',
            `recompensas?${new URLSearchParams(body as Record<string, string>).toString()}`,
            undefined,
            signal,
          )
        : json('POST', PATHS[op], body, signal)) satisfies UpstreamCall,
  };
}

export type UpstreamClient = ReturnType<typeof createUpstreamClient>;

/** The client for the upstream as the app server's options name it (see AppServerOptions). */
export function clientOf(options: {
  upstream: Fetcher;
  upstreamBaseUrl: string;
  appToken: string;
  accessToken: string;
  establishmentId: number;
}): UpstreamClient {
  return createUpstreamClient({
    fetcher: options.upstream,
    baseUrl: options.upstreamBaseUrl,
    appToken: options.appToken,
    accessToken: options.accessToken,
    establishmentId: options.establishmentId,
  });
}
