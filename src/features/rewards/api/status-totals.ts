// Totals per status for the current filters other than status. The service has no aggregate
// operation: each total is the `total` of a one-record page of the same list with that status,
// requested with the list and through the same query options (same key factory, same signal),
// so leaving the filters or the screen cancels them with the list.
import { useQueries } from '@tanstack/react-query';
import type { RewardFilters } from '@/api/requests';
import type { RewardStatus } from '#contract/wire';
import { rewardsQuery } from './list-rewards';

/** The one-record page whose `total` is the count of `status` under `filters`. */
export function statusTotalFilters(filters: RewardFilters, status: RewardStatus): RewardFilters {
  const { page: _page, status: _status, ...rest } = filters;
  return { ...rest, status, itens_por_pagina: 1 };
}

export const statusTotalQuery = (filters: RewardFilters, status: RewardStatus) => ({
  ...rewardsQuery(statusTotalFilters(filters, status)),
  select: (page: { total: number }) => page.total,
});

export interface StatusTotals {
  /** Per status; undefined while unknown (loading or failed). */
  totals: Partial<Record<RewardStatus, number>>;
  /** A previous filter's totals are on screen while the new ones load. */
  stale: boolean;
  pending: boolean;
  failed: boolean;
}

/** `started`: how many of `statuses`, from the first, may request their total yet. */
export function useStatusTotals(
  filters: RewardFilters,
  statuses: readonly RewardStatus[],
  started: number,
): StatusTotals {
  return useQueries({
    queries: statuses.map((status, i) => ({
      ...statusTotalQuery(filters, status),
      enabled: i < started,
    })),
    combine: (results) => {
      const totals: Partial<Record<RewardStatus, number>> = {};
      results.forEach((r, i) => {
        if (r.data !== undefined) totals[statuses[i]!] = r.data;
      });
      return {
        totals,
        stale: results.some((r) => r.isPlaceholderData),
        pending: results.some((r) => r.isPending),
        failed: results.some((r) => r.isError),
      };
    },
  });
}
