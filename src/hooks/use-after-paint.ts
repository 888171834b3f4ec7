/**
 * Runs `fn` in a task right after the browser draws its next frame (where there are no
 * animation frames, a task later; jsdom has them, at 60 Hz). Answers the cancel.
 *
 * Not an idle callback: when the page has no idle period after a key, an idle callback waits
 * for its timeout, and its frame then comes so late that the next key's frame waits for the
 * display's clock instead of being drawn at once.
 */
export function afterPaint(fn: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (typeof requestAnimationFrame !== 'function') {
    timer = setTimeout(fn, 0);
    return () => clearTimeout(timer);
  }
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(fn, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}
