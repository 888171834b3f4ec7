import type { ReactNode } from 'react';

/**
 * The box of a field typed at a cashier's pace. Its size does not depend on what it holds
 * (`contain: size layout`), so a key that changes the field's text has the browser lay out this
 * box alone, not the page's path up to it. A flex item cannot be such a boundary (its size
 * comes from its container), so the contained box sits inside a plain one, which `className`
 * places. `height` is the field's own height, in rem (it follows the root's font size); the
 * field fills the box (`size-full`).
 */
export function TypingBox({
  className = '',
  height,
  children,
}: {
  className?: string;
  height: string;
  children: ReactNode;
}) {
  return (
    <div className={className}>
      <div className={`w-full [contain:size_layout] ${height}`}>{children}</div>
    </div>
  );
}
