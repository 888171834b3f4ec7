// "Entregar": hand a won reward over, with one confirmation. Loaded on the first "Entregar"
// (or to follow a hand-over a reload left pending): neither it nor its flow is part of the
// counter's first load.
import {
  useEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type RefObject,
  type SyntheticEvent,
} from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useLatest } from '@/hooks/use-latest';
import { formatDate } from '@/lib/dates';
import { maskPhone } from '@/lib/phone';
import { CATEGORY_LABELS } from '@/lib/rewards';
import { runHandOver, settled, type HandOverState } from '@/features/points/hand-over-flow';
import {
  loadPendingHandOver,
  resumableHandOver,
  savePendingHandOver,
  type HandOverTarget,
  type PendingHandOver,
} from '@/features/points/pending-hand-over';
import { HandOverSlip, printHandOverSlip } from './hand-over-slip';

type Props = {
  /** The reward the cashier chose; null: only follow the hand-over a reload left pending. */
  target: HandOverTarget | null;
  /** The shift's attendant password (null while the shift is closed). */
  password: string | null;
  establishment: string;
  terminal: string | null;
  onPasswordRejected: () => void;
  /** What became of it, as soon as it is known (hides "Entregar" after `unsupported`). */
  onOutcome?: (state: HandOverState, target: HandOverTarget) => void;
  onClose: () => void;
  /** Where the focus goes back when it closes: the first of these still on the page. */
  focusAfter?: readonly RefObject<HTMLElement | null>[];
};

const sameReward = (a: HandOverTarget, b: HandOverTarget) =>
  a.customer.id_cliente === b.customer.id_cliente && a.reward.id_premio === b.reward.id_premio;

/** "Maria da Silva", or the masked phone of a customer with no name. */
const whom = (t: HandOverTarget) => t.customer.nome ?? maskPhone(t.customer.celular);

/** Busy: the request is on its way or the server is deciding, so the dialog stays. */
const busy = (s: HandOverState) => s.name === 'sending' || s.name === 'verifying';

