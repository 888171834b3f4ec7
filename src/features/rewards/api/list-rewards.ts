// recompensas: the manager's paginated list of rewards won, filtered.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiRequest, serverRequest } from '@/api/client';
import { storeHeaders } from '@/api/rede';
import { normalizeRewardFilters, rewardKeys } from '@/api/keys';
import { RewardPage } from '@/api/schemas';
import type { RewardFilters } from '@/api/requests';

/**
 * The chain's store the rewards table reads (a `rede` terminal's filter; null: the terminal's
 * own store), set by the screen as it renders, as configureApi sets the establishment: the
 * list, its totals, its next page and its export all read the same store.
 */
let chainStore: { id: number; nome: string } | null = null;
export const setRewardsStore = (loja: { id: number; nome: string } | null) => {
  chainStore = loja;
};
export const rewardsStore = () => chainStore;

export async function listRewards(
  filters: RewardFilters,
  options: { signal?: AbortSignal; headers?: Record<string, string> } = {},
): Promise<RewardPage> {
  const loja = chainStore?.id ?? null;
  if (loja !== null) {
    // Another store of the chain: its own path, named to the app server by the header.
    return serverRequest({
      method: 'GET',
      path: `/api/v4/estabelecimentos/${loja}/recompensas`,
      query: normalizeRewardFilters(filters),
      schema: RewardPage,
      signal: options.signal,
      headers: { ...options.headers, ...storeHeaders(loja) },
    });
  }
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
    queryKey: [...rewardKeys.list(filters), chainStore?.id ?? null] as const,
    queryFn: ({ signal }) => listRewards(filters, { signal }),
    placeholderData: keepPreviousData,
  });
