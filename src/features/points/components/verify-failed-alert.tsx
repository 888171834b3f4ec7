// The alert of a follow that could not reach our server (a posting's or a hand-over's whose
// answer was lost): the result is unknown, what may have happened, and what the screen does.
import type { ReactNode } from 'react';
import type { ApiError } from '@/api/errors';
import { Alert } from '@/components/ui/alert';

/**
 * `mayHave` says what may have happened; then, while the screen keeps trying, `whileTrying`,
 * and once it stopped, `whenStopped` (what the cashier does); `then` ends that paragraph.
 * `children` (an action) follow it.
 */
export function VerifyFailedAlert(props: {
  error: ApiError;
  stopped?: boolean;
  mayHave: string;
  whileTrying: string;
  whenStopped: string;
  then?: string;
  children?: ReactNode;
}) {
  return (
    <Alert tone="error" title="Resultado desconhecido: não foi possível conferir.">
      <p>{props.error.message}</p>
      <p>
        {props.mayHave} {props.stopped ? props.whenStopped : props.whileTrying}
        {props.then}
      </p>
      {props.children}
    </Alert>
  );
}
