import { memo, useRef, useState, type FormEvent, type KeyboardEvent, type Ref } from 'react';
import type { LookupKey } from '@/api/keys';
import { Button } from '@/components/ui/button';
import { TypingBox } from '@/components/ui/typing-box';
import { afterPaint } from '@/hooks/use-after-paint';
import { useHydrated } from '@/hooks/use-hydrated';
import { formatCpf, formatCpfTyping, isValidCpf } from '@/lib/cpf';
import { classifyLookup, type LookupClassification } from '@/lib/lookup';
import { formatPhoneTyping } from '@/lib/phone';

const digitsOf = (s: string) => s.replace(/\D/g, '');

/**
 * classifyLookup of the last text asked. A key asks for the same text's reading up to five
 * times (formatting it, its error, the search it may start, the hint and its "Enter"), and a
 * phone's reading runs libphonenumber: once a key is enough.
 */
let lastReading: { text: string; reading: LookupClassification } | null = null;
function readLookup(text: string): LookupClassification {
  if (lastReading?.text !== text) lastReading = { text, reading: classifyLookup(text) };
  return lastReading.reading;
}

/**
 * Formats the search text as it is typed: CPF punctuation when it reads as a CPF, phone
 * formatting otherwise; `#123` and anything with letters stay as typed. More digits than a
 * phone or CPF holds stay as typed too: a digit typed past a complete number is never dropped.
 */
