import { useEffect, useState } from 'react';

/**
 * Runs `fn` once the browser is idle after drawing the frame under way, within 50 ms (where
 * there are no idle callbacks, as in jsdom, a task later). Answers the cancel.
 */
export function afterPaint(fn: () => void): () => void {
  if (typeof requestIdleCallback !== 'function') {
    const timer = setTimeout(fn, 0);
    return () => clearTimeout(timer);
  }
  const idle = requestIdleCallback(fn, { timeout: 50 });
  return () => cancelIdleCallback(idle);
}

/**
 * `value`, a frame late: a change shows once the browser is idle after drawing the frame that
 * answers the key (or the tap) that made it, within 50 ms. For what goes with a field but is
 * not the field: the key's own frame then draws only what the key changed there. Where the
 * browser has no idle callbacks (jsdom), a task later.
 */
export function useAfterPaint<T>(value: T): T {
  const [shown, setShown] = useState(value);
  useEffect(() => {
    if (Object.is(shown, value)) return;
    return afterPaint(() => setShown(value));
  }, [value, shown]);
  return shown;
}
