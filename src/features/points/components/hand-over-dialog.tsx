// "Entregar": hand a won reward over, with one confirmation. Loaded on the first "Entregar"
// (or to follow a hand-over a reload left pending): neither it nor its flow is part of the
// counter's first load.
import { useEffect, useRef, type KeyboardEvent, type RefObject, type SyntheticEvent } from 'react';
import { Button } from '@/components/ui/button';
import { useLatest } from '@/hooks/use-latest';
import { formatDate } from '@/lib/dates';
import { openModal } from '@/lib/modal';
import { maskPhone } from '@/lib/phone';
import { CATEGORY_LABELS } from '@/lib/rewards';
import { settled, type HandOverState } from '@/features/points/hand-over-flow';
import type { HandOverTarget } from '@/features/points/pending-hand-over';
import { useHandOverRun } from '@/features/points/use-hand-over-run';
import { HandOverOutcome } from './hand-over-outcome';
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
  const dialog = useRef<HTMLDialogElement>(null);
  const primary = useRef<HTMLButtonElement>(null);
  const statusHeading = useRef<HTMLHeadingElement>(null);
  const latest = useLatest({ onClose });

  // The focus on "Entregar": Enter confirms, Esc cancels. Before the run's own start, as it
  // was opened first.
  useEffect(() => {
    if (dialog.current) openModal(dialog.current);
  }, []);
  const { shown, state, confirm, again, stop } = useHandOverRun({
    target,
    password,
    onOutcome,
    onPasswordRejected,
  });

  // The focus follows the step: the answer's main button once settled, the status meanwhile.
  useEffect(() => {
    if (state.name === 'confirm') return;
    (settled(state) ? primary.current : statusHeading.current)?.focus();
  }, [state]);

  // Nothing chosen and nothing pending (another tab settled it): nothing to show.
  useEffect(() => {
    if (!shown) latest.current.onClose();
  }, [shown, latest]);
  if (!shown) return null;

  const close = () => {
    if (busy(state)) return;
    stop();
    if (dialog.current?.open) dialog.current.close();
    onClose();
    focusAfter.find((r) => r.current?.isConnected)?.current?.focus();
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
        <HandOverQuestion
          question={question}
          reward={reward}
          shiftOpen={password !== null}
          onConfirm={confirm}
          onCancel={close}
        />
      ) : (
        <div className="flex flex-col gap-4 p-6">
          <HandOverOutcome
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

/** The one confirmation: "Entregar X a Fulano?", Enter confirms and Esc cancels. */
function HandOverQuestion({
  question,
  reward,
  shiftOpen,
  onConfirm,
  onCancel,
}: {
  question: string;
  reward: HandOverTarget['reward'];
  shiftOpen: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <form
      className="flex flex-col gap-4 p-6"
      onSubmit={(e) => {
        e.preventDefault();
        onConfirm();
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
        {!shiftOpen && <p className="font-semibold text-amber-900">Abra o turno para entregar.</p>}
      </div>
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={onCancel} shortcut="Esc">
          Cancelar
        </Button>
        <Button
          type="submit"
          variant="success"
          size="lg"
          data-autofocus
          disabled={!shiftOpen}
          shortcut="Enter"
        >
          Entregar
        </Button>
      </div>
    </form>
  );
}
