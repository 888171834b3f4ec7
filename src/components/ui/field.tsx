import {
  useId,
  type InputHTMLAttributes,
  type ReactNode,
  type Ref,
  type SelectHTMLAttributes,
} from 'react';
import { useHydrated } from '@/hooks/use-hydrated';
import { TypingBox } from './typing-box';

type Common = {
  label: ReactNode;
  error?: string | undefined;
  hint?: ReactNode;
  /** Shown at the right of the label, e.g. a live character count. */
  aside?: ReactNode;
  className?: string;
};

const control =
  'w-full rounded-md border bg-white px-3 py-2 text-base text-slate-900 placeholder:text-slate-500 disabled:bg-slate-100';

function Frame({
  id,
  label,
  error,
  hint,
  aside,
  className = '',
  children,
}: Common & { id: string; children: ReactNode }) {
  return (
    <div className={`flex flex-col gap-1 ${className}`}>
      <div className="flex items-baseline justify-between gap-2">
        <label htmlFor={id} className="text-sm font-semibold text-slate-800">
          {label}
        </label>
        {aside}
      </div>
      {children}
      {hint && !error && (
        <p id={`${id}-hint`} className="text-sm text-slate-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="text-sm font-medium text-red-800">
          <span aria-hidden="true">⚠ </span>
          {error}
        </p>
      )}
    </div>
  );
}

function describedBy(id: string, error?: string, hint?: ReactNode) {
  return error ? `${id}-error` : hint ? `${id}-hint` : undefined;
}

export function TextField({
  label,
  error,
  hint,
  aside,
  className,
  ref,
  id: givenId,
  inputClassName = '',
  typingHeight,
  ...input
}: Common &
  InputHTMLAttributes<HTMLInputElement> & {
    ref?: Ref<HTMLInputElement>;
    inputClassName?: string;
    /** The field's fixed height (a class), for a field typed at speed: see TypingBox. */
    typingHeight?: string;
  }) {
  const autoId = useId();
  const id = givenId ?? autoId;
  const hydrated = useHydrated();
  const field = (
    <input
      ref={ref}
      id={id}
      aria-invalid={error ? true : undefined}
      aria-describedby={describedBy(id, error, hint)}
      className={`${control} ${error ? 'border-red-700' : 'border-slate-400'} ${typingHeight ? 'size-full' : ''} ${inputClassName}`}
      {...input}
      readOnly={input.readOnly || !hydrated}
    />
  );
  return (
    <Frame id={id} label={label} error={error} hint={hint} aside={aside} className={className}>
      {typingHeight ? <TypingBox height={typingHeight}>{field}</TypingBox> : field}
    </Frame>
  );
}

export function SelectField({
  label,
  error,
  hint,
  className,
  ref,
  id: givenId,
  children,
  ...select
}: Common & SelectHTMLAttributes<HTMLSelectElement> & { ref?: Ref<HTMLSelectElement> }) {
  const autoId = useId();
  const id = givenId ?? autoId;
  const hydrated = useHydrated(); // a select cannot be read-only: disabled until then
  return (
    <Frame id={id} label={label} error={error} hint={hint} className={className}>
      <select
        ref={ref}
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        className={`${control} ${error ? 'border-red-700' : 'border-slate-400'}`}
        {...select}
        disabled={select.disabled || !hydrated}
      >
        {children}
      </select>
    </Frame>
  );
}

/** Live character count for a length-limited field: "23/50", red when over. */
export function CharCount({ value, max }: { value: string; max: number }) {
  const over = value.length > max;
  return (
    <span className={`text-xs tabular ${over ? 'font-bold text-red-800' : 'text-slate-600'}`}>
      {value.length}/{max}
      {over && ' (excedido)'}
    </span>
  );
}
