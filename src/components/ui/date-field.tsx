// A date typed as `dd/mm/aaaa` whatever the browser's language (`<input type="date">` shows
// `mm/dd/yyyy` in an English browser): a text input that puts the slashes in as the digits
// come, and says at the field when what was typed is not a date.
import { useState, type InputHTMLAttributes, type Ref } from 'react';
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
  ...input
}: Props) {
  const [left, setLeft] = useState(false);
  const own = checkFormat ? dateTextError(value, left) : null;
  return (
    <TextField
      label={
        <>
          {label}
          <span className="sr-only"> ({DATE_PLACEHOLDER})</span>
        </>
      }
      type="text"
      inputMode="numeric"
      autoComplete="off"
      placeholder={DATE_PLACEHOLDER}
      maxLength={10}
      value={value}
      onChange={(e) => onValueChange(maskDate(e.target.value))}
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