export function HandOverDialog({
  target,
  password,
  establishment,
  terminal,
  onPasswordRejected,
  onOutcome,
  onClose,
  focusAfter = [],
}: Props) {
  const qc = useQueryClient();
  const dialog = useRef<HTMLDialogElement>(null);
  const primary = useRef<HTMLButtonElement>(null);
  const statusHeading = useRef<HTMLHeadingElement>(null);
  // A hand-over a reload (or a closed dialog) left pending comes first: it is followed to its
  // result, and no other leaves this counter until it has one.
  const [resumed] = useState(resumableHandOver);
  const [current, setCurrent] = useState<PendingHandOver | null>(resumed);
  const [state, setState] = useState<HandOverState>(
    resumed ? { name: 'verifying' } : { name: 'confirm' },
  );
  const running = useRef<AbortController | null>(null);
  const shown = current?.target ?? target;

  const latest = useLatest({ onOutcome, onPasswordRejected, onClose });

  /** Runs the hand-over's flow (its state shows as it goes). */
  const launch = (h: PendingHandOver, pw: string | null) => {
    running.current?.abort();
    const ac = new AbortController();
    running.current = ac;
    void runHandOver(h, pw, ac.signal, {
      qc,
      show: (s) => {
        if (ac.signal.aborted) return;
        setState(s);
        if (settled(s)) latest.current.onOutcome?.(s, h.target);
      },
      onPasswordRejected: () => latest.current.onPasswordRejected(),
    }).catch(() => undefined);
  };
  const start = (h: PendingHandOver, pw: string) => {
    setCurrent(h);
    setState({ name: 'sending' });
    launch(h, pw);
  };

  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
    if (resumed) launch(resumed, null);
    return () => running.current?.abort();
    // Once, as the dialog opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // The focus follows the step: "Entregar" to confirm, the answer's main button once settled,
  // the status meanwhile. Given here, after showModal: React's autoFocus would run before it,
  // on a dialog not shown yet, where a browser gives no focus (Chromium's showModal then put
  // it on "Cancelar", so Enter cancelled).
  useEffect(() => {
    (state.name === 'confirm' || settled(state) ? primary.current : statusHeading.current)?.focus();
  }, [state]);

  // Nothing chosen and nothing pending (another tab settled it): nothing to show.
  useEffect(() => {
    if (!shown) latest.current.onClose();
  }, [shown, latest]);
  if (!shown) return null;

  const close = () => {
    if (busy(state)) return;
    running.current?.abort();
    if (dialog.current?.open) dialog.current.close();
    onClose();
    focusAfter.find((r) => r.current?.isConnected)?.current?.focus();
  };

  const confirm = () => {
    if (state.name !== 'confirm' || password === null || target === null) return;
    // The same reward again after its request never reached the server keeps its id: had it
    // arrived after all, the server answers that hand-over instead of making a second one.
    const kept = loadPendingHandOver();
    const h: PendingHandOver =
      kept?.unsent && sameReward(kept.target, target)
        ? { id: kept.id, target, at: Date.now() }
        : { id: crypto.randomUUID(), target, at: Date.now() };
    savePendingHandOver(h);
    start(h, password);
  };

  const again = () => {
    const kept = loadPendingHandOver();
    if (!kept || password === null) return;
    const h = { id: kept.id, target: kept.target, at: kept.at };
    savePendingHandOver(h);
    start(h, password);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDialogElement>) => {
    // Handled here, and kept from the counter's own shortcuts (Esc there is "Próximo cliente").
    if (e.key === 'Escape') {
      e.preventDefault();
      close();
    } else if (e.key === 'F9') {
      e.preventDefault();
      if (state.name === 'done') printHandOverSlip();
    }
  };
  const onCancel = (e: SyntheticEvent) => {
    e.preventDefault();
    close();
  };

  const { reward } = shown;
  const question = `Entregar ${reward.nome} a ${whom(shown)}?`;

  return (
    <dialog
      ref={dialog}
      role="alertdialog"
      aria-modal="true"
      aria-labelledby="handover-title"
      aria-describedby="handover-body"
      onKeyDown={onKeyDown}
      onCancel={onCancel}
      className="m-auto w-[min(34rem,95vw)] rounded-lg border border-slate-300 p-0 shadow-2xl backdrop:bg-slate-900/60"
    >
      {state.name === 'confirm' ? (
        <form
          className="flex flex-col gap-4 p-6"
          onSubmit={(e) => {
            e.preventDefault();
            confirm();
          }}
        >
          <h2 id="handover-title" className="text-xl font-bold break-words">
            {question}
          </h2>
          <div id="handover-body" className="flex flex-col gap-1 text-slate-800">
            <p>
              {CATEGORY_LABELS[reward.categoria_premio]} · válido até{' '}
              <span className="tabular">{formatDate(reward.valido_ate)}</span>
            </p>
            <p>A entrega fica registrada no programa de fidelidade e não pode ser desfeita.</p>
            {password === null && (
              <p className="font-semibold text-amber-900">Abra o turno para entregar.</p>
            )}
          </div>
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="secondary" onClick={close} shortcut="Esc">
              Cancelar
            </Button>
            <Button
              ref={primary}
              type="submit"
              variant="success"
              size="lg"
              disabled={password === null}
              shortcut="Enter"
            >
              Entregar
            </Button>
          </div>
        </form>
      ) : (
        <div className="flex flex-col gap-4 p-6">
          <Outcome
            state={state}
            title={question}
            reward={reward.nome}
            customer={whom(shown)}
            headingRef={statusHeading}
          />
          <div className="flex flex-wrap justify-end gap-2">
            {state.name === 'done' && (
              <Button variant="secondary" onClick={printHandOverSlip} shortcut="F9">
                Imprimir comprovante
              </Button>
            )}
            {state.name === 'not-arrived' && (
              <Button variant="secondary" onClick={again} disabled={password === null}>
                Entregar de novo
              </Button>
            )}
            {!busy(state) && (
              <Button ref={primary} onClick={close} shortcut="Esc" size="lg">
                {state.name === 'unsupported' ? 'Entendi' : 'Fechar'}
              </Button>
            )}
          </div>
          {state.name === 'done' && (
            <HandOverSlip
              target={shown}
              id_premio_cliente={state.id_premio_cliente}
              at={state.at}
              establishment={establishment}
              terminal={terminal}
            />
          )}
        </div>
      )}
    </dialog>
  );
}

