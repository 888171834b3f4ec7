import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import { createElement, type ReactNode } from 'react';
import { configureApi } from '@/api/client';
import { customerKeys, rewardKeys } from '@/api/keys';
import { createQueryClient } from '@/api/query-client';
import { Customer } from '@/api/schemas';
import {
  customerWire,
  jsonResponse,
  ok,
  rewardPageWire,
  sentBody,
  stubFetch,
} from '@/api/test-fixtures';
import { postPoints, usePostPoints } from './post-points';

beforeEach(() => configureApi({ establishmentId: 1 }));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const body = {
  valor_gasto: 1050,
  senha_atendente: '1234',
  cliente: { celular: '+5511987654321' },
  itens: [{ descricao: 'Refrigerante lata', qtde: 3, valor: 1050 }],
};
const answer = { id_cliente: 42, id_ponto: 777, saldo_atual: 130, saldo_carencia: 10 };

test('postPoints posts to pontuar and returns the result', async () => {
  const fetchMock = stubFetch(() => jsonResponse(200, ok(answer, 'Pontos lançados')));
  expect(await postPoints(body)).toEqual(answer);
  expect(fetchMock.mock.calls[0]![0]).toBe('/api/v4/estabelecimentos/1/fidelidade/pontuar');
  expect(sentBody(fetchMock)).toEqual(body);
});

test('a wrong attendant password lands on its field', async () => {
  stubFetch(() =>
    jsonResponse(422, {
      success: false,
      message: 'Senha do atendente incorreta.',
      data: {},
      errors: { senha_atendente: ['Senha do atendente incorreta.'] },
    }),
  );
  const error = await postPoints(body).catch((e: unknown) => e);
  expect(error).toMatchObject({ kind: 'validation', requestMayHaveReached: false });
  expect((error as { fieldErrors: unknown }).fieldErrors).toEqual({
    senha_atendente: ['Senha do atendente incorreta.'],
  });
});

test('no answer within 15 s: timeout, result unknown', async () => {
  vi.useFakeTimers();
  stubFetch(() => new Promise<Response>(() => {}));
  const pending = postPoints(body).catch((e: unknown) => e);
  await vi.advanceTimersByTimeAsync(15_000);
  expect(await pending).toMatchObject({ kind: 'timeout', requestMayHaveReached: true });
});

function setup() {
  const qc = createQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) =>
    createElement(QueryClientProvider, { client: qc }, children);
  return { qc, wrapper };
}

test('usePostPoints writes the new balances into every cached copy of that customer', async () => {
  const { qc, wrapper } = setup();
  const maria = Customer.parse(customerWire());
  const other = Customer.parse(customerWire({ id_cliente: 99, celular: '+5521999990000' }));
  qc.setQueryData(customerKeys.detail({ kind: 'phone', celular: maria.celular }), maria);
  qc.setQueryData(customerKeys.detail({ kind: 'id', id_cliente: 42 }), maria);
  qc.setQueryData(customerKeys.detail({ kind: 'id', id_cliente: 99 }), other);
  qc.setQueryData(customerKeys.detail({ kind: 'cpf', cpf: '11144477735' }), null);
  qc.setQueryData(rewardKeys.list({}), rewardPageWire());
  const fetchMock = stubFetch(() => jsonResponse(200, ok(answer)));

  const { result } = renderHook(() => usePostPoints(), { wrapper });
  await act(() => result.current.mutateAsync(body));

  expect(fetchMock).toHaveBeenCalledTimes(1);
  for (const key of [
    { kind: 'phone', celular: maria.celular },
    { kind: 'id', id_cliente: 42 },
  ] as const) {
    const cached = qc.getQueryData<Customer>(customerKeys.detail(key));
    expect(cached?.carteira.saldo).toBe(130);
    expect(cached?.carteira.saldo_carencia).toBe(10);
    expect(cached?.carteira.historico).toEqual(maria.carteira.historico);
  }
  expect(
    qc.getQueryData<Customer>(customerKeys.detail({ kind: 'id', id_cliente: 99 }))?.carteira.saldo,
  ).toBe(120);
  expect(qc.getQueryData(customerKeys.detail({ kind: 'cpf', cpf: '11144477735' }))).toBeNull();
  expect(qc.getQueryState(customerKeys.detail({ kind: 'id', id_cliente: 42 }))?.isInvalidated).toBe(
    true,
  );
  expect(qc.getQueryState(rewardKeys.list({}))?.isInvalidated).toBe(true);
});

test('usePostPoints never resends by itself, even on a 503 or a timeout', async () => {
  const { wrapper } = setup();
  const fetchMock = stubFetch(() => new Response('', { status: 503 }));
  const { result } = renderHook(() => usePostPoints(), { wrapper });
  const error = await act(() => result.current.mutateAsync(body).catch((e: unknown) => e));
  expect(error).toMatchObject({ kind: 'server', requestMayHaveReached: true });
  expect(fetchMock).toHaveBeenCalledTimes(1);
});

test('usePostPoints offline fails at once instead of pausing', async () => {
  const { wrapper } = setup();
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
  const fetchMock = stubFetch(() => {
    throw new TypeError('Failed to fetch');
  });
  const { result } = renderHook(() => usePostPoints(), { wrapper });
  const error = await act(() => result.current.mutateAsync(body).catch((e: unknown) => e));
  expect(error).toMatchObject({ kind: 'network', requestMayHaveReached: false });
  expect(fetchMock).toHaveBeenCalledTimes(1);
  vi.restoreAllMocks();
});
