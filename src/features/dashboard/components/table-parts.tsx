// The dashboard's building blocks: a figure, a titled section and a table that scrolls inside
// itself on a narrow screen, with the cell classes every table of the dashboard uses.
import { useId } from 'react';

const th = 'px-3 py-2 text-left font-semibold';
const thNum = 'px-3 py-2 text-right font-semibold';
const td = 'border-t border-slate-200 px-3 py-1.5';
const tdNum = `${td} text-right tabular-nums`;

/** A table that scrolls inside itself on a narrow screen, never the page. */
function TableBox({ children, label }: { children: React.ReactNode; label: string }) {
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

/**
 * The dashboard's tables: a header row, then one row a thing (its name as the row's header)
 * with its numbers, already formatted, right-aligned.
 */
export function NumberTable({
  label,
  first,
  columns,
  rows,
}: {
  label: string;
  /** The header of the names' column. */
  first: string;
  columns: readonly string[];
  rows: readonly { key: string; name: string; cells: readonly string[] }[];
}) {
  return (
    <TableBox label={label}>
      <thead className="bg-slate-100">
        <tr>
          <th scope="col" className={th}>
            {first}
          </th>
          {columns.map((c) => (
            <th key={c} scope="col" className={thNum}>
              {c}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map(({ key, name, cells }) => (
          <tr key={key}>
            <th scope="row" className={`${td} text-left font-normal`}>
              {name}
            </th>
            {cells.map((c, i) => (
              <td key={i} className={tdNum}>
                {c}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </TableBox>
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
