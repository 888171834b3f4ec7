import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';

/**
 * What a read shows: `loading` (announced) while it runs; if it failed, an error titled
 * `failed` with its message (and "Tentar novamente" when `retry`); else `children` of its data.
 */
export function Loaded<T, E extends Error>({
  query,
  loading,
  failed,
  retry = false,
  children,
}: {
  query: UseQueryResult<T, E>;
  loading: string;
  failed: string;
  retry?: boolean;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <p role="status">{loading}</p>;
  if (query.isError) {
    return (
      <LoadFailed title={failed} error={query.error} onRetry={retry ? query.refetch : undefined} />
    );
  }
  return children(query.data);
}

/** A read that failed: what went wrong and, with `onRetry`, a button that reads again. */
function LoadFailed({
  title,
  error,
  onRetry,
}: {
  title: string;
  error: Error;
  onRetry?: () => unknown;
}) {
  return (
    <Alert tone="error" title={title}>
      <p>{error.message}</p>
      {onRetry && (
        <div>
          <Button onClick={() => void onRetry()}>Tentar novamente</Button>
        </div>
      )}
    </Alert>
  );
}

/** A list with nothing to show: one line in a white box. */
export function EmptyNote({ children }: { children: ReactNode }) {
  return (
    <p className="rounded-md border border-slate-300 bg-white p-4 text-slate-800">{children}</p>
  );
}
