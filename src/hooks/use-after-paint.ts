import { useEffect, useState } from 'react';

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
    const show = () => setShown(value);
    if (typeof requestIdleCallback !== 'function') {
      const timer = setTimeout(show, 0);
      return () => clearTimeout(timer);
    }
    const idle = requestIdleCallback(show, { timeout: 50 });
    return () => cancelIdleCallback(idle);
  }, [value, shown]);
  return shown;
}
