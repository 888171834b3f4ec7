/** A terminal as the store answers it, its row and columns, and one chain store's scope. */
import type { Store } from '../store';
import type { Role } from '../schema';

export interface Terminal {
  id: number;
  name: string;
  role: Role;
  createdAt: number;
  enrolledAt: number | null;
  revokedAt: number | null;
  lastSeenAt: number | null;
  /** `integracao`: the counter terminal it rings up for. */
  counterId: number | null;
  /** The store (establishment) it belongs to; null: the default store (rows from before). */
  establishmentId: number | null;
}

export type TerminalStatus = 'aguardando código' | 'código expirado' | 'ativo' | 'revogado';

export interface ListedTerminal extends Terminal {
  status: TerminalStatus;
  /** Expiry of the newest unused code, when the terminal is still waiting for it. */
  codeExpiresAt: number | null;
}

/**
 * One store of a chain as the store reads it: its establishment's rows and, for the default
 * store, the rows naming none (written before the chain, or by a tool that named no store).
 */
export interface StoreScope {
  establishmentId: number;
  orUnnamed: boolean;
}

/** Whether a row's establishment is within `scope` (always, with no scope). */
export function inStoreScope(
  scope: StoreScope | null | undefined,
  establishmentId: number | null,
): boolean {
  return (
    scope === null ||
    scope === undefined ||
    establishmentId === scope.establishmentId ||
    (scope.orUnnamed && establishmentId === null)
  );
}

/** The ids of the terminals of `scope`'s store: a subquery for `terminal_id in (…)`. */
export function storeTerminalIds(db: Store['db'], scope: StoreScope) {
  return db
    .selectFrom('terminals')
    .select('terminals.id')
    .where((eb) =>
      scope.orUnnamed
        ? eb.or([
            eb('terminals.establishment_id', '=', scope.establishmentId),
            eb('terminals.establishment_id', 'is', null),
          ])
        : eb('terminals.establishment_id', '=', scope.establishmentId),
    );
}

export type Row = {
  id: number;
  name: string;
  role: Role;
  created_at: number;
  enrolled_at: number | null;
  revoked_at: number | null;
  last_seen_at: number | null;
  counter_id: number | null;
  establishment_id: number | null;
};

export function toTerminal(r: Row): Terminal {
  return {
    id: r.id,
    name: r.name,
    role: r.role,
    createdAt: r.created_at,
    enrolledAt: r.enrolled_at,
    revokedAt: r.revoked_at,
    lastSeenAt: r.last_seen_at,
    counterId: r.counter_id,
    establishmentId: r.establishment_id === null ? null : Number(r.establishment_id),
  };
}

export const COLUMNS = [
  'id',
  'name',
  'role',
  'created_at',
  'enrolled_at',
  'revoked_at',
  'last_seen_at',
  'counter_id',
  'establishment_id',
] as const;

/** `COLUMNS` named with their table, for a query that joins `terminals` with another. */
export const TERMINAL_COLUMNS = COLUMNS.map((c) => `terminals.${c}` as const);
