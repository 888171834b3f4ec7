import {
  useCallback,
  useLayoutEffect,
  useRef,
  type ChangeEvent,
  type InputHTMLAttributes,
  type KeyboardEvent,
  type ReactNode,
  type Ref,
} from 'react';
import { centsFromDigits, formatBRL, MAX_CENTS } from '@/lib/money';
import { TextField } from './field';

type Props = Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'value' | 'defaultValue' | 'onChange' | 'type'
> & {
  label: ReactNode;
  /** The amount in cents; when it differs from the field's text, the field shows it. */
  value: number;
  onChange: (cents: number) => void;
  error?: string | undefined;
  hint?: ReactNode;
  inputClassName?: string;
  /** See TextField. */
  typingHeight?: string;
  ref?: Ref<HTMLInputElement>;
};

/** The next amount after `key`, or null for a key that does not edit the amount. */
function keyed(cents: number, key: string): number | null {
  if (/^\d$/.test(key)) {
    const next = cents * 10 + Number(key);
    return next > MAX_CENTS ? cents : next;
  }
  return key === 'Backspace' || key === 'Delete' ? Math.floor(cents / 10) : null;
}

/**
 * Money typed the way a POS does: digits fill from the cents ("1050" shows R$ 10,50) and
 * Backspace removes the last digit, wherever the caret is. The value is integer cents.
 *
 * The field holds its own text: a key writes the formatted amount into it in the key's
 * handler, and React renders nothing for it, so a parent that keeps the amount elsewhere (a
 * form's store) need not render on every key. Each render writes `value` into the field where
 * it differs from the text: a reset, a total set from elsewhere, an amount the parent holds
 * to another.
 */
export function MoneyInput({ value, onChange, onKeyDown, ref, ...rest }: Props) {
  const own = useRef<HTMLInputElement | null>(null);
  const setRef = useCallback(
    (el: HTMLInputElement | null) => {
      own.current = el;
      if (typeof ref === 'function') return ref(el);
      if (ref) ref.current = el;
    },
    [ref],
  );
  // After every render: the text follows `value` where they differ.
  useLayoutEffect(() => {
    const el = own.current;
    if (el && centsFromDigits(el.value) !== value) el.value = formatBRL(value);
  });

  const write = (el: HTMLInputElement, cents: number) => {
    const text = formatBRL(cents);
    if (el.value !== text) el.value = text;
    onChange(cents);
  };
  const keyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    onKeyDown?.(e);
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
    const el = e.currentTarget;
    const next = el.readOnly ? null : keyed(centsFromDigits(el.value), e.key);
    if (next === null) return;
    e.preventDefault();
    write(el, next);
  };
  return (
    <TextField
      {...rest}
      ref={setRef}
      inputMode="numeric"
      autoComplete="off"
      defaultValue={formatBRL(value)}
      onKeyDown={keyDown}
      // Paste, and on-screen keyboards that send no key codes, arrive here.
      onChange={(e: ChangeEvent<HTMLInputElement>) =>
        write(e.currentTarget, centsFromDigits(e.currentTarget.value))
      }
      className={`tabular ${rest.className ?? ''}`}
    />
  );
}
