// A table that never scrolls sideways: while its columns fit its box it is a table; where they
// do not (a manager's phone), each row becomes a card, its values named by the column headers.
// The switch follows what is measured (the table's width against its box's), not a guessed
// breakpoint, so it holds at every width, for every set of rows and with any font.
import { useId, useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from 'react';

export type FitColumn = {
  header: string;
  /** Right-aligned, tabular figures. */
  numeric?: boolean;
  /** More classes for this column's cells (e.g. `whitespace-nowrap`), in a card too. */
  cell?: string;
};

export type FitRow = { key: string; cells: readonly ReactNode[] };

type Props = {
  /** The table's name (its box's and the cards list's). */
  label: string;
  /** The table's caption, read before it (default: the label). */
  caption?: string;
  columns: readonly FitColumn[];
  rows: readonly FitRow[];
  /** The column that names each row: its header cell, and each card's title. */
  rowHeader?: number;
  /** `figures`: short values, two to a line on a card; `text`: one under its name. */
  cards?: 'figures' | 'text';
  className?: string;
};

const th = 'px-3 py-2 text-left font-semibold align-bottom';
const td = 'border-t border-slate-200 px-3 py-1.5 align-top';

/**
 * Whether the rows show as cards: once the table was measured wider than its box, until the
 * box is at least that wide again. Other rows (another period, another page: other keys) are
 * measured as a table again, before the paint. Without ResizeObserver (jsdom) it stays a table.
 */
function useCards(rows: readonly FitRow[]) {
  const box = useRef<HTMLDivElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const table = useRef<HTMLTableElement>(null);
  const keys = rows.map((r) => r.key).join('\n');
  /** These rows' table was `needs` px wide (0: it fitted) in a box `width` px wide. */
  const [seen, setSeen] = useState<{ keys: string; needs: number; width: number }>();
  const cards = seen !== undefined && seen.keys === keys && seen.width < seen.needs;

  useLayoutEffect(() => {
    const outer = box.current;
    if (outer === null || typeof ResizeObserver !== 'function') return;
    const measure = () => {
      const t = table.current;
      const s = scroller.current;
      if (t !== null && s !== null) {
        const needs = t.offsetWidth > s.clientWidth ? t.offsetWidth : 0;
        const width = s.clientWidth;
        setSeen((prev) =>
          prev?.keys === keys && prev.needs === needs && prev.width === width
            ? prev
            : { keys, needs, width },
        );
      } else {
        // Cards: the table box's borders are to spare.
        const width = outer.clientWidth - 2;
        setSeen((prev) =>
          prev && prev.keys === keys && prev.width !== width ? { ...prev, width } : prev,
        );
      }
    };
    measure(); // before the first paint: a phone never sees the table flash
    const observer = new ResizeObserver(measure);
    observer.observe(outer);
    if (table.current) observer.observe(table.current);
    return () => observer.disconnect();
  }, [cards, keys]);
  return { cards, box, scroller, table };
}

export function FitTable({
  label,
  caption = label,
  columns,
  rows,
  rowHeader = 0,
  cards: layout = 'figures',
  className = '',
}: Props) {
  const { cards, box, scroller, table } = useCards(rows);
  return (
    <div ref={box} className={`min-w-0 ${className}`}>
      {cards ? (
        <Cards label={label} columns={columns} rows={rows} rowHeader={rowHeader} layout={layout} />
      ) : (
        <Table
          label={label}
          caption={caption}
          columns={columns}
          rows={rows}
          rowHeader={rowHeader}
          scroller={scroller}
          table={table}
        />
      )}
    </div>
  );
}

function Table({
  label,
  caption,
  columns,
  rows,
  rowHeader,
  scroller,
  table,
}: Required<Pick<Props, 'label' | 'caption' | 'columns' | 'rows' | 'rowHeader'>> & {
  scroller: RefObject<HTMLDivElement | null>;
  table: RefObject<HTMLTableElement | null>;
}) {
  const align = (c: FitColumn) => (c.numeric ? 'text-right tabular-nums' : 'text-left');
  return (
    // Never wider than the page: were it ever to overflow before it turns into cards, it
    // scrolls inside itself; the box takes the focus so the keyboard can scroll it too.
    <div
      ref={scroller}
      className="overflow-x-auto rounded-md border border-slate-300 bg-white"
      role="region"
      aria-label={label}
      tabIndex={0}
    >
      <table ref={table} className="w-full text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-100">
          <tr>
            {columns.map((c) => (
              <th key={c.header} scope="col" className={`${th} ${align(c)}`}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key}>
              {columns.map((c, i) =>
                i === rowHeader ? (
                  <th
                    key={c.header}
                    scope="row"
                    className={`${td} ${c.cell ?? 'font-normal'} text-left`}
                  >
                    {r.cells[i]}
                  </th>
                ) : (
                  <td key={c.header} className={`${td} ${align(c)} ${c.cell ?? ''}`}>
                    {r.cells[i]}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Cards({
  label,
  columns,
  rows,
  rowHeader,
  layout,
}: Required<Pick<Props, 'label' | 'columns' | 'rows' | 'rowHeader'>> & {
  layout: 'figures' | 'text';
}) {
  const id = useId();
  // Many short figures two to a line; a few, or text, one to a line.
  const pairs = layout === 'figures' && columns.length > 4;
  return (
    <div>
      {/* The table's caption, shown: the cards have no header row to say what they are. */}
      <p id={id} className="mb-1 text-sm font-semibold text-slate-700">
        {label}
      </p>
      <ul aria-labelledby={id} className="space-y-2">
        {rows.map((r) => (
          <li key={r.key} className="rounded-md border border-slate-300 bg-white p-3 text-sm">
            <p className="font-semibold break-words">{r.cells[rowHeader]}</p>
            <dl className={`mt-1 grid gap-x-4 gap-y-1 ${pairs ? 'grid-cols-2' : ''}`}>
              {columns.map((c, i) =>
                i === rowHeader ? null : (
                  <div
                    key={c.header}
                    className={
                      layout === 'figures'
                        ? 'flex flex-wrap items-baseline justify-between gap-x-2'
                        : 'min-w-0 break-words'
                    }
                  >
                    <dt className="text-slate-700">{c.header}</dt>
                    <dd
                      className={
                        c.numeric ? 'ml-auto font-semibold whitespace-nowrap tabular-nums' : c.cell
                      }
                    >
                      {r.cells[i]}
                    </dd>
                  </div>
                ),
              )}
            </dl>
          </li>
        ))}
      </ul>
    </div>
  );
}
