import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import type { Phase } from '@/features/points/use-posting';

/**
 * What happened to a posting whose answer was lost. Never resends by itself: it re-reads
 * the customer and says "lançado" or "não lançado"; only then may the cashier post again.
 */
export function PostingStatus({ phase, onVerify }: { phase: Phase; onVerify: () => void }) {
  if (phase.name === 'verifying')
    return (
      <Alert tone="warning" title="Resultado desconhecido: a resposta do serviço se perdeu.">
        <p>
          <span
            aria-hidden="true"
            className="mr-2 inline-block size-3 animate-spin rounded-full border-2 border-current border-r-transparent"
          />
          Conferindo no cadastro do cliente se os pontos foram lançados. Não lance de novo.
        </p>
      </Alert>
    );
  if (phase.name === 'verify-failed')
    return (
      <Alert tone="error" title="Resultado desconhecido: não foi possível conferir.">
        <p>{phase.error.message}</p>
        <p>Os pontos podem ter sido lançados. Confira de novo antes de lançar outra vez.</p>
        <div>
          <Button onClick={onVerify} autoFocus>
            Conferir de novo
          </Button>
        </div>
      </Alert>
    );
  if (phase.name === 'not-posted')
    return (
      <Alert tone="info" title="Não lançado.">
        <p>
          Conferimos o cadastro do cliente: esta compra não foi registrada. Pode lançar de novo.
        </p>
      </Alert>
    );
  return null;
}
