// The types of a sale's posting that the hook (use-posting.ts), its flow (posting-flow.ts) and
// the counter's panels share: what the counter shows (Phase) and what the flow needs from the
// counter (PostingDeps). A module of their own, so the hook and the flow import each other's
// types through it instead of in a circle.
import type { Dispatch, RefObject, SetStateAction } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import type { Customer, RewardRecord } from '@/api/schemas';
import type { ApiError } from '@/api/errors';
import type { Kept } from '@/features/points/kept';
import type { PendingSale } from '@/features/points/pending-sale';

/** What the counter knew of the customer just before posting (null: not registered yet). */
export type Snapshot = PendingSale['before'];

/** Who to re-read: the customer's id when known, else the phone sent for a new customer. */
export type RereadTarget = { id_cliente: number } | { celular: string };

export type Posted = {
  /** The sale id (Idempotency-Key). */
  saleId: string;
  id_cliente: number;
  id_ponto: number | null;
  saldo_atual: number;
  saldo_carencia: number;
  valor: number;
  /** The points this purchase earned, as the journal tells (null while unknown). */
  pontos: number | null;
  at: Date;
  /** true when the result was learned from the server's journal after the answer was lost. */
  verified: boolean;
  rewards:
    | { state: 'checking' }
    | { state: 'done'; count: number; names: string[]; records: RewardRecord[] }
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
  | { name: 'unknown'; reason: string | null; stopped?: true }
  /**
   * Our own server cannot be reached to learn the result; retried by itself until `stopped`
   * (too many follow-ups in a row: the cashier asks again).
   */
  | { name: 'verify-failed'; error: ApiError; stopped?: true }
  | { name: 'not-posted'; reason: string | null }
  | { name: 'posted'; posted: Posted };

export type PostingDeps = {
  /**
   * The counter's one refresh of the sale's customer after the answer: a fresh read (never
   * from cache), written into the counter's cache (its panel redraws from it).
   */
  reread: (target: RereadTarget) => Promise<Customer | null>;
  /** The service refused the attendant password. */
  onPasswordRejected: () => void;
  /** The posting is known to have landed (answered, or learned from the journal). */
  onPosted?: (posted: Posted) => void;
};

/** What the flow works on: the hook's state setter and refs. */
export type FlowContext = {
  qc: QueryClient;
  setPhase: Dispatch<SetStateAction<Phase>>;
  deps: RefObject<PostingDeps>;
  /** A request of this hook is being sent or followed. */
  inFlight: RefObject<boolean>;
  /** The posting is known to have landed: nothing is sent again until reset. */
  landed: RefObject<boolean>;
  /**
   * The sale whose result is on screen, until the next customer (reset): what finishes after
   * that (the customer's refresh) leaves the next customer's screen alone.
   */
  shown: RefObject<string | null>;
  /** A sale that never reached the server: posting the same body again reuses its id. */
  unsent: RefObject<PendingSale | null>;
  following: RefObject<AbortController | null>;
  /** The follower of the kept sale on screen (until it settles or the next customer). */
  keptFollow: RefObject<AbortController | null>;
};
