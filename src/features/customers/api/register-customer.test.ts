import { expect, test } from 'vitest';
import { act } from '@testing-library/react';
import { customerKeys } from '@/api/keys';
import { createQueryClient } from '@/api/query-client';
import { customerWire, jsonResponse, ok, sentBody, stubFetch } from '@/testing/fixtures';
import { refusal, stubServiceEachTest } from '@/testing/api';
import { renderHookWithQuery } from '@/testing/render';
import { lookupKeysOf } from './prime-customer';
import { registerCustomer, useRegisterCustomer } from './register-customer';

stubServiceEachTest();

const created = () => {
  const wire = customerWire({ compras: 0, receita: 0 });
  delete (wire.carteira as Record<string, unknown>).historico;
  return wire;
};

test('registerCustomer posts to cadastrar and returns the customer', async () => {
  const fetchMock = stubFetch(() => jsonResponse(201, ok(created(), 'Cliente cadastrado')));
  const customer = await registerCustomer({ celular: '+5511987654321', nome: 'Maria' });
  expect(customer.id_cliente).toBe(42);
  expect(fetchMock.mock.calls[0]![0]).toBe('/api/v4/estabelecimentos/1/clientes/cadastrar');
  expect(sentBody(fetchMock)).toEqual({ celular: '+5511987654321', nome: 'Maria' });
});

test('a 409 carries the existing id_cliente', async () => {
  stubFetch(() => refusal(409, 'Cliente já cadastrado.', { data: { id_cliente: 5 } }));
  await expect(registerCustomer({ celular: '+5511987654321' })).rejects.toMatchObject({
    kind: 'conflict',
    message: 'Cliente já cadastrado.',
    data: { id_cliente: 5 },
    requestMayHaveReached: false,
  });
});

test('lookupKeysOf skips a generated-hash CPF', () => {
  expect(
    lookupKeysOf({
      id_cliente: 1,
      celular: '+5511987654321',
      cpf: 'a3f9c2e1b4d5a6f7e8d9c0b1a2f3e4d5',
    }),
  ).toEqual([
    { kind: 'id', id_cliente: 1 },
    { kind: 'phone', celular: '+5511987654321' },
  ]);
});

test('useRegisterCustomer sends once, then caches the customer under phone, cpf and id', async () => {
  const qc = createQueryClient();
  qc.setQueryData(customerKeys.detail({ kind: 'phone', celular: '+5511987654321' }), null); // "not found" before
  const fetchMock = stubFetch(() => jsonResponse(201, ok(created())));
  const { result } = renderHookWithQuery(() => useRegisterCustomer(), { queryClient: qc });
  await act(() => result.current.mutateAsync({ celular: '+5511987654321' }));
  expect(fetchMock).toHaveBeenCalledTimes(1);
  for (const key of [
    { kind: 'phone', celular: '+5511987654321' },
    { kind: 'cpf', cpf: '52998224725' },
    { kind: 'id', id_cliente: 42 },
  ] as const) {
    expect(qc.getQueryData<{ id_cliente: number }>(customerKeys.detail(key))?.id_cliente).toBe(42);
  }
  expect(qc.getQueryState(customerKeys.detail({ kind: 'id', id_cliente: 42 }))?.isInvalidated).toBe(
    true,
  );
});

test('useRegisterCustomer does not retry a failed POST', async () => {
  const fetchMock = stubFetch(() => new Response('', { status: 503 }));
  const { result } = renderHookWithQuery(() => useRegisterCustomer());
  await act(() => result.current.mutateAsync({ celular: '+5511987654321' }).catch(() => {}));
  expect(fetchMock).toHaveBeenCalledTimes(1);
});
