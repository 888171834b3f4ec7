/**
 * Who the PDV is: its bearer token names an active `integracao` terminal (only the token's
 * hash is stored; a revoked terminal's token names nothing), and its own request rate.
 */
import { hitRate, inStoreScope, integrationByToken } from '../../../store';
import type { Store, StoreScope, Terminal } from '../../../store';

/** Default RATE_LIMIT_INTEGRACAO: a PDV rings up far fewer sales than this. */
export const PDV_RATE_DEFAULT = { limit: 120, windowMs: 10_000 };

/** The integration terminal of an `Authorization` header's bearer token, or null. */
export async function identifyPdv(
  store: Store,
  authorization: string | undefined,
  /** A chain's store: only its PDVs (absent: any). */
  scope?: StoreScope | null,
) {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (m === null) return null;
  const pdv = await integrationByToken(store, m[1]!);
  if (pdv === null) return null;
  return inStoreScope(scope, pdv.establishmentId) ? pdv : null;
}

/** Counts one request of the PDV against its own limit. */
export function countPdvRequest(
  store: Store,
  pdv: Terminal,
  rate: { limit: number; windowMs: number },
) {
  return hitRate(store, [{ key: `integracao:${pdv.id}`, ...rate }]);
}
