// The counter's one refresh of a customer after a posting (its code loads with the posting's):
// read from the service (never from the cache), then written into the cache under every key the
// customer is found by, so the panel showing it redraws from it without a fetch of its own and
// without being shown as fetching. Through our server, a refresh by phone also tells the
// journal the points the posting earned (server/app/domain/journal/lookups.ts).
import type { QueryClient } from '@tanstack/react-query';
import { customerKeys, type LookupKey } from '@/api/keys';
import type { Customer } from '@/api/schemas';
import { findCustomer } from './find-customer';
import { primeCustomer } from './prime-customer';

/** The customer read again, by id or by the phone sent, into the cache; null: not found. */
export async function refreshCustomer(
  qc: QueryClient,
  target: { id_cliente: number } | { celular: string },
): Promise<Customer | null> {
  const key: LookupKey =
    'id_cliente' in target
      ? { kind: 'id', id_cliente: target.id_cliente }
      : { kind: 'phone', celular: target.celular };
  // A query of its own (kept no longer than the read): the client's retries on a network
  // error or a 5xx, and never the panel's query, which would show as fetching meanwhile.
  const customer = await qc.fetchQuery({
    queryKey: [...customerKeys.all, 'refresh', key],
    queryFn: ({ signal }) => findCustomer(key, { signal }),
    staleTime: 0,
    gcTime: 0,
    retry: 2,
  });
  if (customer !== null) primeCustomer(qc, customer);
  return customer;
}
