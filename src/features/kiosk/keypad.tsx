// The kiosk's on-screen numeric keypad: big keys (80 px), visible feedback on every touch,
// and no system keyboard (the fields it fills are read-only with inputmode="none").
import { useEffect, type ReactNode } from 'react';

const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9'] as const;

export const keyClass =
  'flex min-h-20 min-w-20 touch-manipulation select-none items-center justify-center rounded-xl text-3xl font-bold shadow-sm transition-transform active:scale-95 disabled:opacity-40';

/** What went wrong, said beside the kiosk's keypad (read out as it appears). */
export function KioskAlert({ id, children }: { id?: string; children: ReactNode }) {
  return (
    <p id={id} role="alert" className="rounded-lg bg-red-100 p-3 text-xl text-red-900">
      {children}
    </p>
  );
}

export function Keypad({
  onDigit,
  onBackspace,
  onClear,
  disabled = false,
}: {
  onDigit: (d: string) => void;
  onBackspace: () => void;
  onClear: () => void;
  disabled?: boolean;
}) {
  // A hardware keyboard (a kiosk with one, or a test) types too.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (disabled || e.ctrlKey || e.metaKey || e.altKey) return;
      const target = e.target as HTMLElement | null;
      if (target?.tagName === 'INPUT' && !(target as HTMLInputElement).readOnly) return;
      if (/^\d$/.test(e.key)) onDigit(e.key);
      else if (e.key === 'Backspace') onBackspace();
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [disabled, onDigit, onBackspace]);

  const digit = (d: string) => (
    <button
      key={d}
      type="button"
      disabled={disabled}
      onClick={() => onDigit(d)}
      className={`${keyClass} bg-white text-slate-950 active:bg-amber-200`}
    >
      {d}
    </button>
  );
  return (
    <div role="group" aria-label="Teclado numérico" className="grid grid-cols-3 gap-3">
      {KEYS.map(digit)}
      <button
        type="button"
        disabled={disabled}
        onClick={onClear}
        className={`${keyClass} bg-slate-300 text-xl text-slate-950 active:bg-slate-400`}
      >
        Limpar
      </button>
      {digit('0')}
      <button
        type="button"
        disabled={disabled}
        onClick={onBackspace}
        aria-label="Apagar"
        className={`${keyClass} bg-slate-300 text-slate-950 active:bg-slate-400`}
      >
        <span aria-hidden="true">⌫</span>
      </button>
    </div>
  );
}

/** `11987654321` → `(11) 98765-4321` as it is typed. */
export function formatTypedPhone(digits: string): string {
  if (digits.length === 0) return '';
  if (digits.length <= 2) return `(${digits}`;
  const ddd = digits.slice(0, 2);
  const rest = digits.slice(2);
  if (rest.length <= 5) return `(${ddd}) ${rest}`;
  return `(${ddd}) ${rest.slice(0, 5)}-${rest.slice(5)}`;
}

/** The reason 11 typed digits are not a Brazilian mobile, or null when they are. */
export function phoneProblem(digits: string): string | null {
  if (digits.length !== 11) return 'Digite o celular com DDD: 11 números.';
  if (!/^[1-9][1-9]/.test(digits)) return 'O DDD não existe. Confira os 2 primeiros números.';
  if (digits[2] !== '9') return 'Celular começa com 9 depois do DDD.';
  return null;
}
