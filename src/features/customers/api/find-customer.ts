// buscar: look a customer up by phone, CPF or id. Not found is a normal outcome at the
// counter (it opens registration), so a 404 "Cliente não encontrado" resolves to null.
import { queryOptions, skipToken, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/api/client';
import { ApiError } from '@/api/errors';
import { customerKeys, type LookupKey } from '@/api/keys';
import { Customer } from '@/api/schemas';
import type { FindCustomerBody } from '@/api/requests';

export type { LookupKey } from '@/api/keys';

/** The buscar body for one key (the service takes exactly one of them). */
export function lookupBody(key: LookupKey): FindCustomerBody {
  switch (key.kind) {
    case 'phone':
      return { celular: key.celular };
    case 'cpf':
      return { cpf: key.cpf };
    case 'id':
      return { id_cliente: key.id_cliente };
  }
}

/** A 404 about the establishment itself is a configuration problem, not "no such customer". */
function isCustomerNotFound(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    error.kind === 'not_found' &&
    !/estabelecimento/i.test(error.message)
  );
}

export async function findCustomer(
  key: LookupKey,
  options: { signal?: AbortSignal; headers?: Record<string, string> } = {},
): Promise<Customer | null> {
  try {
    return await apiRequest({
      method: 'POST',
      path: '/clientes/buscar',
      body: lookupBody(key),
      schema: Customer,
      signal: options.signal,
      headers: options.headers,
    });
  } catch (error) {
    if (isCustomerNotFound(error)) return null;
    throw error;
  }
}

export const customerQuery = (key: LookupKey) =>
  queryOptions({
    queryKey: customerKeys.detail(key),
    queryFn: ({ signal }) => findCustomer(key, { signal }),
  });

/** The customer for `key`; idle (no request) while `key` is null. `data` null = not found. */
export function useCustomer(key: LookupKey | null) {
  return useQuery({
    queryKey: key ? customerKeys.detail(key) : [...customerKeys.details(), null],
    queryFn: key ? ({ signal }) => findCustomer(key, { signal }) : skipToken,
  });
}
