import type { Upstream } from '../http/proxy';
import type { UpstreamCall } from '../domain/journal/context';

export interface UpstreamCallOptions {
  upstream: Upstream;
  /** Base URL of the service (live) or any origin (the embedded sandbox). */
  upstreamBaseUrl: string;
  appToken: string;
  accessToken: string;
  establishmentId: number;
}

const PATHS = { pontuar: 'fidelidade/pontuar', buscar: 'clientes/buscar' } as const;

/** The journal's own requests to the service: JSON, with the tokens, for this establishment. */
export function upstreamCall(o: UpstreamCallOptions): UpstreamCall {
  const base = o.upstreamBaseUrl.replace(/\/+$/, '');
  return (op, body, signal) =>
    Promise.resolve(
      o.upstream.fetch(
        new Request(`${base}/api/v4/estabelecimentos/${o.establishmentId}/${PATHS[op]}`, {
          method: 'POST',
          headers: {
            accept: 'application/json',
            'content-type': 'application/json',
            'app-token': o.appToken,
            'access-token': o.accessToken,
          },
          body: JSON.stringify(body),
          redirect: 'manual',
          signal,
        }),
      ),
    );
}
