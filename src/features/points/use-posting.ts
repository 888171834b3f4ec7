// The posting flow of one sale: every sale gets an id (a UUID) when the cashier confirms it;
// the id and the body are kept in sessionStorage before the request leaves; the app server's
// journal makes one id one posting, decides lost answers itself, and is followed here
// (`GET /api/lancamentos/{id}`) until it says "lançado" or "não lançado". A reload resumes
// following the pending sale; tabs coordinate through a Web Lock per sale id.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Customer, PointsResult } from '@/api/schemas';
import type { PostPointsBody } from '@/api/requests';
import { REWARD_CATEGORIES } from '@/api/wire';
import { ApiError, isApiError, toApiError } from '@/api/errors';
import { useLatest } from '@/hooks/use-latest';
import {
  afterPosted,
  fetchLancamento,
  postPoints,
  type Lancamento,
} from '@/features/points/api/post-points';
import type { Kept } from '@/features/points/kept';
import {
  clearPendingSale,
  loadPendingSale,
  savePendingSale,
  withSaleLock,
  type PendingSale,
} from '@/features/points/pending-sale';

/** What the counter knew of the customer just before posting (null: not registered yet). */
export type Snapshot = PendingSale['before'];

export function snapshotOf(customer: Customer | null): Snapshot {
  if (!customer) return null;
  return {
    id_cliente: customer.id_cliente,
    compras: customer.compras,
    ultima_compra: customer.ultima_compra ?? null,
    won: rewardsWon(customer),
  };
}

/** Who to re-read: the customer's id when known, else the phone sent for a new customer. */
export type RereadTarget = { id_cliente: number } | { celular: string };

/** Rewards ever won, over the five categories (`conquistados_*`). */
export function rewardsWon(customer: Customer): number {
  return REWARD_CATEGORIES.reduce((sum, cat) => sum + (customer[`conquistados_${cat}`] ?? 0), 0);
}

export type Posted = {
  /** The sale id (Idempotency-Key). */
  saleId: string;
  id_cliente: number;
  id_ponto: number | null;
  saldo_atual: number;
  saldo_carencia: number;
  valor: number;
  at: Date;
  /** true when the result was learned from the server's journal after the answer was lost. */
  verified: boolean;
  rewards:
    | { state: 'checking' }
    | { state: 'done'; count: number; names: string[] }
    | { state: 'unknown' };
};

export type Phase =
  | { name: 'editing' }
  /** Kept for later delivery (the service is unavailable); followed until it settles. */
  | { name: 'kept'; kept: Kept }
  | { name: 'sending' }
  | { name: 'failed'; error: ApiError }
  /** The service's answer was lost; the server is checking the customer. */
  | { name: 'verifying' }
  /** The server cannot tell yet; it checks again by itself. Never post again meanwhile. */
  | { name: 'unknown'; reason: string | null }
  /** Our own server cannot be reached to learn the result; retried by itself. */
  | { name: 'verify-failed'; error: ApiError }
  | { name: 'not-posted'; reason: string | null }
  | { name: 'posted'; posted: Posted };

export type PostingDeps = {
  /** A fresh read (never from cache) of the sale's customer. */
  reread: (target: RereadTarget) => Promise<Customer | null>;
  /** Names of the customer's newest `count` rewards. */
  newestRewardNames: (id_cliente: number, count: number) => Promise<string[]>;
  /** The service refused the attendant password. */
  onPasswordRejected: () => void;
  /** The posting is known to have landed (answered, or learned from the journal). */
  onPosted?: (posted: Posted) => void;
};

/** While one of these, the post button must not send. */
export function postingBusy(phase: Phase): boolean {
  return (
    phase.name === 'sending' ||
    phase.name === 'verifying' ||
    phase.name === 'verify-failed' ||
    phase.name === 'unknown'
  );
}

