import { QueryClient, type QueryClientConfig } from '@tanstack/react-query';
import { isApiError, type ApiErrorKind } from './errors';

const RETRYABLE: ReadonlySet<ApiErrorKind> = new Set(['network', 'timeout', 'server']);
export const MAX_QUERY_RETRIES = 2;

/**
 * Reads retry up to twice on network/timeout/5xx, never on 4xx or contract errors, nor on a
 * 503 (the service is unavailable, our server's circuit is open: a retry only makes the
 * counter wait to be told so).
 */
export function shouldRetryQuery(failureCount: number, error: unknown): boolean {
  return (
    failureCount < MAX_QUERY_RETRIES &&
    isApiError(error) &&
    RETRYABLE.has(error.kind) &&
    error.status !== 503
  );
}

export function createQueryClient(config: QueryClientConfig = {}): QueryClient {
  return new QueryClient({
    ...config,
    defaultOptions: {
      ...config.defaultOptions,
      queries: {
        retry: shouldRetryQuery,
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        ...config.defaultOptions?.queries,
      },
      mutations: {
        retry: 0, // never resend a POST by itself
        ...config.defaultOptions?.mutations,
      },
    },
  });
}
