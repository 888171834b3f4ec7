// recompensas, for one customer: the rewards waiting to be handed over at the counter
// (`status=pendente_resgate`; a caixa terminal may read one customer's rewards). Under
// rewardKeys.lists(), so whatever re-reads the rewards (a posting that won one, a hand-over)
// re-reads these too.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/api/client';
import { rewardKeys } from '@/api/keys';
import { RewardPage } from '@/api/schemas';
import type { RewardFilters } from '@/api/requests';

/** The service's largest page: a customer with more waiting is told how many more. */
export const PENDING_REWARDS_PAGE = 100;

const filtersOf = (id_cliente: number): RewardFilters => ({
  id_cliente,
  status: 'pendente_resgate',
  itens_por_pagina: PENDING_REWARDS_PAGE,
});

export const pendingRewardsQuery = (id_cliente: number) =>
  queryOptions({
    queryKey: rewardKeys.list(filtersOf(id_cliente)),
    queryFn: ({ signal }) =>
      apiRequest({
        method: 'GET',
        path: '/recompensas',
        query: filtersOf(id_cliente),
        schema: RewardPage,
        signal,
      }),
  });

/** The customer's rewards waiting to be handed over; idle while `enabled` is false. */
export const usePendingRewards = (id_cliente: number, enabled: boolean) =>
  useQuery({ ...pendingRewardsQuery(id_cliente), enabled });