/** Pauses between follow-ups while the server itself re-checks an unknown result. */
const UNKNOWN_POLL_MS = 5_000;
/** Pauses before asking our server again when it could not be reached. */
const UNREACHABLE_RETRY_MS = 3_000;
/** A lost request unknown to the server is asked about once more after this pause. */
const NOT_FOUND_CONFIRM_MS = 1_000;

export const postingMessages = {
  neverArrived:
    'O pedido não chegou ao servidor: nada foi lançado. Pode lançar de novo (a mesma venda não é lançada duas vezes).',
};

/** Anything thrown that is not an ApiError is a surprise: treat it as an unreadable answer. */
const asApiError = (e: unknown): ApiError =>
  isApiError(e) ? e : new ApiError({ kind: 'contract', cause: e });

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        resolve();
      },
      { once: true },
    );
  });
}

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
    at: new Date(),
    verified: true,
    rewards: { state: 'checking' },
  };
}

/** The service is down and no more sales may be kept: nothing was journaled or sent. */
const keptLimit = (error: ApiError) =>
  (error.data as { limite_contingencia?: unknown } | null)?.limite_contingencia === true;

type Outcome = { done: false } | { done: true; error: ApiError | null };

export function usePosting(deps: PostingDeps) {
  const qc = useQueryClient();
  const [phase, setPhase] = useState<Phase>({ name: 'editing' });
  // A ref, not state: a second click or a repeated Enter arrives before React re-renders.
  const inFlight = useRef(false);
  // Set once the posting is known to have landed: nothing is sent again until reset(), even
  // by a click that arrives after the answer but before React renders the "posted" phase.
  const landed = useRef(false);
  /** A sale that never reached the server: posting the same body again reuses its id. */
  const unsent = useRef<PendingSale | null>(null);
  const following = useRef<AbortController | null>(null);
  /** The follower of the kept sale on screen (until it settles or the next customer). */
  const keptFollow = useRef<AbortController | null>(null);
  const depsRef = useLatest(deps);

  /** Shows a kept sale and follows it until it settles (its code loads only then). */
  const showKept = useCallback(
    (sale: PendingSale, l: Lancamento) => {
      landed.current = true;
      clearPendingSale(sale.id);
      keptFollow.current?.abort();
      const ac = new AbortController();
      keptFollow.current = ac;
      void import('@/features/points/kept').then((m) =>
        // Aborted by the next customer (reset): it never shows over another sale.
        m.followKept(sale, l, ac.signal, qc, (kept) => setPhase({ name: 'kept', kept })),
      );
    },
    [qc],
  );

  const findRewards = useCallback(
    async (before: Snapshot, after: Customer | null, posted: Posted) => {
      if (!after) return { state: 'unknown' as const };
      const count = rewardsWon(after) - (before?.won ?? 0);
      if (count <= 0) return { state: 'done' as const, count: 0, names: [] };
      try {
        const names = await depsRef.current.newestRewardNames(posted.id_cliente, count);
        return { state: 'done' as const, count, names };
      } catch {
        return { state: 'done' as const, count, names: [] };
      }
    },
    [depsRef],
  );

  /** Shows the posted sale, then re-reads the customer to tell whether a reward was won. */
  const settle = useCallback(
    async (posted: Posted, before: Snapshot) => {
      landed.current = true;
      setPhase({ name: 'posted', posted });
      depsRef.current.onPosted?.(posted);
      void afterPosted(qc, posted);
      let after: Customer | null;
      try {
        after = await depsRef.current.reread({ id_cliente: posted.id_cliente });
      } catch {
        after = null;
      }
      const rewards = await findRewards(before, after, posted);
      setPhase((p) =>
        p.name === 'posted' && p.posted === posted
          ? { name: 'posted', posted: { ...posted, rewards } }
          : p,
      );
    },
    [findRewards, depsRef, qc],
  );

  const refused = useCallback(
    (sale: PendingSale, error: ApiError): { done: true; error: ApiError } => {
      clearPendingSale(sale.id);
      if (error.fieldErrors.senha_atendente) depsRef.current.onPasswordRejected();
      setPhase({ name: 'failed', error });
      return { done: true, error };
    },
    [depsRef],
  );

  /** Shows what the journal says; done when the posting is settled. */
  const apply = useCallback(
    (sale: PendingSale, l: Lancamento): Outcome => {
      switch (l.estado) {
        case 'lançado':
          clearPendingSale(sale.id);
          void settle(postedFrom(sale, l), sale.before);
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
    },
    [settle, refused, showKept],
  );

  /**
   * Sends the sale (`send`) and/or follows it until the journal settles it, holding the
   * sale's lock. Never sends a second sale: only this sale's id, which the server posts once.
   */
  const run = useCallback(
    async (sale: PendingSale, send: boolean): Promise<ApiError | null> => {
      following.current?.abort();
      const ac = new AbortController();
      following.current = ac;
      inFlight.current = true;
      try {
        return await withSaleLock(sale.id, ac.signal, async () => {
          let mustSend = send;
          let sentHere = false;
          let notFound = 0;
          while (!ac.signal.aborted) {
            if (mustSend) {
              mustSend = false;
              sentHere = true;
              setPhase({ name: 'sending' });
              try {
                const answer = await postPoints(sale.body, sale.id, { signal: ac.signal });
                if (answer.kind === 'posted') {
                  clearPendingSale(sale.id);
                  void settle(postedFromResult(sale, answer.result), sale.before);
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
              if (l.estado === 'desconhecido') await sleep(UNKNOWN_POLL_MS, ac.signal);
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
                  await sleep(NOT_FOUND_CONFIRM_MS, ac.signal);
                  continue;
                }
                unsent.current = sale;
                setPhase({ name: 'not-posted', reason: postingMessages.neverArrived });
                return null;
              }
              setPhase({ name: 'verify-failed', error });
              await sleep(UNREACHABLE_RETRY_MS, ac.signal);
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
    },
    [apply, settle, refused],
  );

  /** Sends the posting once. Returns the error when it was refused, for the form to show. */
  const post = useCallback(
    async (body: PostPointsBody, before: Snapshot): Promise<ApiError | null> => {
      if (inFlight.current || landed.current) return null;
      inFlight.current = true;
      // The same sale again after it never reached the server keeps its id: if it did arrive
      // after all, the server answers that posting instead of making a second one.
      const again = unsent.current;
      unsent.current = null;
      const sale: PendingSale =
        again && JSON.stringify(again.body) === JSON.stringify(body)
          ? again
          : { id: crypto.randomUUID(), body, before, at: Date.now() };
      savePendingSale(sale);
      return run(sale, true);
    },
    [run],
  );

  /** Asks the server again now (after it could not be reached). */
  const verify = useCallback(async () => {
    const sale = loadPendingSale();
    if (sale) await run(sale, false);
  }, [run]);

  // A sale left pending by a reload (or a crash of the tab): follow it to its result.
  useEffect(() => {
    const sale = loadPendingSale();
    if (sale && !landed.current) void run(sale, false);
    return () => {
      following.current?.abort();
      keptFollow.current?.abort();
    };
  }, [run]);

  const reset = useCallback(() => {
    if (loadPendingSale() !== null && !landed.current) return; // a sale still in the balance
    keptFollow.current?.abort();
    keptFollow.current = null;
    unsent.current = null;
    landed.current = false;
    setPhase({ name: 'editing' });
  }, []);

  const locked = postingBusy(phase) || phase.name === 'posted' || phase.name === 'kept';

  return { phase, post, verify, reset, locked };
}

function postedFromResult(sale: PendingSale, result: PointsResult): Posted {
  return {
    saleId: sale.id,
    id_cliente: result.id_cliente,
    id_ponto: result.id_ponto,
    saldo_atual: result.saldo_atual,
    saldo_carencia: result.saldo_carencia,
    valor: sale.body.valor_gasto,
    at: new Date(),
    verified: false,
    rewards: { state: 'checking' },
  };
}
