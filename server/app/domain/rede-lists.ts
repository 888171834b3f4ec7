/**
 * The chain's lists across its stores (the `rede` role's "Todas as lojas",
 * docs/operations/chain.md): the audit trail and Vigilância's alerts that the app's own shared
 * database holds, read in one query over the establishment ids of the stores served now, newest
 * first and paged by the database as one store's list is (the same page sizes and export
 * limits). Each item names its store (`loja`). An export is recorded in the audit trail of
 * every store whose rows it carried, as that store's own export would be.
 */
import type { AuditEntry as AuditEntryWire, AuditFilters } from '#contract/api/auditoria';
import { AUDIT_EXPORT_LIMIT, AUDIT_PAGE_SIZE } from '#contract/api/auditoria';
import type { AlertPage, AlertQuery, AlertWire } from '#contract/api/vigilancia';
import type * as z from 'zod/mini';
import { createAlertsStore, listTerminals, readAudit } from '../../store';
import type { Store } from '../../store';
import { alertExport, alertPage, type ViewDeps } from './vigilancia/view';
import { auditEntryWire, auditPeriod, createAuditTrail, type Actor } from './audit';

export interface ChainListsDeps {
  store: Store;
  /** The stores served now (ids). */
  storeIds: () => Promise<readonly number[]>;
  /** The default store (its trail also holds the entries naming none, from before the chain). */
  defaultId: number;
}

type Entry = z.input<typeof AuditEntryWire>;

async function auditRead(
  deps: ChainListsDeps,
  f: Omit<AuditFilters, 'pagina'>,
  page: number,
  limit: number,
) {
  const ids = await deps.storeIds();
  const found = await readAudit(deps.store, {
    ...auditPeriod(f),
    action: f.acao,
    terminalId: f.terminal,
    store: { establishmentIds: ids, orUnnamed: ids.includes(deps.defaultId) },
    offset: (page - 1) * limit,
    limit,
  });
  const itens: Entry[] = found.entries.map((e) => ({
    ...auditEntryWire(e),
    loja: e.establishmentId ?? deps.defaultId,
  }));
  return { ids, itens, total: found.total };
}

/** A page of every store's trail, each entry with its store, and the stores' terminals. */
export async function chainAuditPage(deps: ChainListsDeps, f: AuditFilters) {
  const pagina = f.pagina ?? 1;
  const [{ ids, itens, total }, terminals] = await Promise.all([
    auditRead(deps, f, pagina, AUDIT_PAGE_SIZE),
    listTerminals(deps.store),
  ]);
  const served = new Set(ids);
  return {
    itens,
    pagina,
    paginas: Math.max(1, Math.ceil(total / AUDIT_PAGE_SIZE)),
    total,
    por_pagina: AUDIT_PAGE_SIZE,
    terminais: terminals
      .filter((t) => served.has(t.establishmentId ?? deps.defaultId))
      .map((t) => ({ id: t.id, nome: t.name })),
  };
}

/** Every store's entries of the filters for the CSV, or `too-many` past the export's limit. */
export async function chainAuditExport(deps: ChainListsDeps, f: Omit<AuditFilters, 'pagina'>) {
  const { itens, total } = await auditRead(deps, f, 1, AUDIT_EXPORT_LIMIT + 1);
  if (total > AUDIT_EXPORT_LIMIT) return { kind: 'too-many' as const, total };
  return { kind: 'ok' as const, itens, total };
}

/** The alert views of the chain: every served store's alerts, terminals named across them. */
function chainView(deps: ChainListsDeps): ViewDeps {
  return {
    alerts: createAlertsStore(deps.store),
    establishmentId: deps.defaultId,
    terminalNames: async () =>
      new Map((await listTerminals(deps.store)).map((t) => [String(t.id), t.name])),
  };
}

/** A page of every store's alerts (each names its store), the open ones counted across them. */
export async function chainAlertPage(deps: ChainListsDeps, q: AlertQuery): Promise<AlertPage> {
  const ids = await deps.storeIds();
  return alertPage(chainView(deps), q, ids);
}

/** Every store's alerts of the filters for the CSV, or `too-many`. */
export async function chainAlertExport(
  deps: ChainListsDeps,
  q: AlertQuery,
): Promise<
  { kind: 'ok'; itens: AlertWire[]; total: number } | { kind: 'too-many'; total: number }
> {
  const ids = await deps.storeIds();
  return alertExport(chainView(deps), q, ids);
}

/**
 * Records an export of the chain's rows in the trail of each store they came from (its rows
 * counted), naming the terminal that exported: the same entry as that store's own export.
 */
export async function recordChainExport(
  deps: ChainListsDeps,
  actor: Actor,
  tipo: string,
  filtros: Record<string, string>,
  lojas: readonly (number | undefined)[],
): Promise<void> {
  const rows = new Map<number, number>();
  // Nothing exported still leaves its trace, in the default store's trail.
  if (lojas.length === 0) rows.set(deps.defaultId, 0);
  for (const loja of lojas) {
    const id = loja ?? deps.defaultId;
    rows.set(id, (rows.get(id) ?? 0) + 1);
  }
  for (const [id, linhas] of rows) {
    const trail = createAuditTrail({
      store: deps.store,
      establishmentId: id,
      defaultId: deps.defaultId,
    });
    await trail.recordOrThrow(actor, 'exportacao', { tipo, filtros, linhas, lojas: 'todas' });
  }
}
