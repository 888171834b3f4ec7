import type { ReactNode } from 'react';

/** A column of a table drawn from a list: its header, its cells' classes, and a row's cell. */
export type Column<R> = {
  header: string;
  /** Classes of its header cell and of each of its cells (beside the table's own). */
  th?: string;
  td?: string;
  cell: (row: R) => ReactNode;
};

/** The header row of `columns` (`className`: every header cell's). */
export function HeaderRow<R>({
  columns,
  className,
}: {
  columns: readonly Column<R>[];
  className: string;
}) {
  return (
    <tr>
      {columns.map((c) => (
        <th key={c.header} scope="col" className={`${className} ${c.th ?? ''}`}>
          {c.header}
        </th>
      ))}
    </tr>
  );
}

/** A body row per item of `rows`, a cell per column (`cell`: every cell's classes). */
export function BodyRows<R>({
  columns,
  rows,
  rowKey,
  row: rowClass,
  cell: cellClass,
}: {
  columns: readonly Column<R>[];
  rows: readonly R[];
  rowKey: (row: R) => string | number;
  row: string;
  cell: string;
}) {
  return rows.map((r) => (
    <tr key={rowKey(r)} className={rowClass}>
      {columns.map((c) => (
        <td key={c.header} className={`${cellClass} ${c.td ?? ''}`}>
          {c.cell(r)}
        </td>
      ))}
    </tr>
  ));
}
