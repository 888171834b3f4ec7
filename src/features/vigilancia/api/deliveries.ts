// The outbound webhook's latest deliveries of this store (ALERT_WEBHOOK_URL): state, attempts
// and the receiver's last answer.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { serverRequest } from '@/api/client';
import { storeHeaders } from '@/api/rede';
import { DeliveryList } from '#contract/api/vigilancia-webhook';
import { alertKeys } from './alerts';

/** `loja`: the chain's store a rede reads (null: the terminal's own). */
export const deliveriesQuery = (loja: number | null = null) =>
  queryOptions({
    queryKey: [...alertKeys.all, 'entregas', loja] as const,
    queryFn: ({ signal }) =>
      serverRequest({
        method: 'GET',
        path: '/api/vigilancia/entregas',
        schema: DeliveryList,
        signal,
        headers: storeHeaders(loja),
      }),
  });

export const useDeliveries = (loja: number | null = null) => useQuery(deliveriesQuery(loja));
