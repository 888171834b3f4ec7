// The counter's customer: what was searched and how it was typed, whether registration is
// open, and the sale number that remounts the forms empty. One reducer names every
// transition; the hook adds the lookup query and the focus that follows a search.
import { useCallback, useEffect, useReducer, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { LookupKey } from '@/api/keys';
import type { Customer } from '@/api/schemas';
import { isServiceUnavailable } from '@/api/errors';
import type { LookupClassification } from '@/lib/lookup';
import { formatPhoneDisplay } from '@/lib/phone';
import { customerQuery, useCustomer } from './api/find-customer';
import { primeCustomer } from './api/prime-customer';

/** What the cashier typed, as the wire and the not-found message need it. */
export type Typed = { celular?: string; cpf?: string; display: string };

export function typedOf(c: LookupClassification): Typed {
  if (c.kind === 'phone') return { celular: c.celular, display: `celular ${c.display}` };
  if (c.kind === 'cpf') return { cpf: c.cpf, display: `CPF ${c.display}` };
  if (c.kind === 'id') return { display: `código ${c.display}` };
  return { display: '' };
}

export type CounterState = {
  key: LookupKey | null;
  typed: Typed | null;
  registering: boolean;
  /** A new number starts a new sale: the sale form remounts empty. */
  saleNo: number;
};

export type CounterAction =
  | { type: 'search'; key: LookupKey; typed: Typed; newSale: boolean }
  | { type: 'open'; id_cliente: number }
  | { type: 'register' }
  | { type: 'cancel-register' }
  | { type: 'next' };

export const initialCounter: CounterState = {
  key: null,
  typed: null,
  registering: false,
  saleNo: 0,
};

export function counterReducer(state: CounterState, action: CounterAction): CounterState {
  switch (action.type) {
    case 'search':
      return {
        key: action.key,
        typed: action.typed,
        registering: false,
        saleNo: action.newSale ? state.saleNo + 1 : state.saleNo,
      };
    case 'open':
      return { ...state, key: { kind: 'id', id_cliente: action.id_cliente }, registering: false };
    case 'register':
      return { ...state, registering: true };
    case 'cancel-register':
      return { ...state, registering: false };
    case 'next':
      return { ...initialCounter, saleNo: state.saleNo + 1 };
  }
}

export function useCounterCustomer() {
  const qc = useQueryClient();
  const [state, dispatch] = useReducer(counterReducer, initialCounter);
  const lookup = useCustomer(state.key);
  /**
   * The service cannot be reached (still true while "Tentar de novo" runs, so nothing typed is
   * lost). No balance is invented: an earlier reading of the customer is not shown as current.
   */
  const unavailable = lookup.isError && isServiceUnavailable(lookup.error);
  const customer: Customer | null | undefined = unavailable ? undefined : lookup.data;
  /** Unavailable, typed as a phone: a sale can still be kept (the points call needs only it). */
  const canKeep = unavailable && !!state.typed?.celular;
  const notFound = customer === null && !lookup.isFetching;
  /** Not found, but typed as a phone or CPF: registration (or posting) can start from it. */
  const canRegister = notFound && !!(state.typed?.celular || state.typed?.cpf);

  // After a search, the amount field takes the focus as soon as the result is shown (a phone's
  // last digit or Enter, then amount and Enter), whether it mounts then or was already there;
  // unless the cashier typed in the search field since (`edited`).
  const focusNext = useRef(false);
  const amountEl = useRef<HTMLInputElement | null>(null);
  const amountRef = useCallback((el: HTMLInputElement | null) => {
    amountEl.current = el;
    if (el && focusNext.current) {
      focusNext.current = false;
      el.focus();
    }
  }, []);
  useEffect(() => {
    if (focusNext.current && !lookup.isFetching && lookup.isSuccess && amountEl.current) {
      focusNext.current = false;
      amountEl.current.focus();
    }
  }, [lookup.isFetching, lookup.isSuccess, customer]);

  /**
   * The cashier typed in the search field after a search left (it may have left by itself at
   * the last digit): the answer, when it comes, leaves the focus where the typing is.
   */
  const edited = useCallback(() => {
    focusNext.current = false;
  }, []);

  const search = (key: LookupKey, c: LookupClassification, newSale: boolean) => {
    focusNext.current = true;
    // Every search at the counter reads the service again: a balance must be current. The
    // request leaves first, so the service answers while the counter re-renders (the lookup
    // query, subscribing in that render, joins it instead of asking a second time).
    void qc.prefetchQuery({ ...customerQuery(key), staleTime: 0 });
    dispatch({ type: 'search', key, typed: typedOf(c), newSale });
  };
  /** Shows the customer `id_cliente` (registered, found by registration, or by a posting). */
  const open = useCallback((id_cliente: number, focusAmount = true) => {
    focusNext.current = focusAmount;
    dispatch({ type: 'open', id_cliente });
  }, []);
  const showRegistered = (c: Customer) => {
    primeCustomer(qc, c);
    open(c.id_cliente);
  };
  const next = useCallback(() => dispatch({ type: 'next' }), []);

  const { typed } = state;
  /** What the forms of a new customer start with: what was typed in the search. */
  const prefill = {
    celular: typed?.celular ? formatPhoneDisplay(typed.celular) : '',
    cpf: typed?.cpf ?? '',
  };

  return {
    ...state,
    lookup,
    customer,
    notFound,
    canRegister,
    canKeep,
    prefill,
    amountRef,
    amountEl,
    search,
    edited,
    open,
    showRegistered,
    next,
    register: () => dispatch({ type: 'register' }),
    cancelRegister: () => dispatch({ type: 'cancel-register' }),
  };
}
