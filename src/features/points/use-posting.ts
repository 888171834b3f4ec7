// The posting flow of one sale: every sale gets an id (a UUID) when the cashier confirms it;
// the id and the body are kept in sessionStorage before the request leaves; the app server's
// journal makes one id one posting, decides lost answers itself, and is followed here
// (`GET /api/lancamentos/{id}`) until it says "lançado" or "não lançado". A reload resumes
// following the pending sale; tabs coordinate through a Web Lock per sale id.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { PostPointsBody } from '@/api/requests';
import { ApiError } from '@/api/errors';
import { useLatest } from '@/hooks/use-latest';
import {
  clearPendingSale,
  loadPendingSale,
  savePendingSale,
  type PendingSale,
} from '@/features/points/pending-sale';
import type { createPostingFlow } from '@/features/points/posting-flow';
import type { Phase, PostingDeps, Snapshot } from '@/features/points/posting-types';

/** While one of these, the post button must not send. */
export function postingBusy(phase: Phase): boolean {
  return (
    phase.name === 'sending' ||
    phase.name === 'verifying' ||
    phase.name === 'verify-failed' ||
    phase.name === 'unknown'
  );
}

type Flow = ReturnType<typeof createPostingFlow>;

/** The flow's code could not be fetched from our server (it is loaded on first use). */
const codeUnavailable =
  'Não foi possível falar com o servidor do caixa: nada foi lançado. Verifique a rede e lance de novo (a mesma venda não é lançada duas vezes).';
const flowUnreachable = () =>
  new ApiError({ kind: 'network', message: 'Não foi possível falar com o servidor do caixa.' });

export function usePosting(deps: PostingDeps) {
  const qc = useQueryClient();
  const [phase, setPhase] = useState<Phase>({ name: 'editing' });
  // A ref, not state: a second click or a repeated Enter arrives before React re-renders.
  const inFlight = useRef(false);
  // Set once the posting is known to have landed: nothing is sent again until reset(), even
  // by a click that arrives after the answer but before React renders the "posted" phase.
  const landed = useRef(false);
  const shown = useRef<string | null>(null);
  /** A sale that never reached the server: posting the same body again reuses its id. */
  const unsent = useRef<PendingSale | null>(null);
  const following = useRef<AbortController | null>(null);
  /** The follower of the kept sale on screen (until it settles or the next customer). */
  const keptFollow = useRef<AbortController | null>(null);
  const depsRef = useLatest(deps);
  const flow = useRef<Promise<Flow> | null>(null);

  /** The flow's code, loaded once (a failed load is tried again next time). */
  const loadFlow = useCallback((): Promise<Flow> => {
    flow.current ??= import('@/features/points/posting-flow').then(
      (m) =>
        m.createPostingFlow({
          qc,
          setPhase,
          deps: depsRef,
          inFlight,
          landed,
          shown,
          unsent,
          following,
          keptFollow,
        }),
      (e: unknown) => {
        flow.current = null;
        throw e;
      },
    );
    return flow.current;
  }, [qc, depsRef]);

  /**
   * Sends the posting once. Returns the error when it was refused, for the form to show.
   * `pdv`: a PDV sale's id, posted through the counter's PDV route with the same journal key.
   */
  const post = useCallback(
    async (body: PostPointsBody, before: Snapshot, pdv?: string): Promise<ApiError | null> => {
      if (inFlight.current || landed.current) return null;
      inFlight.current = true;
      // The same sale again after it never reached the server keeps its id: if it did arrive
      // after all, the server answers that posting instead of making a second one.
      const again = unsent.current;
      unsent.current = null;
      const sale: PendingSale =
        again && again.pdv === pdv && JSON.stringify(again.body) === JSON.stringify(body)
          ? again
          : { id: crypto.randomUUID(), body, before, at: Date.now(), pdv };
      savePendingSale(sale);
      let f: Flow;
      try {
        f = await loadFlow();
      } catch (cause) {
        // The flow's code could not be fetched: nothing was sent. The same sale keeps its id.
        clearPendingSale(sale.id);
        unsent.current = sale;
        inFlight.current = false;
        const error = new ApiError({
          kind: 'network',
          cause,
          requestMayHaveReached: false,
          message: codeUnavailable,
        });
        setPhase({ name: 'failed', error });
        return error;
      }
      return f.run(sale, true);
    },
    [loadFlow],
  );

  /** Asks the server again now (after it could not be reached). */
  const verify = useCallback(async () => {
    const sale = loadPendingSale();
    if (sale === null) return;
    const f = await loadFlow().catch(() => null);
    if (f === null) setPhase({ name: 'verify-failed', error: flowUnreachable() });
    else await f.run(sale, false);
  }, [loadFlow]);

  /** Stops following the sale on screen (the counter is going away). */
  const stopFollowing = useCallback(() => {
    following.current?.abort();
    keptFollow.current?.abort();
  }, []);

  // A sale left pending by a reload (or a crash of the tab): follow it to its result.
  useEffect(() => {
    let mounted = true;
    const sale = loadPendingSale();
    if (sale && !landed.current) {
      // Busy as while following it: no other sale leaves this counter meanwhile.
      inFlight.current = true;
      // Retried by "Verificar agora" (verify) if the code cannot be fetched now.
      void loadFlow().then(
        (f) => mounted && void f.run(sale, false),
        () => setPhase({ name: 'verify-failed', error: flowUnreachable() }),
      );
    }
    return () => {
      mounted = false;
      stopFollowing();
    };
  }, [loadFlow, stopFollowing]);

  const reset = useCallback(() => {
    if (loadPendingSale() !== null && !landed.current) return; // a sale still in the balance
    keptFollow.current?.abort();
    keptFollow.current = null;
    unsent.current = null;
    landed.current = false;
    shown.current = null;
    setPhase({ name: 'editing' });
  }, []);

  const locked = postingBusy(phase) || phase.name === 'posted' || phase.name === 'kept';

  return { phase, post, verify, reset, locked };
}
