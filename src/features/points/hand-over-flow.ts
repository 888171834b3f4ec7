// The flow of one hand-over, loaded with its dialog (never on the counter's first load):
// sending it once with its id, following the journal until it settles, and what the dialog
// shows on the way. The same steps as a posting's (posting-flow.ts): the server decides a
// lost answer by re-reading the customer's rewards, and the counter never sends again by
// itself, except a hand-over the server says it never received, and only when asked.
import type { QueryClient } from '@tanstack/react-query';
import { ApiError, toApiError } from '@/api/errors';
import { asApiError } from '@/features/points/follow';
import { followWaits } from '@/features/points/follow-waits';
import { afterHandOver, handOver, isHandOverUnsupported } from '@/features/points/api/hand-over';
import type { Lancamento } from '#contract/api/postings';
import { fetchLancamento } from '@/features/points/api/post-points';
import { withSaleLock } from '@/features/points/pending-sale';
import {
  clearPendingHandOver,
  markHandOverUnsupported,
  savePendingHandOver,
  type PendingHandOver,
} from '@/features/points/pending-hand-over';

export type HandOverState =
  | { name: 'confirm' }
  | { name: 'sending' }
  /** The service's answer was lost; the server is reading the customer's rewards. */
  | { name: 'verifying' }
  /** The server cannot tell yet; it checks again by itself. Never hand over again meanwhile. */
  | { name: 'unknown'; reason: string | null; stopped?: true }
  /** Our own server cannot be reached to learn the result; asked again by itself until `stopped`. */
  | { name: 'verify-failed'; error: ApiError; stopped?: true }
  | { name: 'done'; id_premio_cliente: number | null; at: Date; verified: boolean }
  /** Another terminal (or an earlier try) handed it over already. */
  | { name: 'already'; message: string }
  | { name: 'refused'; error: ApiError }
  /** This service does not take hand-overs (404/405 `entrega_indisponivel`). */
  | { name: 'unsupported' }
  /** The service is down (503, contingency): refused, never kept for later. */
  | { name: 'unavailable' }
  /** The request never reached our server: nothing was handed over. */
  | { name: 'not-arrived' };

/** Settled: the dialog may close, and nothing more happens to this hand-over. */
export const settled = (s: HandOverState): boolean =>
  s.name !== 'sending' &&
  s.name !== 'verifying' &&
  s.name !== 'unknown' &&
  s.name !== 'verify-failed';

const ALREADY = /j[áa] foi entregue/i;

const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);

/** What a refusal (answered, or relayed by the journal) means for the cashier. */
export function verdictOf(error: ApiError): HandOverState {
  if (isHandOverUnsupported(error)) return { name: 'unsupported' };
  if (error.status === 503) return { name: 'unavailable' };
  const messages = [error.message, ...Object.values(error.fieldErrors).flat()];
  const already = messages.find((m) => ALREADY.test(m));
  if (already) return { name: 'already', message: already };
  return { name: 'refused', error };
}

export type HandOverDeps = {
  qc: QueryClient;
  show: (state: HandOverState) => void;
  /** The service refused the attendant password: the shift asks for it again. */
  onPasswordRejected: () => void;
};

/**
 * Sends the hand-over (`password` given) and/or follows it until the journal settles it,
 * holding its lock across this browser's tabs. Only this hand-over's id is ever sent, which
 * the server hands over once.
 */
export async function runHandOver(
  h: PendingHandOver,
  password: string | null,
  signal: AbortSignal,
  deps: HandOverDeps,
): Promise<void> {
  const { qc, show } = deps;

  const finish = (state: HandOverState) => {
    clearPendingHandOver(h.id);
    if (state.name === 'unsupported') markHandOverUnsupported();
    if (state.name === 'refused' && state.error.fieldErrors.senha_atendente) {
      deps.onPasswordRejected();
    }
    if (state.name === 'done') {
      void afterHandOver(qc, {
        id_cliente: h.target.customer.id_cliente,
        id_premio_cliente: state.id_premio_cliente ?? h.target.reward.id_premio_cliente,
        categoria_premio: h.target.reward.categoria_premio,
      });
    } else if (state.name === 'already') {
      void afterHandOver(qc, null);
    }
    show(state);
  };

  const done = (id: number | null, verified: boolean) =>
    finish({ name: 'done', id_premio_cliente: id, at: new Date(), verified });

  /** Shows what the journal says; true when the hand-over is settled. */
  const apply = (l: Lancamento): boolean => {
    switch (l.estado) {
      case 'lançado': {
        const corpo = (l.resposta?.corpo ?? null) as { data?: Record<string, unknown> } | null;
        done(l.premio?.id_premio_cliente ?? num(corpo?.data?.id_premio_cliente), true);
        return true;
      }
      case 'recusado':
      case 'descartado':
        finish(
          l.resposta
            ? verdictOf(toApiError(l.resposta.status, JSON.stringify(l.resposta.corpo)))
            : {
                name: 'refused',
                error: new ApiError({
                  kind: 'validation',
                  message:
                    l.motivo ??
                    'O servidor conferiu: o prêmio não foi entregue. Pode entregar de novo.',
                }),
              },
        );
        return true;
      case 'enviando':
        show({ name: 'sending' });
        return false;
      case 'verificando':
        show({ name: 'verifying' });
        return false;
      default:
        // desconhecido (or a state a hand-over should never be in): keep following.
        show({ name: 'unknown', reason: l.motivo });
        return false;
    }
  };

  await withSaleLock(h.id, signal, async () => {
    let mustSend = password !== null;
    let sentHere = false;
    let notFound = 0;
    // Pauses in a row without a settled answer: they grow, and stop at a cap (the
    // dialog says so; opening it again follows the hand-over anew).
    const waits = followWaits(signal);
    while (!signal.aborted) {
      if (mustSend && password !== null) {
        mustSend = false;
        sentHere = true;
        show({ name: 'sending' });
        try {
          const answer = await handOver(
            {
              id_premio: h.target.reward.id_premio,
              id_cliente: h.target.customer.id_cliente,
              senha_atendente: password,
            },
            h.id,
            { signal },
          );
          if (answer.kind === 'done') return done(answer.result.id_premio_cliente, false);
          if (apply(answer.lancamento)) return;
        } catch (e) {
          if (signal.aborted) return;
          const error = asApiError(e);
          // Refused (by the service, relayed, or by our server; a 503 is contingency, which
          // never keeps a hand-over): nothing was handed over.
          if (!error.requestMayHaveReached || error.status === 503) return finish(verdictOf(error));
          // The answer was lost: the journal knows what became of it.
        }
      }
      try {
        const l = await fetchLancamento(h.id, { signal });
        notFound = 0;
        if (apply(l)) return;
        if (l.estado !== 'enviando' && l.estado !== 'verificando' && !(await waits.unknown())) {
          show({ name: 'unknown', reason: l.motivo, stopped: true });
          return;
        }
      } catch (e) {
        if (signal.aborted) return;
        const error = asApiError(e);
        if (error.kind === 'not_found') {
          // Our server never journaled this id. Asked once more, then it is known not to
          // have arrived: kept so that handing the same reward over again reuses its id.
          if (sentHere && ++notFound < 2) {
            await waits.notFound();
            continue;
          }
          savePendingHandOver({ ...h, unsent: true });
          show({ name: 'not-arrived' });
          return;
        }
        show({ name: 'verify-failed', error });
        if (!(await waits.unreachable())) {
          show({ name: 'verify-failed', error, stopped: true });
          return;
        }
      }
    }
  });
}
