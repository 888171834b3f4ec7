// The hand-over dialog's run: which hand-over it shows (one a reload left pending comes first),
// the flow's state as it goes, and the cashier's "Entregar" and "Entregar de novo".
import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useLatest } from '@/hooks/use-latest';
import { runHandOver, settled, type HandOverState } from '@/features/points/hand-over-flow';
import {
  loadPendingHandOver,
  resumableHandOver,
  savePendingHandOver,
  type HandOverTarget,
  type PendingHandOver,
} from '@/features/points/pending-hand-over';

const sameReward = (a: HandOverTarget, b: HandOverTarget) =>
  a.customer.id_cliente === b.customer.id_cliente && a.reward.id_premio === b.reward.id_premio;

/**
 * The run of the dialog open on `target` (null: only follow the hand-over a reload left
 * pending). `shown` is what the dialog names (null: nothing to show); `stop` ends the run's
 * flow, as the dialog closes.
 */
export function useHandOverRun({
  target,
  password,
  onOutcome,
  onPasswordRejected,
}: {
  target: HandOverTarget | null;
  password: string | null;
  onOutcome?: (state: HandOverState, target: HandOverTarget) => void;
  onPasswordRejected: () => void;
}) {
  const qc = useQueryClient();
  // A hand-over a reload (or a closed dialog) left pending comes first: it is followed to its
  // result, and no other leaves this counter until it has one.
  const [resumed] = useState(resumableHandOver);
  const [current, setCurrent] = useState<PendingHandOver | null>(resumed);
  const [state, setState] = useState<HandOverState>(
    resumed ? { name: 'verifying' } : { name: 'confirm' },
  );
  const running = useRef<AbortController | null>(null);
  const shown = current?.target ?? target;

  const latest = useLatest({ onOutcome, onPasswordRejected });

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
    if (resumed) launch(resumed, null);
    return () => running.current?.abort();
    // Once, as the dialog opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

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

  return { shown, state, confirm, again, stop: () => running.current?.abort() };
}
