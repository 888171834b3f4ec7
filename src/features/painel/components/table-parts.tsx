// The dashboard's building blocks: a figure, a titled section and its number tables (cards on
// a phone, never scrolling sideways).
import { useId } from 'react';
import { FitTable } from '@/components/ui/fit-table';

/**
 * The dashboard's tables: a header row, then one row a thing (its name as the row's header)
 * with its numbers, already formatted, right-aligned. Where they do not fit (a phone), one
 * card a thing; with no rows, the `empty` line if given.
 */
export function NumberTable({
  label,
  first,
  columns,
  rows,
  empty,
}: {
  label: string;
  /** The header of the names' column. */
  first: string;
  columns: readonly string[];
  rows: readonly { key: string; name: string; cells: readonly string[] }[];
  empty?: string;
}) {
  if (empty !== undefined && rows.length === 0) return <p className="text-slate-700">{empty}</p>;
  return (
    <FitTable
      label={label}
      columns={[{ header: first }, ...columns.map((header) => ({ header, numeric: true }))]}
      rows={rows.map(({ key, name, cells }) => ({ key, cells: [name, ...cells] }))}
    />
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
