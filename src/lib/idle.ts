/** Runs `fn` once the browser is idle (soon after, where requestIdleCallback is missing). */
export const whenIdle = (fn: () => void): void =>
  void (window.requestIdleCallback ?? ((f: () => void) => window.setTimeout(f, 1)))(fn);
