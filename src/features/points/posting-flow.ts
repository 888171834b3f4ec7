// The posting flow of one sale, loaded when the counter first needs it (its chunk is fetched
// while the counter is idle, with the counter's other parts): sending the sale, following the
// journal until it settles, and what the counter shows on the way. usePosting owns the state
// and the refs; this module owns the steps. Split from use-posting.ts only for the counter's
// first load: the logic is the same whichever module holds it.
import type { Dispatch, RefObject, SetStateAction } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import type { Customer, RewardRecord } from '@/api/schemas';
import { REWARD_CATEGORIES } from '#contract/wire';
import { ApiError, toApiError } from '@/api/errors';
import {
  asApiError,
  NOT_FOUND_CONFIRM_MS,
  pause,
  UNKNOWN_POLL_MS,
  UNREACHABLE_RETRY_MS,
} from '@/features/points/follow';
import { followWaits } from '@/features/points/follow-waits';
import { ContingencyFull, type Lancamento } from '#contract/api/postings';
import {
  applyPointsResult,
  fetchLancamento,
  postPoints,
  type Posted as PostedAnswer,
} from '@/features/points/api/post-points';
import { pendingRewardsQuery } from '@/features/points/api/pending-rewards';
import { clearPendingSale, withSaleLock, type PendingSale } from '@/features/points/pending-sale';
import type { Phase, Posted, PostingDeps, Snapshot } from '@/features/points/posting-types';

export function snapshotOf(customer: Customer | null): Snapshot {
  if (!customer) return null;
  return {
    id_cliente: customer.id_cliente,
    compras: customer.compras,
    ultima_compra: customer.ultima_compra ?? null,
    won: rewardsWon(customer),
  };
}

/**
 * The points a purchase earned, from a read of its customer after it: the newest credit of
 * the history, when exactly this one purchase was added since `before` (else unknown).
 */
export function earnedFrom(before: Snapshot, after: Customer): number | null {
  if (after.compras !== (before?.compras ?? 0) + 1 || !after.ultima_compra) return null;
  const credit = after.carteira.historico?.find((e) => e.tipo.toLowerCase() === 'credito');
  return credit?.pontos ?? null;
}

/** The `count` rewards a posting won: the newest of those waiting (newest first). */
function newestOf(records: readonly RewardRecord[], count: number): RewardRecord[] {
  const newestFirst = (a: RewardRecord, b: RewardRecord) =>
    (a.data_conquista < b.data_conquista ? 1 : a.data_conquista > b.data_conquista ? -1 : 0) ||
    b.id_premio_cliente - a.id_premio_cliente;
  return [...records].sort(newestFirst).slice(0, count);
}

/** Rewards ever won, over the five categories (`conquistados_*`). */
export function rewardsWon(customer: Customer): number {
  return REWARD_CATEGORIES.reduce((sum, cat) => sum + (customer[`conquistados_${cat}`] ?? 0), 0);
}

export const postingMessages = {
  neverArrived:
    'O pedido não chegou ao servidor: nada foi lançado. Pode lançar de novo (a mesma venda não é lançada duas vezes).',
};

const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);

/** The result of a posting the journal says landed. */
function postedFrom(sale: PendingSale, l: Lancamento): Posted {
  const corpo = (l.resposta?.corpo ?? null) as { data?: Record<string, unknown> } | null;
  const data = corpo?.data ?? {};
  return {
    saleId: sale.id,
    id_cliente: num(data.id_cliente) ?? l.cliente?.id_cliente ?? sale.before?.id_cliente ?? 0,
    id_ponto: num(data.id_ponto),
    saldo_atual: num(data.saldo_atual) ?? l.cliente?.saldo_atual ?? 0,
    saldo_carencia: num(data.saldo_carencia) ?? l.cliente?.saldo_carencia ?? 0,
    valor: sale.body.valor_gasto,
    pontos: l.pontos,
    at: new Date(),
    verified: true,
    rewards: { state: 'checking' },
  };
}

/** The service is down and no more sales may be kept: nothing was journaled or sent. */
const keptLimit = (error: ApiError) => ContingencyFull.safeParse(error.data).success;

type Outcome = { done: false } | { done: true; error: ApiError | null };

/** What the flow works on: the hook's state setter and refs. */
export type FlowContext = {
  qc: QueryClient;
  setPhase: Dispatch<SetStateAction<Phase>>;
  deps: RefObject<PostingDeps>;
  /** A request of this hook is being sent or followed. */
  inFlight: RefObject<boolean>;
  /** The posting is known to have landed: nothing is sent again until reset. */
  landed: RefObject<boolean>;
  /** A sale that never reached the server: posting the same body again reuses its id. */
  unsent: RefObject<PendingSale | null>;
  following: RefObject<AbortController | null>;
  /** The follower of the kept sale on screen (until it settles or the next customer). */
  keptFollow: RefObject<AbortController | null>;
};

