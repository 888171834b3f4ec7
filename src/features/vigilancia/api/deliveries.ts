// The outbound webhook's latest deliveries of this store (ALERT_WEBHOOK_URL): state, attempts
// and the receiver's last answer.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { serverRequest } from '@/api/client';
import { DeliveryList } from '#contract/api/vigilancia-webhook';
import { alertKeys } from './alerts';

export const deliveriesQuery = () =>
  queryOptions({
    queryKey: [...alertKeys.all, 'entregas'] as const,
    queryFn: ({ signal }) =>
      serverRequest({
        method: 'GET',
        path: '/api/vigilancia/entregas',
        schema: DeliveryList,
        signal,
      }),
  });

export const useDeliveries = () => useQuery(deliveriesQuery());
