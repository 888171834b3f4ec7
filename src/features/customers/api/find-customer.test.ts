import { describe, expect, test } from 'vitest';
import { waitFor } from '@testing-library/react';
import { ApiError } from '@/api/errors';
import { customerWire, jsonResponse, ok, sentBody, stubFetch } from '@/testing/fixtures';
import { fieldRefusal, refusal, stubServiceEachTest } from '@/testing/api';
import { renderHookWithQuery } from '@/testing/render';
import { customerQuery, findCustomer, lookupBody, useCustomer } from './find-customer';

stubServiceEachTest();

test('lookupBody sends exactly one key', () => {
  expect(lookupBody({ kind: 'phone', celular: '+5511987654321' })).toEqual({
    celular: '+5511987654321',
  });
  expect(lookupBody({ kind: 'cpf', cpf: '52998224725' })).toEqual({ cpf: '52998224725' });
  expect(lookupBody({ kind: 'id', id_cliente: 42 })).toEqual({ id_cliente: 42 });
});

describe('findCustomer', () => {
  test('posts to buscar and returns the parsed customer', async () => {
    const fetchMock = stubFetch(() => jsonResponse(200, ok(customerWire())));
    const customer = await findCustomer({ kind: 'phone', celular: '+5511987654321' });
    expect(customer?.id_cliente).toBe(42);
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/v4/estabelecimentos/1/clientes/buscar');
    expect(fetchMock.mock.calls[0]![1]?.method).toBe('POST');
    expect(sentBody(fetchMock)).toEqual({ celular: '+5511987654321' });
  });
  test('an unknown customer is null, not an error', async () => {
    stubFetch(() => refusal(404, 'Cliente não encontrado'));
    expect(await findCustomer({ kind: 'cpf', cpf: '52998224725' })).toBeNull();
  });
  test('an unknown establishment is still an error', async () => {
    stubFetch(() => refusal(404, 'Estabelecimento não encontrado'));
    await expect(findCustomer({ kind: 'id', id_cliente: 1 })).rejects.toMatchObject({
      kind: 'not_found',
    });
  });
  test('other failures are ApiErrors', async () => {
    stubFetch(() => refusal(401, 'Token inválido'));
    await expect(findCustomer({ kind: 'id', id_cliente: 1 })).rejects.toBeInstanceOf(ApiError);
  });
});

test('customerQuery keys by establishment and lookup key', () => {
  expect(customerQuery({ kind: 'id', id_cliente: 9 }).queryKey).toEqual([
    'estabelecimento',
    1,
    'customers',
    'detail',
    { kind: 'id', id_cliente: 9 },
  ]);
});

describe('useCustomer', () => {
  test('with a null key it stays idle and sends nothing', () => {
    const fetchMock = stubFetch(() => jsonResponse(200, ok(customerWire())));
    const { result } = renderHookWithQuery(() => useCustomer(null));
    expect(result.current.fetchStatus).toBe('idle');
    expect(fetchMock).not.toHaveBeenCalled();
  });
  test('resolves not found to data null', async () => {
    stubFetch(() => refusal(404, 'Cliente não encontrado'));
    const { result } = renderHookWithQuery(() =>
      useCustomer({ kind: 'phone', celular: '+5511900000000' }),
    );
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.data).toBeNull();
  });
  test('a 422 is not retried', async () => {
    const fetchMock = stubFetch(() => fieldRefusal('cpf', 'CPF inválido.'));
    const { result } = renderHookWithQuery(() => useCustomer({ kind: 'cpf', cpf: '52998224725' }));
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(result.current.error?.fieldErrors).toEqual({ cpf: ['CPF inválido.'] });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
