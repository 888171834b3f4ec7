// The attendant's area of the kiosk: leave kiosk mode, or stage a sale on the kiosk itself
// when no counter is paired. Both ask the attendant password. With a keyboard (a kiosk with
// one) it answers as the app's confirmations do: the password field has the focus as it opens,
// Enter confirms (leaving, or sending the amount typed) and Esc goes back.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { StagedSale } from '#contract/api/kiosk';
import { isApiError } from '@/api/errors';
import { VALOR_GASTO_MAX as MAX_CENTS } from '#contract/wire';
import { useLatest } from '@/hooks/use-latest';
import { formatBRL } from '@/lib/money';
import { exitKiosk, stageHere } from './api';
import { Keypad, KioskAlert, keyClass } from './keypad';

/** The attendant's area: leave kiosk mode, or stage a sale here (no counter paired). */
export function Staff({
  onBack,
  onExited,
  onStaged,
}: {
  onBack: () => void;
  onExited: () => void;
  onStaged: (sale: StagedSale) => void;
}) {
  const [field, setField] = useState<'senha' | 'valor'>('senha');
  const [senha, setSenha] = useState('');
  const [valor, setValor] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const digit = useCallback(
    (d: string) => {
      setError(null);
      if (field === 'senha') setSenha((s) => (s.length >= 20 ? s : s + d));
      else setValor((v) => (v * 10 + Number(d) > MAX_CENTS ? v : v * 10 + Number(d)));
    },
    [field],
  );
  const back = useCallback(() => {
    if (field === 'senha') setSenha((s) => s.slice(0, -1));
    else setValor((v) => Math.floor(v / 10));
  }, [field]);
  const run = async (action: () => Promise<void>) => {
    if (senha === '') return setError('Digite a senha do atendente.');
    setBusy(true);
    try {
      await action();
    } catch (err) {
      setBusy(false);
      setSenha('');
      setError(
        isApiError(err)
          ? (err.fieldError('senha_atendente') ?? err.fieldError('valor_gasto') ?? err.message)
          : 'Algo deu errado.',
      );
    }
  };
  const stage = () =>
    void run(async () => {
      const { venda } = await stageHere({ valor_gasto: valor, senha_atendente: senha });
      if (venda) onStaged(venda);
    });
  const exit = () =>
    void run(async () => {
      await exitKiosk(senha);
      onExited();
    });

  const passwordField = useRef<HTMLInputElement>(null);
  useEffect(() => passwordField.current?.focus(), []);
  // Enter: the action the attendant typed for (an amount typed: send it; else leave).
  const keys = useLatest({ busy, valor, stage, exit, onBack });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const k = keys.current;
      if (e.key === 'Escape') k.onBack();
      else if (e.key === 'Enter' && !k.busy) (k.valor > 0 ? k.stage : k.exit)();
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [keys]);
  const fieldClass = (active: boolean) =>
    `min-h-16 rounded-xl border-4 bg-white px-4 text-3xl text-slate-950 ${active ? 'border-amber-400' : 'border-slate-400'}`;
  return (
    <div className="grid flex-1 gap-8 p-6 landscape:grid-cols-2 landscape:items-center">
      <div className="flex flex-col gap-4">
        <h1 className="text-4xl font-bold">Área do atendente</h1>
        <label className="flex flex-col gap-2 text-xl">
          Senha do atendente
          <input
            ref={passwordField}
            type="password"
            readOnly
            inputMode="none"
            value={senha}
            onFocus={() => setField('senha')}
            onClick={() => setField('senha')}
            className={fieldClass(field === 'senha')}
          />
        </label>
        <label className="flex flex-col gap-2 text-xl">
          Valor da venda (para lançar aqui)
          <input
            readOnly
            inputMode="none"
            value={formatBRL(valor)}
            onFocus={() => setField('valor')}
            onClick={() => setField('valor')}
            className={`tabular-nums ${fieldClass(field === 'valor')}`}
          />
        </label>
        {error && <KioskAlert>{error}</KioskAlert>}
      </div>
      <div className="flex flex-col gap-3">
        <Keypad
          onDigit={digit}
          onBackspace={back}
          onClear={() => (field === 'senha' ? setSenha('') : setValor(0))}
          disabled={busy}
        />
        <button
          type="button"
          disabled={busy || valor === 0}
          onClick={stage}
          className={`${keyClass} bg-emerald-600 px-4 text-2xl text-white`}
        >
          Enviar {valor > 0 ? formatBRL(valor) : 'venda'} para o cliente
        </button>
        <div className="grid grid-cols-2 gap-3">
          <button
            type="button"
            onClick={onBack}
            className={`${keyClass} bg-slate-700 text-2xl text-white`}
          >
            Voltar
          </button>
          <button
            type="button"
            disabled={busy}
            onClick={exit}
            className={`${keyClass} bg-red-700 px-4 text-2xl text-white`}
          >
            Sair do modo quiosque
          </button>
        </div>
      </div>
    </div>
  );
}
