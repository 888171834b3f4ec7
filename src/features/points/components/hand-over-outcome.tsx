// What became of a hand-over, as the dialog shows it once the cashier confirmed: the
// heading and the words for each state of the hand-over's flow.
import type { ReactNode, RefObject } from 'react';
import { Alert } from '@/components/ui/alert';
import type { HandOverState } from '@/features/points/hand-over-flow';
import { VerifyFailedAlert } from './verify-failed-alert';

const ALREADY_HANDED = 'Este prêmio já foi entregue.';
/** The same sentence, whatever its case, spaces or final full stop. */
const sameWords = (a: string, b: string) => {
  const norm = (t: string) => t.trim().replace(/\s+/g, ' ').replace(/\.$/, '').toLowerCase();
  return norm(a) === norm(b);
};

/** The dialog's heading and body for a hand-over on its way or settled. */
export function HandOverOutcome({
  state,
  title,
  reward,
  customer,
  headingRef,
}: {
  state: Exclude<HandOverState, { name: 'confirm' }>;
  title: string;
  reward: string;
  customer: string;
  headingRef: RefObject<HTMLHeadingElement | null>;
}) {
  const heading = (text: string) => (
    <h2
      id="handover-title"
      ref={headingRef}
      tabIndex={-1}
      className="text-xl font-bold break-words"
    >
      {text}
    </h2>
  );
  /** The heading over what is said of it (`status`: read out as it changes). */
  const body = (text: string, said: ReactNode, status?: 'status') => (
    <div id="handover-body" role={status} className="flex flex-col gap-2">
      {heading(text)}
      {said}
    </div>
  );
  switch (state.name) {
    case 'sending':
      return body(
        title,
        <p>
          <span
            aria-hidden="true"
            className="mr-2 inline-block size-3 animate-spin rounded-full border-2 border-current border-r-transparent"
          />
          Entregando…
        </p>,
        'status',
      );
    case 'verifying':
      return body(
        title,
        <Alert tone="warning" title="Resultado desconhecido: a resposta do serviço se perdeu.">
          <p>Conferindo nos prêmios do cliente se foi entregue. Não entregue de novo.</p>
        </Alert>,
      );
    case 'unknown':
      return body(
        title,
        <Alert tone="warning" title="Ainda não se sabe se o prêmio foi entregue.">
          {state.reason && <p>{state.reason}</p>}
          <p>
            Não entregue de novo: o servidor confere sozinho. Fechando, a entrega continua sendo
            conferida e aparece aqui no próximo “Entregar”.
          </p>
        </Alert>,
      );
    case 'verify-failed':
      return body(
        title,
        <VerifyFailedAlert
          error={state.error}
          stopped={state.stopped}
          mayHave="O prêmio pode ter sido entregue."
          whileTrying="Tentando de novo a cada poucos segundos."
          whenStopped="Esta tela parou de tentar sozinha: feche e toque em “Entregar” de novo para conferir."
        />,
      );
    case 'done':
      return (
        <div
          id="handover-body"
          role="status"
          className="rounded-lg border-2 border-emerald-700 bg-emerald-50 p-4 text-emerald-950"
        >
          {heading(`✓ Prêmio entregue${state.verified ? ' (conferido no servidor)' : ''}`)}
          <p className="mt-1">
            <strong>{reward}</strong> entregue a <strong>{customer}</strong>.
          </p>
        </div>
      );
    case 'already':
      // Said once, as the heading; the service's own words only when they say something else.
      return body(
        ALREADY_HANDED,
        <Alert tone="warning" title="Nada foi entregue agora.">
          {!sameWords(state.message, ALREADY_HANDED) && <p>{state.message}</p>}
          <p>A lista de prêmios do cliente foi atualizada.</p>
        </Alert>,
      );
    case 'refused':
      return body(
        'Entrega recusada.',
        <Alert tone="error" title={state.error.message}>
          <p>
            {state.error.fieldErrors.senha_atendente
              ? 'Digite a senha do atendente de novo e entregue outra vez.'
              : 'O prêmio não foi entregue.'}
          </p>
        </Alert>,
      );
    case 'unsupported':
      return body(
        'Entrega de prêmios indisponível.',
        <>
          <Alert
            tone="info"
            title="Este serviço de fidelidade não permite entregar prêmios no caixa."
          >
            <p>
              Nada foi entregue. O botão “Entregar” foi ocultado neste caixa: entregue o prêmio pelo
              painel do serviço de fidelidade.
            </p>
          </Alert>
        </>,
      );
    case 'unavailable':
      return body(
        'Serviço de fidelidade indisponível.',
        <Alert tone="error" title="O prêmio não foi entregue.">
          <p>Uma entrega não fica guardada para depois: tente de novo quando o serviço voltar.</p>
        </Alert>,
      );
    case 'not-arrived':
      return body(
        'O pedido não chegou ao servidor: nada foi entregue.',
        <Alert tone="info" title="Pode entregar de novo.">
          <p>O mesmo pedido é reenviado: o prêmio não é entregue duas vezes.</p>
        </Alert>,
      );
  }
}
