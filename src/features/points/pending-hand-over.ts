// The reward being handed over, kept in this tab's sessionStorage with its id before its
// request leaves, like a sale (pending-sale.ts): a reload finds it and follows it to its result
// instead of handing the reward over a second time. The attendant password is not kept (it
// lives in memory only): a hand-over found never to have reached the server is sent again, with
// its same id, only when the cashier asks. Read at the counter's start, so kept small.
import type { RewardRecord } from '@/api/schemas';
import { storage } from '@/features/points/pending-sale';
import {
  HAND_OVER_UNSUPPORTED_KEY as UNSUPPORTED_KEY,
  PENDING_HAND_OVER_KEY as STORAGE_KEY,
} from '@/features/points/hand-over-keys';

/** Who gets which reward (what the confirmation, the result and the slip say). */
export type HandOverTarget = {
  customer: { id_cliente: number; nome: string | null; celular: string };
  reward: Pick<
    RewardRecord,
    'id_premio' | 'id_premio_cliente' | 'nome' | 'categoria_premio' | 'valido_ate'
  >;
};

/** What the hand-over needs of a reward and its customer. */
export function handOverTarget(
  customer: HandOverTarget['customer'],
  r: HandOverTarget['reward'],
): HandOverTarget {
  return {
    customer: { id_cliente: customer.id_cliente, nome: customer.nome, celular: customer.celular },
    reward: {
      id_premio: r.id_premio,
      id_premio_cliente: r.id_premio_cliente,
      nome: r.nome,
      categoria_premio: r.categoria_premio,
      valido_ate: r.valido_ate,
    },
  };
}

export type PendingHandOver = {
  /** The hand-over's id: a UUID, its Idempotency-Key. */
  id: string;
  target: HandOverTarget;
  /** When the cashier confirmed it (epoch ms). */
  at: number;
  /**
   * Known not to have reached our server: not followed after a reload, and handing the same
   * reward over again reuses its id (should it have arrived after all, it is that one).
   */
  unsent?: boolean;
};

export function savePendingHandOver(h: PendingHandOver): boolean {
  try {
    storage()?.setItem(STORAGE_KEY, JSON.stringify(h));
    return true;
  } catch {
    return false;
  }
}

export function loadPendingHandOver(): PendingHandOver | null {
  const text = storage()?.getItem(STORAGE_KEY);
  if (!text) return null;
  try {
    const h = JSON.parse(text) as PendingHandOver;
    return typeof h?.id === 'string' && typeof h.target?.reward?.id_premio === 'number' ? h : null;
  } catch {
    return null;
  }
}

/** Forgets the hand-over once its result is known (only if it is still this one). */
export function clearPendingHandOver(id: string): void {
  if (loadPendingHandOver()?.id === id) storage()?.removeItem(STORAGE_KEY);
}

/** A hand-over to follow after a reload: kept, and not known to have never arrived. */
export function resumableHandOver(): PendingHandOver | null {
  const h = loadPendingHandOver();
  return h && !h.unsent ? h : null;
}

export function markHandOverUnsupported(): void {
  try {
    storage()?.setItem(UNSUPPORTED_KEY, '1');
  } catch {
    // storage disabled: hidden for this page's life only
  }
}
