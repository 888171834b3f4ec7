import { describe, expect, test } from 'vitest';
import { act, waitFor } from '@testing-library/react';
import { customerWire, jsonResponse, ok, stubFetch } from '@/testing/fixtures';
import { refusal, stubServiceEachTest } from '@/testing/api';
import { renderHookWithQuery } from '@/testing/render';
import {
  counterReducer,
  initialCounter,
  typedOf,
  useCounterCustomer,
} from './use-counter-customer';

const phone = { kind: 'phone', celular: '+5511987654321' } as const;
const typedPhone = { celular: '+5511987654321', display: 'celular (11) 98765-4321' };
/** The phone as the search field parsed it. */
const phoneTyped = { ...phone, display: '(11) 98765-4321' } as const;

describe('the counter customer', () => {
  test('a search shows its key, closes registration and keeps the sale unless asked', () => {
    const registering = { ...initialCounter, registering: true, saleNo: 3 };
    const found = counterReducer(registering, {
      type: 'search',
      key: phone,
      typed: typedPhone,
      newSale: false,
    });
    expect(found).toEqual({ key: phone, typed: typedPhone, registering: false, saleNo: 3 });
    const after = counterReducer(found, {
      type: 'search',
      key: phone,
      typed: typedPhone,
      newSale: true,
    });
    expect(after.saleNo).toBe(4);
  });

  test('opening a registered customer switches to their id and keeps what was typed', () => {
    const state = { key: phone, typed: typedPhone, registering: true, saleNo: 1 };
    expect(counterReducer(state, { type: 'open', id_cliente: 9 })).toEqual({
      key: { kind: 'id', id_cliente: 9 },
      typed: typedPhone,
      registering: false,
      saleNo: 1,
    });
  });

  test('next customer clears everything and starts a new sale', () => {
    const state = { key: phone, typed: typedPhone, registering: true, saleNo: 5 };
    expect(counterReducer(state, { type: 'next' })).toEqual({ ...initialCounter, saleNo: 6 });
  });

  test('what was typed keeps the phone or CPF for registration, and says how it was read', () => {
    expect(typedOf({ kind: 'cpf', cpf: '52998224725', display: '529.982.247-25' })).toEqual({
      cpf: '52998224725',
      display: 'CPF 529.982.247-25',
    });
    expect(typedOf({ kind: 'id', id_cliente: 7, display: '#7' })).toEqual({
      display: 'código #7',
    });
  });
});

describe('the counter customer searching', () => {
  stubServiceEachTest();

  test('a search asks the service before the counter re-renders, once, and again on every search', async () => {
    let saldo = 100;
    let renders = 0;
    const rendersAtRequest: number[] = [];
    const fetchMock = stubFetch(() => {
      rendersAtRequest.push(renders);
      return jsonResponse(
        200,
        ok(customerWire({ carteira: { ...(customerWire().carteira as object), saldo } })),
      );
    });
    const { result } = renderHookWithQuery(() => {
      renders++;
      return useCounterCustomer();
    });
    const before = renders;
    act(() => result.current.search(phone, phoneTyped, false));
    await waitFor(() => expect(result.current.customer?.carteira.saldo).toBe(100));
    // The request left inside the search, not after the render it caused.
    expect(rendersAtRequest).toEqual([before]);
    // The same customer again (its answer still fresh in the cache): read again, once.
    saldo = 250;
    act(() => result.current.search(phone, phoneTyped, true));
    await waitFor(() => expect(result.current.customer?.carteira.saldo).toBe(250));
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});

describe('the counter customer while the service is unavailable', () => {
  stubServiceEachTest();

  const contingency = () => refusal(503, 'Serviço de fidelidade indisponível — modo contingência.');

  function setup() {
    return renderHookWithQuery(() => useCounterCustomer());
  }

  test('a phone search that finds the service down can keep a sale, asked once (no retry)', async () => {
    const fetchMock = stubFetch(contingency);
    const { result } = setup();
    act(() => result.current.search(phone, phoneTyped, false));
    await waitFor(() => expect(result.current.lookup.isError).toBe(true));
    expect(result.current.canKeep).toBe(true);
    expect(result.current.canRegister).toBe(false);
    expect(result.current.customer).toBeUndefined();
    expect(result.current.prefill.celular).toBe('(11) 98765-4321');
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  test('a CPF search cannot keep a sale (the points call needs the phone)', async () => {
    stubFetch(contingency);
    const { result } = setup();
    const cpf = { kind: 'cpf', cpf: '52998224725' } as const;
    act(() => result.current.search(cpf, { ...cpf, display: '529.982.247-25' }, false));
    await waitFor(() => expect(result.current.lookup.isError).toBe(true));
    expect(result.current.canKeep).toBe(false);
  });

  test('an earlier reading of the customer is not shown as current once the service is down', async () => {
    let down = false;
    stubFetch(() => (down ? contingency() : jsonResponse(200, ok(customerWire()))));
    const { result } = setup();
    act(() => result.current.search(phone, phoneTyped, false));
    await waitFor(() => expect(result.current.customer?.id_cliente).toBe(42));
    down = true;
    act(() => result.current.search(phone, phoneTyped, true));
    await waitFor(() => expect(result.current.lookup.isError).toBe(true));
    expect(result.current.lookup.data?.id_cliente).toBe(42); // still in the cache
    expect(result.current.customer).toBeUndefined();
    expect(result.current.canKeep).toBe(true);
  });

  test('a failure that is not the service being unreachable keeps no sale', async () => {
    stubFetch(() => refusal(403, 'Sem permissão'));
    const { result } = setup();
    act(() => result.current.search(phone, phoneTyped, false));
    await waitFor(() => expect(result.current.lookup.isError).toBe(true));
    expect(result.current.canKeep).toBe(false);
  });
});
