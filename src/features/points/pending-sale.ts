// The sale being posted, kept in this tab's sessionStorage before its request leaves: a reload
// finds it and follows it to its result instead of losing it (and the cashier typing it again).
// Tabs of one browser coordinate through a Web Lock named after the sale id: only the tab
// holding it sends or follows that sale, so two tabs (a duplicated tab copies sessionStorage)
// never post one sale at once, and each tab's result is that of its own sale id.
import type { PostPointsBody } from '@/api/requests';

const STORAGE_KEY = 'pdv:venda-pendente';

export type PendingSale = {
  /** The sale id: a UUID, the posting's Idempotency-Key. */
  id: string;
  body: PostPointsBody;
  /** What the counter knew of the customer before posting (for the rewards won). */
  before: { id_cliente: number; compras: number; ultima_compra: string | null; won: number } | null;
  /** When the cashier confirmed it (epoch ms). */
  at: number;
  /** A PDV sale posted through the counter's PDV route: the server's id of that sale. */
  pdv?: string;
};

/** This tab's sessionStorage; null where storage is disabled. */
export function storage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null; // storage disabled
  }
}

/** Keeps the sale before it is sent. False when it could not be kept (still sendable). */
export function savePendingSale(sale: PendingSale): boolean {
  try {
    storage()?.setItem(STORAGE_KEY, JSON.stringify(sale));
    return true;
  } catch {
    return false;
  }
}

export function loadPendingSale(): PendingSale | null {
  const text = storage()?.getItem(STORAGE_KEY);
  if (!text) return null;
  try {
    const sale = JSON.parse(text) as PendingSale;
    if (typeof sale?.id !== 'string' || typeof sale.body !== 'object' || sale.body === null) {
      return null;
    }
    return sale;
  } catch {
    return null;
  }
}

/** Forgets the sale once its result is known (only if it is still this one). */
export function clearPendingSale(id: string): void {
  const s = storage();
  if (loadPendingSale()?.id === id) s?.removeItem(STORAGE_KEY);
}

/**
 * Runs `fn` holding the sale's lock across this browser's tabs (Web Locks), waiting while
 * another tab holds it. Without Web Locks (old browsers, some test environments) it just runs:
 * the server's journal still makes one sale id one posting.
 */
export function withSaleLock<T>(id: string, signal: AbortSignal, fn: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (!locks) return fn();
  return locks.request(`pdv-venda:${id}`, { signal }, fn) as Promise<T>;
}
