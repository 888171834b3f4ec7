/**
 * The audit trail's table (`audit_log`, migration 0007): append-only. This module is the only
 * code that touches it, and it offers three things: insert an entry, read a filtered page,
 * and purge what is past the retention. There is no function that changes or deletes an
 * entry, and the store itself refuses it (triggers on both engines: any UPDATE, any DELETE of
 * a row not older than `audit_purge.cutoff`, and on PostgreSQL TRUNCATE). The cutoff is set
 * only inside `purgeAudit`'s own transaction and cleared before it commits, so no other
 * statement, in this process or another replica, ever sees it set.
 */
import type { Store } from './store';

export interface AuditEntryInput {
  at: number;
  terminalId: number | null;
  terminalName: string | null;
  role: string | null;
  action: string;
  /** Already masked by the caller (domain/audit.ts): written as JSON. */
  details: Record<string, unknown>;
  requestId: string | null;
  /** The store it belongs to (null: the default store's, as entries from before the chain). */
  establishmentId?: number | null;
}

export interface AuditEntry extends AuditEntryInput {
  id: number;
}

export interface AuditFilter {
  /** [from, to): epoch ms; null: unbounded. */
  from: number | null;
  to: number | null;
  action: string | null;
  terminalId: number | null;
  /**
   * Only this store's entries, or these stores' (and, `orUnnamed`, those naming none: the
   * default store's from before the chain); undefined: every store's.
   */
  store?:
    | { establishmentId: number; orUnnamed: boolean }
    | { establishmentIds: readonly number[]; orUnnamed: boolean };
  /** Rows to skip and to take (newest first). */
  offset: number;
  limit: number;
}

export async function insertAudit(store: Store, entry: AuditEntryInput): Promise<number> {
  const row = await store.db
    .insertInto('audit_log')
    .values({
      at: entry.at,
      terminal_id: entry.terminalId,
      terminal_name: entry.terminalName,
      role: entry.role,
      action: entry.action,
      details: JSON.stringify(entry.details),
      request_id: entry.requestId,
      establishment_id: entry.establishmentId ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** A page of the entries matching `filter`, newest first, and how many match in all. */
export async function readAudit(
  store: Store,
  filter: AuditFilter,
): Promise<{ entries: AuditEntry[]; total: number }> {
  let q = store.db.selectFrom('audit_log');
  if (filter.from !== null) q = q.where('at', '>=', filter.from);
  if (filter.to !== null) q = q.where('at', '<', filter.to);
  if (filter.action !== null) q = q.where('action', '=', filter.action);
  if (filter.terminalId !== null) q = q.where('terminal_id', '=', filter.terminalId);
  const scope = filter.store;
  if (scope !== undefined) {
    const ids = 'establishmentIds' in scope ? [...scope.establishmentIds] : [scope.establishmentId];
    if (ids.length === 0 && !scope.orUnnamed) return { entries: [], total: 0 };
    q = q.where((eb) => {
      const named =
        ids.length === 1
          ? eb('establishment_id', '=', ids[0]!)
          : eb('establishment_id', 'in', ids.length === 0 ? [-1] : ids);
      return scope.orUnnamed ? eb.or([named, eb('establishment_id', 'is', null)]) : named;
    });
  }
  const [rows, count] = await Promise.all([
    q
      .selectAll()
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(filter.limit)
      .offset(filter.offset)
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    total: Number(count.n),
    entries: rows.map((r) => ({
      id: Number(r.id),
      at: Number(r.at),
      terminalId: r.terminal_id === null ? null : Number(r.terminal_id),
      terminalName: r.terminal_name,
      role: r.role,
      action: r.action,
      details: parseDetails(r.details),
      requestId: r.request_id,
      establishmentId: r.establishment_id === null ? null : Number(r.establishment_id),
    })),
  };
}

function parseDetails(text: string): Record<string, unknown> {
  try {
    const v = JSON.parse(text) as unknown;
    return v !== null && typeof v === 'object' && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/**
 * Deletes the entries older than `cutoff` (epoch ms): the one delete the store allows, in one
 * transaction that opens the guard for rows older than the cutoff and closes it again.
 */
export async function purgeAudit(store: Store, cutoff: number): Promise<number> {
  return store.transaction(async (trx) => {
    await trx.updateTable('audit_purge').set({ cutoff }).where('id', '=', 1).execute();
    const result = await trx.deleteFrom('audit_log').where('at', '<', cutoff).executeTakeFirst();
    await trx.updateTable('audit_purge').set({ cutoff: null }).where('id', '=', 1).execute();
    return Number(result.numDeletedRows);
  });
}
