// The filter bar of a manager's filtered list (the audit trail, Vigilância's alerts): the
// fields' draft, what it reads as, and the form that applies it. Only the manager screens'
// lazy chunks import it.
import { useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';

/** What a filter bar's draft reads as: the list's filters, or what is wrong by field. */
export type DraftRead<D, F> = { filters: F } | { errors: Partial<D> };

/**
 * A filter bar's draft (the fields' texts) and its errors by field; `apply` reads the draft and
 * hands its filters to `onApply`, or shows the errors under their fields.
 */
export function useFilterDraft<D extends Record<string, string>, F>(
  initial: D,
  read: (draft: D) => DraftRead<D, F>,
  onApply: (filters: F) => void,
) {
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<Partial<D>>({});
  return {
    draft,
    errors,
    /** The setter of one field's text. */
    set: (k: keyof D) => (v: string) => setDraft((d) => ({ ...d, [k]: v })),
    apply: () => {
      const result = read(draft);
      setErrors('errors' in result ? result.errors : {});
      if ('filters' in result) onApply(result.filters);
    },
  };
}

/** A list's filters in a row that wraps, "Filtrar" last; sending it calls `onApply`. */
export function FilterBar({
  label,
  onApply,
  children,
}: {
  label: string;
  onApply: () => void;
  children: ReactNode;
}) {
  return (
    <form
      aria-label={label}
      className="flex flex-wrap items-end gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        onApply();
      }}
    >
      {children}
      <Button type="submit" size="sm">
        Filtrar
      </Button>
    </form>
  );
}
