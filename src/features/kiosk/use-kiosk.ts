// The kiosk screen's state and what a customer does on it: look up a phone, claim the sale the
// counter sent (registering with consent when new), and the sales the server pushes.
import { useCallback, useEffect, useRef, useState } from 'react';
import { KIOSK_MESSAGES, type KioskCustomer, type StagedSale } from '#contract/api/kiosk';
import { isApiError } from '@/api/errors';
import { claimSale, lookupBalance, registerCustomer, subscribeSales } from './api';
import { phoneProblem } from './keypad';

export type Screen =
  | { name: 'welcome' }
  | { name: 'phone' }
  | { name: 'consent'; celular: string }
  | { name: 'balance'; customer: KioskCustomer }
  | { name: 'claiming' }
  | { name: 'result'; sale: StagedSale }
  | { name: 'staff' }
  | { name: 'exited' };

const toE164 = (digits: string) => `+55${digits}`;

/** What the kiosk says of a failed request; null when offline (the screen says so itself). */
function failureText(err: unknown, lookup: boolean): string | null {
  if (!isApiError(err)) return 'Algo deu errado. Tente de novo.';
  if (err.kind === 'network' || err.kind === 'timeout') return null;
  if (lookup && err.status === 429) return KIOSK_MESSAGES.tooManyLookups;
  return (
    err.fieldError('celular') ??
    err.fieldError('senha_atendente') ??
    err.fieldError('valor_gasto') ??
    err.message
  );
}

export function useKiosk() {
  const [screen, setScreen] = useState<Screen>({ name: 'welcome' });
  const [digits, setDigits] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sale, setSale] = useState<StagedSale | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const claimingId = useRef<string | null>(null);

  const reset = useCallback(() => {
    // The customer's data leaves memory (it never enters the query cache: lookups are
    // plain requests whose answers live only in this screen's state).
    setDigits('');
    setError(null);
    setBusy(false);
    setNotice(null);
    claimingId.current = null;
    setScreen({ name: 'welcome' });
  }, []);

  // Staged sales pushed by the server.
  useEffect(
    () =>
      subscribeSales({
        onSale: (next) => {
          setSale(next);
          if (next === null) return;
          if (next.estado === 'lançando') {
            claimingId.current = next.id;
            setScreen({ name: 'claiming' });
          } else if (next.id === claimingId.current && next.estado !== 'aguardando') {
            claimingId.current = null;
            setScreen({ name: 'result', sale: next });
          } else if (next.estado === 'cancelado' || next.estado === 'expirado') {
            setNotice(next.mensagem);
            setScreen((s) =>
              s.name === 'phone' || s.name === 'consent' ? { name: 'welcome' } : s,
            );
            setDigits('');
          } else if (next.estado === 'aguardando') {
            setNotice(null);
            setDigits('');
            setError(null);
            setScreen((s) => (s.name === 'staff' || s.name === 'exited' ? s : { name: 'phone' }));
          }
        },
      }),
    [],
  );

  const waiting = sale?.estado === 'aguardando' ? sale : null;

  /** `lookup`: a phone lookup, which the server allows only a few times a minute per kiosk. */
  const fail = (err: unknown, lookup = false) => {
    setBusy(false);
    const message = failureText(err, lookup);
    if (message !== null) setError(message);
  };

  const claim = async (target: StagedSale, body: Parameters<typeof claimSale>[1]) => {
    claimingId.current = target.id;
    setScreen({ name: 'claiming' });
    try {
      const { venda } = await claimSale(target.id, body);
      claimingId.current = null;
      setBusy(false);
      if (venda) setScreen({ name: 'result', sale: venda });
    } catch (err) {
      claimingId.current = null;
      setBusy(false);
      if (isApiError(err) && err.status === 409) {
        const taken = (err.data as { venda?: StagedSale } | null)?.venda;
        setNotice(taken?.mensagem ?? err.message);
        setScreen({ name: 'welcome' });
        return;
      }
      setScreen({ name: 'phone' });
      fail(err);
    }
  };

  const submitPhone = async () => {
    const problem = phoneProblem(digits);
    if (problem) return setError(problem);
    setError(null);
    setBusy(true);
    const celular = toE164(digits);
    try {
      if (waiting) {
        const known = await lookupBalance(celular);
        if (!known.cadastrado) {
          setBusy(false);
          return setScreen({ name: 'consent', celular });
        }
        await claim(waiting, { celular });
      } else {
        const found = await lookupBalance(celular);
        setBusy(false);
        if (found.cliente) setScreen({ name: 'balance', customer: found.cliente });
        else setScreen({ name: 'consent', celular });
      }
    } catch (err) {
      fail(err, true);
    }
  };

  const register = async (celular: string, nome: string) => {
    setBusy(true);
    setError(null);
    const body = { celular, consentimento: true as const, ...(nome.trim() ? { nome } : {}) };
    try {
      if (waiting) return await claim(waiting, body);
      const done = await registerCustomer(body);
      setBusy(false);
      if (done.cliente) setScreen({ name: 'balance', customer: done.cliente });
    } catch (err) {
      fail(err, true);
    }
  };

  const typeDigits = (d: string) => {
    setError(null);
    setDigits(d);
  };

  return {
    screen,
    setScreen,
    digits,
    typeDigits,
    error,
    busy,
    notice,
    setNotice,
    waiting,
    setSale,
    reset,
    submitPhone,
    register,
  };
}
