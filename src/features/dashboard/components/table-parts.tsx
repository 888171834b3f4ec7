// The dashboard's building blocks: a figure, a titled section and a table that scrolls inside
// itself on a narrow screen, with the cell classes every table of the dashboard uses.
import { useId } from 'react';

export const th = 'px-3 py-2 text-left font-semibold';
export const thNum = 'px-3 py-2 text-right font-semibold';
export const td = 'border-t border-slate-200 px-3 py-1.5';
export const tdNum = `${td} text-right tabular-nums`;

/** A table that scrolls inside itself on a narrow screen, never the page. */
export function TableBox({ children, label }: { children: React.ReactNode; label: string }) {
  return (
    <div
      className="overflow-x-auto rounded-md border border-slate-300"
      role="region"
      aria-label={label}
      tabIndex={0}
    >
      <table className="w-full text-sm">
        <caption className="sr-only">{label}</caption>
        {children}
      </table>
    </div>
  );
}

export function Section({ title, children }: { title: string; children: React.ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="min-w-0 space-y-3">
      <h2 id={id} className="text-lg font-bold">
        {title}
      </h2>
      {children}
    </section>
  );
}

export function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-md border border-slate-300 bg-white p-3">
      <dt className="text-sm text-slate-700">{label}</dt>
      <dd className="text-2xl font-bold tabular-nums">{value}</dd>
    </div>
  );
}
