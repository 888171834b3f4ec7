// The API client's setup for tests (not imported by app code).
import { afterEach, beforeEach, vi } from 'vitest';
import { configureApi } from '@/api/client';

/**
 * For a file (or describe block) whose tests call the service through a stubbed fetch: each
 * test starts with the API configured for establishment 1 and ends with the stubs removed.
 */
export function stubServiceEachTest(): void {
  beforeEach(() => configureApi({ establishmentId: 1 }));
  afterEach(() => vi.unstubAllGlobals());
}
