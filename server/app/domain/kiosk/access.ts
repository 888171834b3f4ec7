/**
 * Who may use which kiosk endpoint, the active kiosks a counter may send a sale to, and a
 * kiosk's phone-lookup limit. Small functions over the store until `domain/access/` owns the
 * terminals and limits for every area.
 */
import { hitRate, listTerminals } from '../../../store';
import type { Role } from '../../../store';
import type { KioskDeps } from './deps';

/** The kiosk's own screen (a `gerente` may try it). */
export const KIOSK_ROLES: readonly Role[] = ['quiosque', 'gerente'];
/** Who stages sales for a kiosk and follows them. */
export const COUNTER_ROLES: readonly Role[] = ['caixa', 'gerente'];

export interface ActiveKiosk {
  id: number;
  nome: string;
}

/** The enrolled kiosks that are active. */
export async function activeKiosks(
  deps: Pick<KioskDeps, 'store' | 'scope'>,
): Promise<ActiveKiosk[]> {
  return (await listTerminals(deps.store, deps.scope))
    .filter((t) => t.role === 'quiosque' && t.status === 'ativo')
    .map((t) => ({ id: t.id, nome: t.name }));
}

/** The active kiosk with this id, or null. */
export async function activeKiosk(
  deps: Pick<KioskDeps, 'store' | 'scope'>,
  id: number,
): Promise<ActiveKiosk | null> {
  return (await activeKiosks(deps)).find((k) => k.id === id) ?? null;
}

export type LookupVerdict = { allowed: true } | { allowed: false; retryAfterMs: number };

/**
 * A kiosk's phone lookups (balance, registration) are few per minute, counted per terminal
 * in the store (shared by replicas): a kiosk cannot be used to enumerate customers. Only a
 * well-formed phone is counted (the caller validates before asking).
 */
export async function countLookup(
  deps: Pick<KioskDeps, 'store' | 'limits' | 'logger'>,
  terminalId: number,
): Promise<LookupVerdict> {
  const rate = await hitRate(deps.store, [
    { key: `quiosque-consulta:${terminalId}`, ...deps.limits.kioskLookup },
  ]);
  if (rate.allowed) return { allowed: true };
  deps.logger?.warn({ terminal: terminalId }, 'kiosk phone lookups over the limit');
  return { allowed: false, retryAfterMs: rate.retryAfterMs };
}
