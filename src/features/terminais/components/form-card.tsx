import { useId, type ReactNode } from 'react';

/**
 * A card of the Terminais screen around one form: its title (also the form's name unless `formLabel`), what it
 * does, the fields with their button, then `after` (its outcome).
 */
export function FormCard({
  title,
  formLabel = title,
  intro,
  onSubmit,
  children,
  after,
}: {
  title: string;
  /** The form's name, when shorter than the title. */
  formLabel?: string;
  intro: ReactNode;
  onSubmit: () => void;
  children: ReactNode;
  after: ReactNode;
}) {
  const id = useId();
  return (
    <section
      aria-labelledby={id}
      className="space-y-3 rounded-md border border-slate-300 bg-white p-4"
    >
      <h2 id={id} className="text-lg font-bold">
        {title}
      </h2>
      <p className="text-sm text-slate-700">{intro}</p>
      <form
        aria-label={formLabel}
        noValidate
        className="flex flex-wrap items-start gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit();
        }}
      >
        {children}
      </form>
      {after}
    </section>
  );
}
