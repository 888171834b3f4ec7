// A customer written into the lookup cache under every key it can be found by. Apart from
// register-customer.ts so that the counter's first load, which primes the cache after a
// registration, does not carry the registration's mutation code (it loads with the form).
import type { QueryClient } from '@tanstack/react-query';
import { customerKeys, type LookupKey } from '@/api/keys';
import type { Customer } from '@/api/schemas';

/** Every lookup key under which this customer can be found (CPF only when it is 11 digits). */
export function lookupKeysOf(
  customer: Pick<Customer, 'id_cliente' | 'celular' | 'cpf'>,
): LookupKey[] {
  const keys: LookupKey[] = [
    { kind: 'id', id_cliente: customer.id_cliente },
    { kind: 'phone', celular: customer.celular },
  ];
  if (customer.cpf && /^\d{11}$/.test(customer.cpf)) keys.push({ kind: 'cpf', cpf: customer.cpf });
  return keys;
}

/** Writes a customer into the cache under each of its lookup keys. */
export function primeCustomer(qc: QueryClient, customer: Customer): void {
  for (const key of lookupKeysOf(customer)) qc.setQueryData(customerKeys.detail(key), customer);
}
