import type { InputHTMLAttributes, ReactNode, Ref } from 'react';
import { centsFromDigits, formatBRL } from '@/lib/money';
import { TextField } from './field';

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'type'> & {
  label: ReactNode;
  value: number;
  onChange: (cents: number) => void;
  error?: string | undefined;
  hint?: ReactNode;
  ref?: Ref<HTMLInputElement>;
};

/**
 * Money typed the way a POS does: digits fill from the cents ("1050" shows R$ 10,50),
 * Backspace removes the last digit. The value is integer cents.
 */
export function MoneyInput({ value, onChange, ...rest }: Props) {
  return (
    <TextField
      {...rest}
      inputMode="numeric"
      autoComplete="off"
      value={formatBRL(value)}
      onChange={(e) => onChange(centsFromDigits(e.target.value))}
      onFocus={(e) => {
        const input = e.currentTarget;
        // Caret at the end: new digits always enter as cents.
        requestAnimationFrame(() =>
          input.setSelectionRange(input.value.length, input.value.length),
        );
      }}
      className={`tabular ${rest.className ?? ''}`}
    />
  );
}
