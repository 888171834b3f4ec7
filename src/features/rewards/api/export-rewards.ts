// Every record matching the filters, page by page at the largest page size the service
// allows, for the CSV export. Stops (AbortError) as soon as the signal aborts.
import type { RewardFilters } from '@/api/requests';
import type { RewardRecord } from '@/api/schemas';
import { listRewards } from './list-rewards';

/** The most records one export fetches; beyond it the manager narrows the filters. */
export const EXPORT_LIMIT = 10_000;
/** The service's largest `itens_por_pagina`. */
export const EXPORT_PAGE_SIZE = 100;

export class TooManyToExport extends Error {
  constructor(readonly total: number) {
    super(`${total} records match; an export takes up to ${EXPORT_LIMIT}.`);
    this.name = 'TooManyToExport';
  }
}

export interface ExportProgress {
  loaded: number;
  total: number;
}

/**
 * All records under `filters` (page and page size ignored), in the service's order. Pages
 * are read one after the other; a reward won meanwhile pushes the list down by one, so a
 * record seen on the previous page may come again: it is kept once.
 */
export async function fetchAllRewards(
  filters: RewardFilters,
  options: { signal?: AbortSignal; onProgress?: (p: ExportProgress) => void } = {},
): Promise<RewardRecord[]> {
  const { page: _page, ...rest } = filters;
  const base = { ...rest, itens_por_pagina: EXPORT_PAGE_SIZE };
  const records: RewardRecord[] = [];
  const seen = new Set<number>();
  let total = 0;
  for (let page = 1; ; page++) {
    const result = await listRewards({ ...base, page }, { signal: options.signal });
    if (page === 1) {
      total = result.total;
      if (total > EXPORT_LIMIT) throw new TooManyToExport(total);
    }
    for (const r of result.data) {
      if (seen.has(r.id_premio_cliente)) continue;
      seen.add(r.id_premio_cliente);
      records.push(r);
    }
    options.onProgress?.({ loaded: Math.min(records.length, total), total });
    if (page >= result.last_page || result.data.length === 0) break;
  }
  return records;
}
