import type { ButtonHTMLAttributes, ReactNode, Ref } from 'react';

type Variant = 'primary' | 'secondary' | 'danger' | 'ghost' | 'success';

const variants: Record<Variant, string> = {
  primary: 'bg-blue-700 text-white hover:bg-blue-800 disabled:bg-slate-400',
  success: 'bg-emerald-700 text-white hover:bg-emerald-800 disabled:bg-slate-400',
  secondary:
    'bg-white text-slate-900 border border-slate-400 hover:bg-slate-50 disabled:text-slate-500',
  danger: 'bg-red-700 text-white hover:bg-red-800 disabled:bg-slate-400',
  ghost: 'text-blue-800 hover:bg-blue-50 disabled:text-slate-500',
};

type Size = 'sm' | 'md' | 'lg';

// Heights live only here: a `className` should place a button, never resize it (two
// `min-h-*` classes in one list do not override each other by order).
const sizes: Record<Size, string> = {
  sm: 'min-h-9 px-3 py-1 text-sm',
  md: 'min-h-11 px-4 text-base',
  lg: 'min-h-14 px-6 text-lg',
};

type Props = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: Variant;
  /** sm: 36 px high, for toolbars; md: 44 px, the touch-friendly default; lg: 56 px. */
  size?: Size;
  /** A keyboard shortcut shown on the button, e.g. "F8". */
  shortcut?: string;
  busy?: boolean;
  children: ReactNode;
  ref?: Ref<HTMLButtonElement>;
};

export function Button({
  variant = 'primary',
  size = 'md',
  shortcut,
  busy = false,
  className = '',
  children,
  type = 'button',
  ...rest
}: Props) {
  // No color transition: the post button turns enabled and disabled as the amount is typed,
  // and a 150 ms fade keeps the page drawing frames, so the next keys wait for the display's
  // frame clock instead of being painted at once.
  return (
    <button
      type={type}
      aria-busy={busy || undefined}
      className={`inline-flex items-center justify-center gap-2 rounded-md font-semibold disabled:cursor-not-allowed ${sizes[size]} ${variants[variant]} ${className}`}
      {...rest}
    >
      {busy && (
        <span
          aria-hidden="true"
          className="size-4 animate-spin rounded-full border-2 border-current border-r-transparent"
        />
      )}
      {children}
      {shortcut && (
        // No key hint on a phone-wide screen: it has no keyboard, and the room is the field's.
        <kbd className="rounded border border-current/40 px-1.5 text-xs font-medium opacity-90 max-sm:hidden">
          {shortcut}
        </kbd>
      )}
    </button>
  );
}