function Outcome({
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
  switch (state.name) {
    case 'sending':
      return (
        <div id="handover-body" role="status" className="flex flex-col gap-2">
          {heading(title)}
          <p>
            <span
              aria-hidden="true"
              className="mr-2 inline-block size-3 animate-spin rounded-full border-2 border-current border-r-transparent"
            />
            Entregando…
          </p>
        </div>
      );
    case 'verifying':
      return (
        <div id="handover-body" className="flex flex-col gap-2">
          {heading(title)}
          <Alert tone="warning" title="Resultado desconhecido: a resposta do serviço se perdeu.">
            <p>Conferindo nos prêmios do cliente se foi entregue. Não entregue de novo.</p>
          </Alert>
        </div>
      );
    case 'unknown':
      return (
        <div id="handover-body" className="flex flex-col gap-2">
          {heading(title)}
          <Alert tone="warning" title="Ainda não se sabe se o prêmio foi entregue.">
            {state.reason && <p>{state.reason}</p>}
            <p>
              Não entregue de novo: o servidor confere sozinho. Fechando, a entrega continua sendo
              conferida e aparece aqui no próximo “Entregar”.
            </p>
          </Alert>
        </div>
      );
    case 'verify-failed':
      return (
        <div id="handover-body" className="flex flex-col gap-2">
          {heading(title)}
          <Alert tone="error" title="Resultado desconhecido: não foi possível conferir.">
            <p>{state.error.message}</p>
            <p>
              O prêmio pode ter sido entregue.{' '}
              {state.stopped
                ? 'Esta tela parou de tentar sozinha: feche e toque em “Entregar” de novo para conferir.'
                : 'Tentando de novo a cada poucos segundos.'}
            </p>
          </Alert>
        </div>
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
      return (
        <div id="handover-body" className="flex flex-col gap-2">
          {heading('Este prêmio já foi entregue.')}
          <Alert tone="warning" title={state.message}>
            <p>Nada foi entregue agora. A lista de prêmios do cliente foi atualizada.</p>
          </Alert>
        </div>
      );
    case 'refused':
      return (
        <div id="handover-body" className="flex flex-col gap-2">
          {heading('Entrega recusada.')}
          <Alert tone="error" title={state.error.message}>
            <p>
              {state.error.fieldErrors.senha_atendente
                ? 'Digite a senha do atendente de novo e entregue outra vez.'
                : 'O prêmio não foi entregue.'}
            </p>
          </Alert>
        </div>
      );
    case 'unsupported':
      return (
        <div id="handover-body" className="flex flex-col gap-2">
          {heading('Entrega de prêmios indisponível.')}
          <Alert
            tone="info"
            title="Este serviço de fidelidade não permite entregar prêmios no caixa."
          >
            <p>
              Nada foi entregue. O botão “Entregar” foi ocultado neste caixa: entregue o prêmio pelo
              painel do serviço de fidelidade.
            </p>
          </Alert>
        </div>
      );
    case 'unavailable':
      return (
        <div id="handover-body" className="flex flex-col gap-2">
          {heading('Serviço de fidelidade indisponível.')}
          <Alert tone="error" title="O prêmio não foi entregue.">
            <p>Uma entrega não fica guardada para depois: tente de novo quando o serviço voltar.</p>
          </Alert>
        </div>
      );
    case 'not-arrived':
      return (
        <div id="handover-body" className="flex flex-col gap-2">
          {heading('O pedido não chegou ao servidor: nada foi entregue.')}
          <Alert tone="info" title="Pode entregar de novo.">
            <p>O mesmo pedido é reenviado: o prêmio não é entregue duas vezes.</p>
          </Alert>
        </div>
      );
  }
}
