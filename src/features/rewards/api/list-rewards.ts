// recompensas: the manager's paginated list of rewards won, filtered.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiRequest } from '@/api/client';
import { normalizeRewardFilters, rewardKeys } from '@/api/keys';
import { RewardPage } from '@/api/schemas';
import type { RewardFilters } from '@/api/requests';

export async function listRewards(
  filters: RewardFilters,
  options: { signal?: AbortSignal; headers?: Record<string, string> } = {},
): Promise<RewardPage> {
  return apiRequest({
    method: 'GET',
    path: '/recompensas',
    query: normalizeRewardFilters(filters), // only the set filters reach the query string
    schema: RewardPage,
    signal: options.signal,
    headers: options.headers,
  });
}

export const rewardsQuery = (filters: RewardFilters) =>
  queryOptions({
    queryKey: rewardKeys.list(filters),
    queryFn: ({ signal }) => listRewards(filters, { signal }),
    placeholderData: keepPreviousData,
  });
