import type { UseQueryResult } from '@tanstack/react-query';
import type { ApiError } from '@/api/errors';
import type { Customer } from '@/api/schemas';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';

/** A search under way or failed. (Found and not found have their own panels.) */
export function LookupNotices({ lookup }: { lookup: UseQueryResult<Customer | null, ApiError> }) {
  if (lookup.isFetching)
    return (
      <p role="status" className="rounded-lg border border-slate-300 bg-white p-4 text-slate-700">
        Buscando cliente…
      </p>
    );
  if (lookup.isError)
    return (
      <Alert tone="error" title="Não foi possível buscar o cliente.">
        <p>{lookup.error.message}</p>
        <div>
          <Button variant="secondary" onClick={() => void lookup.refetch()}>
            Tentar de novo
          </Button>
        </div>
      </Alert>
    );
  return null;
}
