import type { UseQueryResult } from '@tanstack/react-query';
import type { ApiError } from '@/api/errors';
import type { Customer } from '@/api/schemas';

/**
 * A search under way. (Found and not found have their own panels; a failed search has
 * LookupFailed, in the counter's second chunk.)
 */
export function LookupNotices({ lookup }: { lookup: UseQueryResult<Customer | null, ApiError> }) {
  if (lookup.isFetching)
    return (
      <p role="status" className="rounded-lg border border-slate-300 bg-white p-4 text-slate-700">
        Buscando cliente…
      </p>
    );
  return null;
}
