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
