// The outbound webhook's latest deliveries of this store (ALERT_WEBHOOK_URL): state, attempts
// and the receiver's last answer.
import { useQuery } from '@tanstack/react-query';
import { DeliveryList } from '#contract/api/vigilancia-webhook';
import { storeSettingQuery } from './alerts';

/** `loja`: the chain's store a rede reads (null: the terminal's own). */
export const deliveriesQuery = (loja: number | null = null) =>
  storeSettingQuery('entregas', DeliveryList, loja);

export const useDeliveries = (loja: number | null = null) => useQuery(deliveriesQuery(loja));
