// The fetch client: URL building, JSON headers, timeout/abort, envelope + schema parsing.
// No UI side effects and no retries here; every failure becomes an ApiError.
import { queryOptions } from '@tanstack/react-query';
import type * as z from 'zod/mini';
import { ApiError, readErrorBody, toApiError } from './errors';
import { Config } from '#contract/api/config';
import { envelope } from './schemas';
import { configKeys } from './keys';
import { getEstablishmentId, setEstablishmentId } from './establishment';

export const DEFAULT_TIMEOUT_MS = 15_000;

/** Which establishment every request and query key is for; `configQuery` sets it. */
export function configureApi(options: { establishmentId: number }): void {
  setEstablishmentId(options.establishmentId);
}

export { getEstablishmentId };

export type QueryValue = string | number | boolean | null | undefined;

/** Only set values: undefined, null and blank strings are left out. "" or "?a=1&b=x". */
export function buildQuery(query: Readonly<Record<string, QueryValue>> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (typeof value === 'string' && value.trim() === '') continue;
    params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** `/clientes/buscar` → `/api/v4/estabelecimentos/{id}/clientes/buscar`. */
export function buildApiUrl(path: string, query?: Readonly<Record<string, QueryValue>>): string {
  const establishmentId = getEstablishmentId();
  if (establishmentId === null) {
    throw new Error('configureApi({ establishmentId }) must run before any API request');
  }
  if (!path.startsWith('/')) throw new Error(`API path must start with "/": ${path}`);
  return `/api/v4/estabelecimentos/${establishmentId}${path}${buildQuery(query)}`;
}

export interface ApiRequest<S extends z.ZodMiniType> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Relative to the establishment: '/clientes/buscar'. */
  path: string;
  body?: unknown;
  query?: Readonly<Record<string, QueryValue>>;
  /** Schema of the envelope's `data`. */
  schema: S;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Extra headers, e.g. `x-sandbox-now` in tests. */
  headers?: Record<string, string>;
}

/** Sends one request to the loyalty service and returns the envelope's parsed `data`. */
export async function apiRequest<S extends z.ZodMiniType>(
  request: ApiRequest<S>,
): Promise<z.output<S>> {
  const { path, query, ...rest } = request;
  return sendJson({ ...rest, url: buildApiUrl(path, query) });
}

/** A request to our own server's endpoints (`/api/...` outside the service's paths). */
export function serverRequest<S extends z.ZodMiniType>(
  request: Omit<ApiRequest<S>, 'path'> & { path: `/api/${string}` },
): Promise<z.output<S>> {
  const { path, query, ...rest } = request;
  return sendJson({ ...rest, url: `${path}${buildQuery(query)}` });
}

/** Our own server's config (`GET /api/config`); no establishment needed. */
export function fetchConfig(signal?: AbortSignal): Promise<Config> {
  return sendJson({ method: 'GET', url: '/api/config', schema: Config, signal });
}

/** The page's config once read and not yet taken by the config query (null: not read). */
let readFromPage: { config: Config | undefined } | null = null;

/**
 * The config the app server wrote into the page (`<script id="app-config">`). The element is
 * removed when read, so once the config query has taken it, a later read (after a 401) asks
 * GET /api/config. Undefined when the page has none (Vite's dev server) or it does not parse.
 * Reading it before the query (main.tsx, to know the first view's code) leaves it to be taken.
 */
export function peekPageConfig(): Config | undefined {
  if (readFromPage === null) {
    const element = typeof document === 'undefined' ? null : document.getElementById('app-config');
    element?.remove();
    readFromPage = { config: element === null ? undefined : parsePageConfig(element.textContent) };
  }
  return readFromPage.config;
}

function parsePageConfig(text: string): Config | undefined {
  try {
    const parsed = Config.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function takePageConfig(): Config | undefined {
  const config = peekPageConfig();
  readFromPage = null;
  return config;
}

/**
 * The config: from the page when it carries it (first paint waits for nothing), otherwise
 * fetched. Either way the API is configured with the establishment before any component sees
 * the data, so nothing has to do it during render.
 */
export const configQuery = () =>
  queryOptions({
    queryKey: configKeys.all,
    queryFn: async ({ signal }) => {
      const config = await fetchConfig(signal);
      configureApi({ establishmentId: config.establishmentId });
      return config;
    },
    initialData: () => {
      const config = takePageConfig();
      if (config !== undefined) configureApi({ establishmentId: config.establishmentId });
      return config;
    },
    staleTime: Infinity,
  });

interface SendJson<S extends z.ZodMiniType> extends Omit<ApiRequest<S>, 'path' | 'query'> {
  url: string;
}

async function sendJson<S extends z.ZodMiniType>(request: SendJson<S>): Promise<z.output<S>> {
  const { method, url, body, schema, signal, timeoutMs = DEFAULT_TIMEOUT_MS, headers } = request;
  signal?.throwIfAborted();

  // One signal for both ends: the caller's abort or the timeout, whichever comes first.
  const timeout = AbortSignal.timeout(timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  // Both the fetch and the body read race it (mocked or slow bodies may ignore the signal).
  const aborted = new Promise<never>((_, reject) => {
    combined.addEventListener('abort', () => reject(combined.reason), { once: true });
  });
  aborted.catch(() => {});

  let status = 0;
  let text: string;
  try {
    const response = await Promise.race([
      fetch(url, {
        method,
        headers: { Accept: 'application/json', 'Content-Type': 'application/json', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: combined,
      }),
      aborted,
    ]);
    status = response.status;
    text = await Promise.race([response.text(), aborted]);
  } catch (error) {
    if (signal?.aborted) throw error; // the caller's own abort stays an AbortError
    if (timeout.aborted) throw new ApiError({ kind: 'timeout', cause: error });
    throw new ApiError({
      kind: 'network',
      status: status || null,
      // Offline: nothing left the machine. Otherwise it may have reached the service.
      requestMayHaveReached: !(typeof navigator !== 'undefined' && navigator.onLine === false),
      cause: error,
    });
  }

  if (status < 200 || status >= 300) throw toApiError(status, text);
  return parseSuccess(status, text, schema);
}

function parseSuccess<S extends z.ZodMiniType>(
  status: number,
  text: string,
  schema: S,
): z.output<S> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ApiError({ kind: 'contract', status, cause: error });
  }
  if (
    typeof json === 'object' &&
    json !== null &&
    (json as { success?: unknown }).success === false
  ) {
    const { data, fieldErrors } = readErrorBody(json);
    throw new ApiError({ kind: 'contract', status, data, fieldErrors, cause: json });
  }
  const result = envelope(schema).safeParse(json);
  if (!result.success) {
    const issues = result.error.issues.map((i) => `${i.path.join('.') || '(raiz)'}: ${i.message}`);
    throw new ApiError({ kind: 'contract', status, cause: issues });
  }
  return result.data.data as z.output<S>;
}
