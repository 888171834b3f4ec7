// The counter's side of handing a reward over: whether "Entregar" shows, which rewards this
// customer was handed, and the dialog (its own chunk, with its flow and slip: fetched on the
// first "Entregar", or to follow a hand-over a reload left pending).
import { lazy, Suspense, useEffect, useRef, useState, type RefObject } from 'react';
import type { Config } from '#contract/api/config';
import { handOverUnsupported, mayResumeHandOver } from '@/features/points/hand-over-keys';
import type { HandOverTarget } from '@/features/points/pending-hand-over';
import { useShift } from '@/features/points/shift';

const HandOverDialog = lazy(() =>
  import('@/features/points/components/hand-over-dialog').then((m) => ({
    default: m.HandOverDialog,
  })),
);

/**
 * "Entregar" for the counter: `open` from a reward's button, `dialog` to render. It shows
 * unless the server's setting turns it off (`REWARD_HANDOVER=0`) or the service said, once,
 * that it does not take hand-overs. The attendant password is the shift's; `focusAfter`: where
 * the focus goes when the dialog closes and its opener has left (a row handed over).
 */
export function useHandOver(
  config: Config,
  establishment: string,
  focusAfter: readonly RefObject<HTMLElement | null>[],
) {
  const shift = useShift();
  const [chosen, setChosen] = useState<HandOverTarget | null>(null);
  // A hand-over this tab left open, read once React owns the page (the server's paint knows
  // nothing of this tab's storage). An effect, not useHydrated: that hook's change after
  // hydration is a synchronous update, and here it re-rendered the whole counter in one task
  // (and hydrated its lazy parts in it), the longest task of the counter's start-up.
  const [resume, setResume] = useState(false);
  useEffect(() => {
    if (!mayResumeHandOver()) return;
    const timer = setTimeout(() => setResume(true), 0);
    return () => clearTimeout(timer);
  }, []);
  const shown = chosen ? { target: chosen } : resume ? { target: null } : null;
  const [unsupported, setUnsupported] = useState(handOverUnsupported);
  /** The rewards (id_premio_cliente) handed over to this customer: their buttons leave. */
  const [handed, setHanded] = useState<ReadonlySet<number>>(() => new Set());
  const opener = useRef<HTMLElement | null>(null);

  const open = (target: HandOverTarget, from: HTMLElement) => {
    opener.current = from;
    setResume(false);
    setChosen(target);
  };
  const close = () => {
    setChosen(null);
    setResume(false);
  };

  const dialog = shown && (
    <Suspense fallback={null}>
      <HandOverDialog
        target={shown.target}
        password={shift.password}
        establishment={establishment}
        terminal={config.terminal?.name ?? null}
        onPasswordRejected={() => shift.close('rejected')}
        onOutcome={(state, target) => {
          if (state.name === 'unsupported') setUnsupported(true);
          if (state.name === 'done' || state.name === 'already') {
            setHanded((s) => new Set(s).add(target.reward.id_premio_cliente));
          }
        }}
        onClose={close}
        // Back where it was opened; a row handed over has left: what the counter gives next.
        focusAfter={[opener, ...focusAfter]}
      />
    </Suspense>
  );
  const available = config.entregaPremios !== false && !unsupported;
  return {
    available,
    /** What a posting's result offers ("Entregar agora"), when hand-overs are available. */
    forPosted: available ? { handed, onHandOver: open } : undefined,
    open,
    /** The next customer: nothing handed over yet. */
    forget: () => setHanded(new Set()),
    dialog,
  };
}
