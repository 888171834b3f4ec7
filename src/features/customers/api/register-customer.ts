// cadastrar: register a customer (201). A 409 means the phone or CPF already exists in this
// establishment; its ApiError.data carries `{ id_cliente }` of the existing customer.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/api/client';
import { customerKeys } from '@/api/keys';
import { Customer } from '@/api/schemas';
import type { RegisterCustomerBody } from '@/api/requests';
import { primeCustomer } from './prime-customer';

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
