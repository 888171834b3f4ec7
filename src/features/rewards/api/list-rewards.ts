// recompensas: the manager's paginated list of rewards won, filtered.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiRequest, serverRequest } from '@/api/client';
import { normalizeRewardFilters, rewardKeys } from '@/api/keys';
import { RewardPage } from '@/api/schemas';
import type { RewardFilters } from '@/api/requests';

export async function listRewards(
  filters: RewardFilters,
  options: { signal?: AbortSignal; headers?: Record<string, string> } = {},
): Promise<RewardPage> {
  const { loja, ...rest } = filters;
  const query = normalizeRewardFilters(rest); // only the set filters reach the query string
  if (loja !== undefined) {
    // A chain's store (a rede): its establishment's list, the store named to our server.
    return serverRequest({
      method: 'GET',
      path: `/api/v4/estabelecimentos/${loja}/recompensas`,
      query,
      schema: RewardPage,
      signal: options.signal,
      headers: { ...options.headers, 'x-loja': String(loja) },
    });
  }
  return apiRequest({
    method: 'GET',
    path: '/recompensas',
    query,
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