export function createPostingFlow(ctx: FlowContext) {
  const { qc, setPhase, inFlight, landed, unsent, following, keptFollow } = ctx;
  const depsRef = ctx.deps;

  /** Shows a kept sale and follows it until it settles (its code loads only then). */
  const showKept = (sale: PendingSale, l: Lancamento) => {
    landed.current = true;
    clearPendingSale(sale.id);
    keptFollow.current?.abort();
    const ac = new AbortController();
    keptFollow.current = ac;
    void import('@/features/points/kept').then((m) =>
      // Aborted by the next customer (reset): it never shows over another sale.
      m.followKept(sale, l, ac.signal, qc, (kept) => setPhase({ name: 'kept', kept })),
    );
  };

  /**
   * The rewards the posting won, by the customer's counters before and after it; when some
   * were, the customer's rewards waiting are read again (once: the panel's list and these).
   */
  const findRewards = async (before: Snapshot, after: Customer | null, posted: Posted) => {
    if (!after) return { state: 'unknown' as const };
    const count = rewardsWon(after) - (before?.won ?? 0);
    if (count <= 0) return { state: 'done' as const, count: 0, names: [], records: [] };
    try {
      const page = await qc.fetchQuery({ ...pendingRewardsQuery(posted.id_cliente), staleTime: 0 });
      const records = newestOf(page.data, count);
      return { state: 'done' as const, count, names: records.map((r) => r.nome), records };
    } catch {
      return { state: 'done' as const, count, names: [], records: [] };
    }
  };

  /**
   * Shows the posted sale from its answer at once; then the customer's one refresh (the
   * panel's), which also tells the points when the answer did not, and the rewards won.
   */
  const settle = async (posted: Posted, sale: PendingSale) => {
    const before = sale.before;
    landed.current = true;
    setPhase({ name: 'posted', posted });
    applyPointsResult(qc, posted);
    let after: Customer | null;
    try {
      after = await depsRef.current.reread({ celular: sale.body.cliente.celular });
    } catch {
      after = null;
    }
    // A customer the posting registered opens from what was just read.
    depsRef.current.onPosted?.(posted);
    const pontos = posted.pontos ?? (after ? earnedFrom(before, after) : null);
    const rewards = await findRewards(before, after, posted);
    setPhase((p) =>
      p.name === 'posted' && p.posted.saleId === posted.saleId
        ? { name: 'posted', posted: { ...p.posted, pontos, rewards } }
        : p,
    );
  };

  const refused = (sale: PendingSale, error: ApiError): { done: true; error: ApiError } => {
    clearPendingSale(sale.id);
    if (error.fieldErrors.senha_atendente) depsRef.current.onPasswordRejected();
    setPhase({ name: 'failed', error });
    return { done: true, error };
  };

  /** Shows what the journal says; done when the posting is settled. */
  const apply = (sale: PendingSale, l: Lancamento): Outcome => {
    // Its answer lost as the service went down: kept, checked and delivered by the server.
    if (l.guardado && (l.estado === 'verificando' || l.estado === 'desconhecido')) {
      showKept(sale, l);
      return { done: true, error: null };
    }
    switch (l.estado) {
      case 'lançado':
        clearPendingSale(sale.id);
        void settle(postedFrom(sale, l), sale);
        return { done: true, error: null };
      case 'recusado':
        if (l.resposta) {
          return refused(sale, toApiError(l.resposta.status, JSON.stringify(l.resposta.corpo)));
        }
        clearPendingSale(sale.id);
        setPhase({ name: 'not-posted', reason: l.motivo });
        return { done: true, error: null };
      case 'enviando':
        setPhase({ name: 'sending' });
        return { done: false };
      case 'verificando':
        setPhase({ name: 'verifying' });
        return { done: false };
      case 'desconhecido':
        setPhase({ name: 'unknown', reason: l.motivo });
        return { done: false };
      default:
        // Kept while the service is down (or, later, needing a manager): nothing to send.
        showKept(sale, l);
        return { done: true, error: null };
    }
  };

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
        const wait = followWaits(ac.signal);
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
            if (l.estado === 'desconhecido' && !(await wait(UNKNOWN_POLL_MS))) {
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
                await pause(NOT_FOUND_CONFIRM_MS, ac.signal);
                continue;
              }
              unsent.current = sale;
              setPhase({ name: 'not-posted', reason: postingMessages.neverArrived });
              return null;
            }
            setPhase({ name: 'verify-failed', error });
            if (!(await wait(UNREACHABLE_RETRY_MS))) {
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

function postedFromResult(sale: PendingSale, result: PostedAnswer): Posted {
  return {
    saleId: sale.id,
    id_cliente: result.id_cliente,
    id_ponto: result.id_ponto,
    saldo_atual: result.saldo_atual,
    saldo_carencia: result.saldo_carencia,
    valor: sale.body.valor_gasto,
    pontos: result.resultado.pontos,
    at: new Date(),
    verified: false,
    rewards: { state: 'checking' },
  };
}
