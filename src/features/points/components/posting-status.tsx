import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import type { Phase } from '@/features/points/posting-types';
import { VerifyFailedAlert } from './verify-failed-alert';

/**
 * What happened to a posting whose answer was lost. The app server's journal decides (it
 * re-reads the customer itself) and the counter follows it; the cashier may post again only
 * once it says "não lançado".
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
  if (phase.name === 'unknown')
    return (
      <Alert tone="warning" title="Resultado ainda desconhecido.">
        <p>
          {phase.reason ??
            'Ainda não se sabe se a compra foi registrada. Não lance de novo: o servidor confere sozinho.'}
        </p>
        {phase.stopped ? (
          <>
            <p>Esta tela parou de perguntar sozinha; o servidor continua conferindo.</p>
            <div>
              <Button onClick={onVerify}>Conferir de novo</Button>
            </div>
          </>
        ) : (
          <p>Esta tela mostra o resultado assim que ele for conhecido.</p>
        )}
      </Alert>
    );
  if (phase.name === 'verify-failed')
    return (
      <VerifyFailedAlert
        error={phase.error}
        stopped={phase.stopped}
        mayHave="Os pontos podem ter sido lançados."
        whileTrying="Tentando de novo a cada poucos segundos;"
        whenStopped="Esta tela parou de tentar sozinha: confira de novo quando a conexão voltar."
        then=" não lance outra vez."
      >
        <div>
          <Button onClick={onVerify} autoFocus>
            Conferir de novo
          </Button>
        </div>
      </VerifyFailedAlert>
    );
  if (phase.name === 'not-posted')
    return (
      <Alert tone="info" title="Não lançado.">
        <p>
          {phase.reason ??
            'Conferimos o cadastro do cliente: esta compra não foi registrada. Pode lançar de novo.'}
        </p>
      </Alert>
    );
  return null;
}
