// The posting flow of one sale: send once, never twice; on a lost answer, find out what
// happened before offering to post again.
import { useCallback, useRef, useState } from 'react';
import { useLatest } from '@/hooks/use-latest';
import type { Customer, PointsResult } from '@/api/schemas';
import type { PostPointsBody } from '@/api/requests';
import { REWARD_CATEGORIES } from '@/api/wire';
import { ApiError, isApiError } from '@/api/errors';
import { usePostPoints } from '@/features/points/api/post-points';

/** What the counter knew of the customer just before posting (null: not registered yet). */
export type Snapshot = {
  id_cliente: number;
  compras: number;
  ultima_compra: string | null;
  won: number;
} | null;

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

/** Did a posting land, judging by the customer as re-read after an unknown outcome? */
export function postingLanded(before: Snapshot, after: Customer | null): boolean {
  if (!after) return false;
  if (!before) return after.compras > 0;
  return after.compras > before.compras || (after.ultima_compra ?? null) !== before.ultima_compra;
}

export type Posted = {
  id_cliente: number;
  id_ponto: number | null;
  saldo_atual: number;
  saldo_carencia: number;
  valor: number;
  at: Date;
  /** true when the result was established by re-reading the customer after a lost answer. */
  verified: boolean;
  rewards:
    | { state: 'checking' }
    | { state: 'done'; count: number; names: string[] }
    | { state: 'unknown' };
};

export type Phase =
  | { name: 'editing' }
  | { name: 'sending' }
  | { name: 'failed'; error: ApiError }
  | { name: 'verifying' }
  | { name: 'verify-failed'; error: ApiError }
  | { name: 'not-posted' }
  | { name: 'posted'; posted: Posted };

export type PostingDeps = {
  /** A fresh read (never from cache) of the sale's customer. */
  reread: (target: RereadTarget) => Promise<Customer | null>;
  /** Names of the customer's newest `count` rewards. */
  newestRewardNames: (id_cliente: number, count: number) => Promise<string[]>;
  /** The service refused the attendant password. */
  onPasswordRejected: () => void;
  /** The posting is known to have landed (answered, or found by re-reading). */
  onPosted?: (posted: Posted) => void;
};

/** Anything thrown that is not an ApiError is a surprise: treat it as an unreadable answer. */
const asApiError = (e: unknown): ApiError =>
  isApiError(e) ? e : new ApiError({ kind: 'contract', cause: e });

export function usePosting(deps: PostingDeps) {
  const mutation = usePostPoints();
  const [phase, setPhase] = useState<Phase>({ name: 'editing' });
  // A ref, not state: a second click or a repeated Enter arrives before React re-renders.
  const inFlight = useRef(false);
  // Set once the posting is known to have landed: nothing is sent again until reset(), even
  // by a click that arrives after the answer but before React renders the "posted" phase.
  const landed = useRef(false);
  const pending = useRef<{ body: PostPointsBody; before: Snapshot } | null>(null);
  const depsRef = useLatest(deps);

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

  /** Re-reads the customer after posting to tell whether a reward was won. */
  const settle = useCallback(
    async (posted: Posted, before: Snapshot, knownAfter?: Customer | null) => {
      landed.current = true;
      setPhase({ name: 'posted', posted });
      depsRef.current.onPosted?.(posted);
      let after = knownAfter;
      if (after === undefined) {
        try {
          after = await depsRef.current.reread({ id_cliente: posted.id_cliente });
        } catch {
          after = null;
        }
      }
      const rewards = await findRewards(before, after, posted);
      setPhase((p) =>
        p.name === 'posted' && p.posted === posted
          ? { name: 'posted', posted: { ...posted, rewards } }
          : p,
      );
    },
    [findRewards, depsRef],
  );

  const verify = useCallback(async () => {
    const job = pending.current;
    if (!job || inFlight.current) return;
    inFlight.current = true;
    setPhase({ name: 'verifying' });
    try {
      const target: RereadTarget = job.before
        ? { id_cliente: job.before.id_cliente }
        : { celular: job.body.cliente.celular };
      const after = await depsRef.current.reread(target);
      if (postingLanded(job.before, after) && after) {
        pending.current = null;
        void settle(
          {
            id_cliente: after.id_cliente,
            id_ponto: null,
            saldo_atual: after.carteira.saldo,
            saldo_carencia: after.carteira.saldo_carencia,
            valor: job.body.valor_gasto,
            at: new Date(),
            verified: true,
            rewards: { state: 'checking' },
          },
          job.before,
          after,
        );
      } else {
        setPhase({ name: 'not-posted' });
      }
    } catch (e) {
      setPhase({ name: 'verify-failed', error: asApiError(e) });
    } finally {
      inFlight.current = false;
    }
  }, [settle, depsRef]);

  /** Sends the posting once. Returns the error when it was refused, for the form to show. */
  const post = useCallback(
    async (body: PostPointsBody, before: Snapshot): Promise<ApiError | null> => {
      if (inFlight.current || landed.current) return null;
      inFlight.current = true;
      pending.current = { body, before };
      setPhase({ name: 'sending' });
      try {
        const result: PointsResult = await mutation.mutateAsync(body);
        pending.current = null;
        inFlight.current = false;
        void settle(
          {
            ...result,
            valor: body.valor_gasto,
            at: new Date(),
            verified: false,
            rewards: { state: 'checking' },
          },
          before,
        );
        return null;
      } catch (e) {
        inFlight.current = false;
        const error = asApiError(e);
        if (error.requestMayHaveReached) {
          // The request may have been applied: never resend by itself. Find out first.
          void verify();
          return null;
        }
        pending.current = null;
        if (error.fieldErrors.senha_atendente) depsRef.current.onPasswordRejected();
        setPhase({ name: 'failed', error });
        return error;
      }
    },
    [mutation, settle, verify, depsRef],
  );

  const reset = useCallback(() => {
    pending.current = null;
    inFlight.current = false;
    landed.current = false;
    setPhase({ name: 'editing' });
  }, []);

  /** While true, the post button must not send. */
  const locked =
    phase.name === 'sending' ||
    phase.name === 'verifying' ||
    phase.name === 'verify-failed' ||
    phase.name === 'posted';

  return { phase, post, verify, reset, locked };
}
