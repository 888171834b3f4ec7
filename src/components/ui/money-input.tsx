import type { InputHTMLAttributes, KeyboardEvent, ReactNode, Ref } from 'react';
import { centsFromDigits, formatBRL, MAX_CENTS } from '@/lib/money';
import { TextField } from './field';

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'type'> & {
  label: ReactNode;
  value: number;
  onChange: (cents: number) => void;
  error?: string | undefined;
  hint?: ReactNode;
  inputClassName?: string;
  ref?: Ref<HTMLInputElement>;
};

/**
 * Money typed the way a POS does: digits fill from the cents ("1050" shows R$ 10,50) and
 * Backspace removes the last digit, wherever the caret is. The value is integer cents.
 */
export function MoneyInput({ value, onChange, onKeyDown, ...rest }: Props) {
  const keyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    onKeyDown?.(e);
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
    if (/^\d$/.test(e.key)) {
      e.preventDefault();
      const next = value * 10 + Number(e.key);
      onChange(next > MAX_CENTS ? value : next);
    } else if (e.key === 'Backspace' || e.key === 'Delete') {
      e.preventDefault();
      onChange(Math.floor(value / 10));
    }
  };
  return (
    <TextField
      {...rest}
      inputMode="numeric"
      autoComplete="off"
      value={formatBRL(value)}
      onKeyDown={keyDown}
      // Paste, and on-screen keyboards that send no key codes, arrive here.
      onChange={(e) => onChange(centsFromDigits(e.target.value))}
      className={`tabular ${rest.className ?? ''}`}
    />
  );
}
