// The one render of component and hook tests: inside the app's query client (the QueryClient
// `createQueryClient` builds, as the app's root does). Not imported by app code.
import type { ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { afterAll, beforeAll } from 'vitest';
import {
  configure,
  getConfig,
  render,
  renderHook,
  type RenderOptions,
} from '@testing-library/react';
import { createQueryClient } from '@/api/query-client';

export interface QueryOptions {
  /** A client the test set up (cache seeded) or reads afterwards; a new one when absent. */
  queryClient?: QueryClient;
  /** Reads fail at the first error instead of retrying (what the test asserts is the failure). */
  noRetry?: boolean;
}

function clientAndWrapper(options: QueryOptions) {
  const queryClient =
    options.queryClient ??
    createQueryClient(options.noRetry ? { defaultOptions: { queries: { retry: 0 } } } : {});
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );
  return { queryClient, wrapper };
}

/** `render(ui)` inside a query client; its client with what `render` returns. */
export function renderWithQuery(
  ui: ReactNode,
  options: QueryOptions & Omit<RenderOptions, 'wrapper' | 'queries'> = {},
) {
  const { queryClient: _, noRetry: __, ...rest } = options;
  const { queryClient, wrapper } = clientAndWrapper(options);
  return { queryClient, ...render(ui, { ...rest, wrapper }) };
}

/** `renderHook(hook)` inside a query client; its client with what `renderHook` returns. */
export function renderHookWithQuery<T>(hook: () => T, options: QueryOptions = {}) {
  const { queryClient, wrapper } = clientAndWrapper(options);
  return { queryClient, ...renderHook(hook, { wrapper }) };
}

/**
 * For a file whose screens load parts on first use (dynamic imports): findBy and waitFor wait
 * up to 5 s instead of the default second, which a busy machine's first import can take.
 */
export function waitLongerForLazyParts(): void {
  const { asyncUtilTimeout } = getConfig();
  beforeAll(() => configure({ asyncUtilTimeout: 5_000 }));
  afterAll(() => configure({ asyncUtilTimeout }));
}
