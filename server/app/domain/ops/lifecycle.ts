/**
 * The process's life as the http areas see it: serving, or draining before a restart (SIGTERM).
 * While draining, /readyz answers 503 and open event streams end with a retry hint.
 */
export interface Lifecycle {
  draining(): boolean;
  /** Starts draining (once): every listener is called. */
  drain(): void;
  /** Called when draining starts (at once if it already has); returns the unsubscribe. */
  onDrain(listener: () => void): () => void;
}

export function createLifecycle(): Lifecycle {
  let draining = false;
  const listeners = new Set<() => void>();
  return {
    draining: () => draining,
    drain() {
      if (draining) return;
      draining = true;
      for (const listener of [...listeners]) listener();
      listeners.clear();
    },
    onDrain(listener) {
      if (draining) {
        listener();
        return () => undefined;
      }
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
