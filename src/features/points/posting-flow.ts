// The posting flow of one sale, loaded when the counter first needs it (its chunk is fetched
// while the counter is idle, with the counter's other parts): sending the sale, following the
// journal until it settles; what the counter shows on the way is posting-answers.ts. usePosting
// owns the state and the refs; these modules own the steps. Split from use-posting.ts only for the counter's
// first load: the logic is the same whichever module holds it.
import type { Customer } from '@/api/schemas';
import type { ApiError } from '@/api/errors';
import { asApiError } from '@/features/points/follow';
import { followWaits } from '@/features/points/follow-waits';
import { ContingencyFull } from '#contract/api/postings';
import { fetchLancamento, postPoints } from '@/features/points/api/post-points';
import { clearPendingSale, withSaleLock, type PendingSale } from '@/features/points/pending-sale';
import type { FlowContext, Snapshot } from '@/features/points/posting-types';
import {
  createPostingAnswers,
  postedFromResult,
  rewardsWon,
} from '@/features/points/posting-answers';

export function snapshotOf(customer: Customer | null): Snapshot {
  if (!customer) return null;
  return {
    id_cliente: customer.id_cliente,
    compras: customer.compras,
    ultima_compra: customer.ultima_compra ?? null,
    won: rewardsWon(customer),
  };
}

export const postingMessages = {
  neverArrived:
    'O pedido não chegou ao servidor: nada foi lançado. Pode lançar de novo (a mesma venda não é lançada duas vezes).',
};

/** The service is down and no more sales may be kept: nothing was journaled or sent. */
const keptLimit = (error: ApiError) => ContingencyFull.safeParse(error.data).success;

/**
 * The posting of one sale on the hook's state and refs: `run` sends it and/or follows it until
 * the journal settles it; posting-answers.ts shows each answer on the way.
 */
export function createPostingFlow(ctx: FlowContext) {
  const { setPhase, inFlight, unsent, following } = ctx;
  const { apply, settle, refused } = createPostingAnswers(ctx);

  /**
   * Sends the sale (`send`) and/or follows it until the journal settles it, holding the
   * sale's lock. Never sends a second sale: only this sale's id, which the server posts once.
   */
  const run = async (sale: PendingSale, send: boolean): Promise<ApiError | null> => {
    following.current?.abort();
    const ac = new AbortController();
    following.current = ac;
    inFlight.current = true;
    try {
      return await withSaleLock(sale.id, ac.signal, async () => {
        let mustSend = send;
        let sentHere = false;
        let notFound = 0;
        // Pauses in a row without a settled answer: they grow, and stop at a cap.
        const waits = followWaits(ac.signal);
        while (!ac.signal.aborted) {
          if (mustSend) {
            mustSend = false;
            sentHere = true;
            setPhase({ name: 'sending' });
            try {
              const answer = await postPoints(sale.body, sale.id, {
                signal: ac.signal,
                pdv: sale.pdv,
              });
              if (answer.kind === 'posted') {
                clearPendingSale(sale.id);
                void settle(postedFromResult(sale, answer.result), sale);
                return null;
              }
              const outcome = apply(sale, answer.lancamento);
              if (outcome.done) return outcome.error;
            } catch (e) {
              if (ac.signal.aborted) return null;
              const error = asApiError(e);
              // Refused (by the service, relayed, or by our server): nothing was posted.
              if (!error.requestMayHaveReached || keptLimit(error)) {
                return refused(sale, error).error;
              }
              // The answer was lost: the journal knows what became of it.
            }
          }
          try {
            const l = await fetchLancamento(sale.id, { signal: ac.signal });
            notFound = 0;
            const outcome = apply(sale, l);
            if (outcome.done) return outcome.error;
            if (l.estado === 'desconhecido' && !(await waits.unknown())) {
              // The server keeps checking by itself; the cashier asks again from here.
              setPhase({ name: 'unknown', reason: l.motivo, stopped: true });
              return null;
            }
          } catch (e) {
            if (ac.signal.aborted) return null;
            const error = asApiError(e);
            if (error.kind === 'not_found') {
              // Our server never journaled this id. Not sent from here yet (a reload right
              // after confirming): send it now. Sent and lost: ask once more, then it is
              // known not to have arrived (posting the same sale again reuses its id).
              if (!sentHere) {
                mustSend = true;
                continue;
              }
              if (++notFound < 2) {
                await waits.notFound();
                continue;
              }
              unsent.current = sale;
              setPhase({ name: 'not-posted', reason: postingMessages.neverArrived });
              return null;
            }
            setPhase({ name: 'verify-failed', error });
            if (!(await waits.unreachable())) {
              setPhase({ name: 'verify-failed', error, stopped: true });
              return null;
            }
          }
        }
        return null;
      });
    } catch (e) {
      if (ac.signal.aborted) return null;
      throw e;
    } finally {
      if (following.current === ac) {
        following.current = null;
        inFlight.current = false;
      }
    }
  };

  return { run };
}