export function formatLookupTyping(text: string): string {
  if (/^\s*(#|id)/i.test(text) || /[^\d\s()+.-]/.test(text)) return text;
  const digits = digitsOf(text);
  const international = text.trimStart().startsWith('+');
  if (text.includes('.') && digits.length <= 11) return formatCpfTyping(text);
  if (digits === '') return international ? '+' : '';
  if (international) return digits.length > 13 ? `+${digits}` : formatPhoneTyping(`+${digits}`);
  // A 12th digit is a phone's trunk prefix only after a 0 ("0 11 98765-4321").
  if (digits.length > (digits.startsWith('0') ? 12 : 11)) return digits;
  if (digits.length === 11) {
    const c = readLookup(digits);
    if (c.kind === 'cpf') return formatCpf(digits);
  }
  // A leading 0 is a CPF's first digit (052.551.608-57) or a phone's trunk prefix
  // (0 11 98765-4321): keep the digits as typed until the length tells which, instead of
  // dropping the 0 as a trunk prefix at the first key press.
  if (digits.startsWith('0') && digits.length <= 11) return digits;
  return formatPhoneTyping(digits);
}

/**
 * What the text means, read past our own phone formatting: "(12)" was typed as "12", so
 * it is read as "12" (too short; the field teaches #id) rather than as a broken phone.
 */
export function classifyTyped(text: string): LookupClassification {
  const ours = /^[\d()\s-]+$/.test(text) && !text.trim().startsWith('+');
  return readLookup(ours ? digitsOf(text) : text);
}

/**
 * Eleven digits typed bare that read two ways: a mobile that is also a CPF with valid check
 * digits, or the start of a longer phone after a trunk 0 or the country's 55 typed without
 * "+" (then a DDD and the mobile's 9 follow: "0 11 9…", "55 11 9…").
 */
function twoWays(text: string, c: LookupClassification): boolean {
  const d = digitsOf(text);
  return (
    d.length === 11 &&
    !text.trimStart().startsWith('+') &&
    ((c.kind === 'phone' && isValidCpf(d)) || /^(0|55)[1-9]{2}9/.test(d))
  );
}

/**
 * The search the text asks for by itself: a complete mobile or a CPF whose check digits
 * match, when that is its only reading. Null while the text is incomplete, a customer code
 * (its length says nothing), or readable two ways (then Enter searches, reading a phone).
 */
export function autoSearch(
  text: string,
): Extract<LookupClassification, { kind: 'phone' | 'cpf' }> | null {
  const c = classifyTyped(text);
  return (c.kind === 'phone' || c.kind === 'cpf') && !twoWays(text, c) ? c : null;
}

const kindLabel = { phone: 'Celular', cpf: 'CPF', id: 'Código do cliente' } as const;

export function describeLookup(c: LookupClassification): string | null {
  return c.kind === 'invalid' ? null : `${kindLabel[c.kind]} ${c.display}`;
}

/** What the field understood (or its error), under it. Memoized: it changes a frame after a key. */
const LookupStatus = memo(function LookupStatus({
  text,
  error,
}: {
  text: string;
  error: string | null;
}) {
  const understood = text.trim() ? classifyTyped(text) : null;
  const hint = understood ? describeLookup(understood) : null;
  return (
    <p id="lookup-status" aria-live="polite" className="min-h-5 text-sm">
      {error ? (
        <span role="alert" className="font-medium text-red-800">
          ⚠ {error}
        </span>
      ) : hint ? (
        <span className="text-slate-700">
          Entendido: <strong className="text-slate-900">{hint}</strong>
          {!autoSearch(text) && ' · Enter para buscar'}
        </span>
      ) : (
        <span className="text-slate-700">
          Para buscar pelo código do cliente, digite # antes (ex.: #123).
        </span>
      )}
    </p>
  );
});

type Props = {
  onSearch: (key: LookupKey, typed: LookupClassification) => void;
  /** Every change of the text (before the search it may start by itself). */
  onEdit?: () => void;
  busy?: boolean;
  disabled?: boolean;
  inputRef?: Ref<HTMLInputElement>;
};

const keyOf = (c: Exclude<LookupClassification, { kind: 'invalid' }>): LookupKey =>
  c.kind === 'phone'
    ? { kind: 'phone', celular: c.celular }
    : c.kind === 'cpf'
      ? { kind: 'cpf', cpf: c.cpf }
      : { kind: 'id', id_cliente: c.id_cliente };

/**
 * One field for phone, CPF or customer id. It says what it understood while typing, and
 * sends nothing until the text is one of the three (CPF check digits included). A complete
 * mobile or CPF searches by itself as its last digit is typed (autoSearch); a code, or
 * eleven digits that read two ways, wait for Enter.
 *
 * The field holds its own text (uncontrolled): a key writes the formatted text into it and
 * React renders nothing in that key's frame, unless the error changes or a search starts.
 * The line under the field follows the text once the frame is drawn.
 */
export function CustomerSearch({
  onSearch,
  onEdit,
  busy = false,
  disabled = false,
  inputRef,
}: Props) {
  const [error, setError] = useState<string | null>(null);
  // The text the line under the field reads: the field's, after the key's frame is drawn.
  const [hinted, setHinted] = useState('');
  const text = useRef('');
  const hintDue = useRef(false);

  // Set only when it changes: a key that leaves it as it was renders nothing. (A change
  // renders, so `error` here is always the one shown.)
  const showError = (next: string | null) => {
    if (next !== error) setError(next);
  };

  const change = (field: HTMLInputElement, next: string) => {
    const before = text.current;
    // Deleting only a formatting character (")" or "-") deletes the digit before it too.
    let value = next;
    if (next.length < before.length && digitsOf(next) === digitsOf(before) && digitsOf(next) !== '')
      value = next.slice(0, next.search(/\d(?=\D*$)/));
    const formatted = formatLookupTyping(value);
    if (field.value !== formatted) field.value = formatted;
    text.current = formatted;
    if (!hintDue.current) {
      hintDue.current = true;
      afterPaint(() => {
        hintDue.current = false;
        setHinted(text.current);
      });
    }
    // Fewer than 11 digits are neither a complete mobile nor a CPF, nor too many: the key's
    // frame reads nothing then (the hint reads the text a frame later).
    const digits = digitsOf(formatted).length;
    const c = digits >= 11 ? classifyTyped(formatted) : null;
    // Digits typed past a complete number (the search may have left already): said at once.
    showError(c?.kind === 'invalid' && digits > 11 ? c.reason : null);
    onEdit?.();
    const auto = formatted !== before && c !== null ? autoSearch(formatted) : null;
    if (auto) onSearch(keyOf(auto), auto);
  };

  /**
   * A digit or Backspace at the end of the text (a phone or CPF being typed) is applied here,
   * before the browser edits the field: the field then changes once, to the formatted text,
   * instead of twice (the browser's edit, then ours), and no input event follows. Anything
   * else (a selection, the caret inside the text, paste, a keyboard that sends no key) takes
   * the browser's way to `change`.
   */
  const keyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const field = e.currentTarget;
    const current = field.value;
    const end = current.length;
    const next = /^\d$/.test(e.key)
      ? current + e.key
      : e.key === 'Backspace' && end > 0
        ? current.slice(0, -1)
        : null;
    if (next === null || e.ctrlKey || e.metaKey || e.altKey || field.readOnly) return;
    if (field.selectionStart !== end || field.selectionEnd !== end) return;
    e.preventDefault();
    change(field, next);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const c = classifyTyped(text.current);
    if (c.kind === 'invalid') {
      showError(c.reason);
      return;
    }
    showError(null);
    onSearch(keyOf(c), c);
  };

  return (
    <form role="search" onSubmit={submit} noValidate className="flex flex-col gap-1">
      <label htmlFor="lookup" className="text-sm font-semibold text-slate-800">
        Buscar cliente: celular, CPF ou #código
      </label>
      <div className="flex gap-2">
        {/* text-xl (1.75rem a line) + py-2 + the 1px border */}
        <TypingBox className="min-w-0 flex-1" height="h-[calc(2.75rem+2px)]">
          <input
            id="lookup"
            ref={inputRef}
            type="text"
            inputMode="tel"
            autoComplete="off"
            spellCheck={false}
            autoFocus
            readOnly={!useHydrated()}
            disabled={disabled}
            defaultValue=""
            placeholder="(11) 98765-4321 · 529.982.247-25 · #123"
            aria-invalid={error ? true : undefined}
            aria-describedby="lookup-status"
            onKeyDown={keyDown}
            onChange={(e) => change(e.currentTarget, e.currentTarget.value)}
            className={`size-full rounded-md border bg-white px-3 py-2 text-xl tabular placeholder:text-slate-500 ${
              error ? 'border-red-700' : 'border-slate-400'
            }`}
          />
        </TypingBox>
        <Button type="submit" busy={busy} disabled={disabled} shortcut="Enter">
          Buscar
        </Button>
      </div>
      <LookupStatus text={hinted} error={error} />
    </form>
  );
}
