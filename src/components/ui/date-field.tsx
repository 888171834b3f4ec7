// A date typed as `dd/mm/aaaa` whatever the browser's language (`<input type="date">` shows
// `mm/dd/yyyy` in an English browser): a text input that puts the slashes in as the digits
// come, and says at the field when what was typed is not a date.
import { useLayoutEffect, useRef, useState, type InputHTMLAttributes, type Ref } from 'react';
import { brDateToWire, formatDate, isRealDate } from '@/lib/dates';
import { TextField } from './field';

export const DATE_PLACEHOLDER = 'dd/mm/aaaa';
export const DATE_INCOMPLETE = 'Data incompleta: use dd/mm/aaaa.';
export const DATE_NOT_REAL = 'Esta data não existe.';

const ISO_DATE = /^\s*(\d{4})-(\d{2})-(\d{2})\s*$/;

/**
 * What the field shows for what was typed or pasted: digits grouped `dd/mm/aaaa`. A separator
 * typed after a one-digit day or month pads it (`1/5/2026` → `01/05/2026`); a pasted
 * `2026-05-01` becomes `01/05/2026`; anything else is dropped.
 */
export function maskDate(typed: string): string {
  const iso = ISO_DATE.exec(typed);
  if (iso) return `${iso[3]}/${iso[2]}/${iso[1]}`;
  const parts: string[] = [];
  let current = '';
  for (const ch of typed) {
    if (ch >= '0' && ch <= '9') {
      if (parts.length === 2) {
        if (current.length < 4) current += ch;
      } else if (current.length === 2) {
        parts.push(current);
        current = ch;
      } else current += ch;
    } else if ('/.- '.includes(ch) && current !== '' && parts.length < 2) {
      parts.push(current.padStart(2, '0'));
      current = '';
    }
  }
  // "01/" keeps its slash so the next digit lands in the month; "01" has none yet.
  return parts.length === 0 ? current : `${parts.join('/')}/${current}`;
}

const countDigits = (text: string) => text.replace(/\D/g, '').length;

/** The position just after the `n`th digit of `text` (0 = the start). */
function caretAfterDigits(text: string, n: number): number {
  if (n === 0) return 0;
  let seen = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i]! >= '0' && text[i]! <= '9' && ++seen === n) return i + 1;
  }
  return text.length;
}

/** The wire date (`YYYY-MM-DD`) of a typed `dd/mm/aaaa`; '' for an empty field; null when not a date. */
export function dateTextToWire(text: string): string | null {
  if (text.trim() === '') return '';
  return /^\d{2}\/\d{2}\/\d{4}$/.test(text.trim()) ? brDateToWire(text) : null;
}

/** The text a wire date shows as ('' for none; a malformed one as it came). */
export const wireToDateText = (wire: string | undefined) =>
  wire && isRealDate(wire) ? formatDate(wire) : (wire ?? '');

/**
 * What is wrong with the typed text, or null. An incomplete date is only reported once the
 * person has left the field (`final`); a complete one that does not exist (31/02) at once.
 */
export function dateTextError(text: string, final: boolean): string | null {
  const t = text.trim();
  if (t === '' || dateTextToWire(t)) return null;
  if (t.length < 10) return final ? DATE_INCOMPLETE : null;
  return DATE_NOT_REAL;
}

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'type'> & {
  label: string;
  /** The text as typed (`dd/mm/aaaa`, possibly partial). */
  value: string;
  onValueChange: (text: string) => void;
  /** An error from elsewhere (a range, the service); the field's own format error comes first. */
  error?: string | undefined;
  /** Whether the field reports its own format errors (a form schema may do it instead). */
  checkFormat?: boolean;
  className?: string;
  ref?: Ref<HTMLInputElement>;
};

export function DateField({
  label,
  value,
  onValueChange,
  error,
  checkFormat = true,
  onBlur,
  onFocus,
  ref,
  ...input
}: Props) {
  const [left, setLeft] = useState(false);
  const inputRef = useRef<HTMLInputElement | null>(null);
  // Where the caret goes once the masked text is on screen: after as many digits as were
  // before it in what was typed (a slash put in or taken out does not move it off its digit).
  const caret = useRef<number | null>(null);
  useLayoutEffect(() => {
    const el = inputRef.current;
    if (caret.current === null || !el || document.activeElement !== el) return;
    el.setSelectionRange(caret.current, caret.current);
    caret.current = null;
  });
  const setRefs = (el: HTMLInputElement | null) => {
    inputRef.current = el;
    if (typeof ref === 'function') ref(el);
    else if (ref) ref.current = el;
  };
  const own = checkFormat ? dateTextError(value, left) : null;
  return (
    <TextField
      label={
        <>
          {label} <span className="sr-only">({DATE_PLACEHOLDER})</span>
        </>
      }
      type="text"
      inputMode="numeric"
      autoComplete="off"
      placeholder={DATE_PLACEHOLDER}
      maxLength={10}
      value={value}
      ref={setRefs}
      onChange={(e) => {
        const raw = e.target.value;
        const at = e.target.selectionStart ?? raw.length;
        // Deleting leaves the rest as it was ("01/05" minus its "1" is "0/05", not "00/05").
        const masked =
          raw.length < value.length ? raw.replace(/[^\d/]/g, '').slice(0, 10) : maskDate(raw);
        caret.current =
          at >= raw.length
            ? masked.length
            : caretAfterDigits(masked, countDigits(raw.slice(0, at)));
        onValueChange(masked);
      }}
      onFocus={(e) => {
        setLeft(false);
        onFocus?.(e);
      }}
      onBlur={(e) => {
        setLeft(true);
        onBlur?.(e);
      }}
      error={own ?? error}
      {...input}
    />
  );
}
