import { describe, expect, test } from 'vitest';
import { counterReducer, initialCounter, typedOf } from './use-counter-customer';

const phone = { kind: 'phone', celular: '+5511987654321' } as const;
const typedPhone = { celular: '+5511987654321', display: 'celular (11) 98765-4321' };

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
