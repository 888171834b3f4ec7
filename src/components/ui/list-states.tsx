import type { ReactNode } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';

/** A read that failed: what went wrong and, with `onRetry`, a button that reads again. */
export function LoadFailed({
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
