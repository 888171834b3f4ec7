import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';

/** A read that failed: what it was (`title`), the error's words and, with `onRetry`, "Tentar novamente". */
export function LoadFailed({
  title,
  error,
  onRetry,
}: {
  title: string;
  error: { message: string };
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
