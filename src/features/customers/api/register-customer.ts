// cadastrar: register a customer (201). A 409 means the phone or CPF already exists in this
// establishment; its ApiError.data carries `{ id_cliente }` of the existing customer.
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/api/client';
import { customerKeys, type LookupKey } from '@/api/keys';
import { Customer } from '@/api/schemas';
import type { RegisterCustomerBody } from '@/api/requests';

export async function registerCustomer(
  body: RegisterCustomerBody,
  options: { signal?: AbortSignal; headers?: Record<string, string> } = {},
): Promise<Customer> {
  return apiRequest({
    method: 'POST',
    path: '/clientes/cadastrar',
    body,
    schema: Customer,
    signal: options.signal,
    headers: options.headers,
  });
}

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

export function useRegisterCustomer() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: RegisterCustomerBody) => registerCustomer(body),
    retry: 0,
    onSuccess: (customer) => {
      primeCustomer(qc, customer);
      // Refetch in the background: buscar adds `historico`, which cadastrar leaves out.
      return qc.invalidateQueries({ queryKey: customerKeys.all });
    },
  });
}
