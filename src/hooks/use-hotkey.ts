import { useEffect } from 'react';
import { useLatest } from './use-latest';

/**
 * A keyboard shortcut on the whole window (`key` as in KeyboardEvent.key: 'F2', 'Escape').
 * While `enabled`, the key's browser default is prevented and `handler` runs; while not,
 * the key does what it does by default.
 */
export function useHotkey(key: string, handler: () => void, enabled = true): void {
  const latest = useLatest(handler);
  useEffect(() => {
    if (!enabled) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== key || e.defaultPrevented) return;
      e.preventDefault();
      latest.current();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [key, enabled, latest]);
}
