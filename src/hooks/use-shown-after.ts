import { useEffect, useState } from 'react';

/**
 * `on`, but only once it has stayed true for `ms`: a wait indicator that a quick answer never
 * flashes (and never makes the browser paint a state the answer replaces a moment later).
 * False again as soon as `on` is; a new wait waits its own delay.
 */
export function useShownAfter(on: boolean, ms: number): boolean {
  const [shown, setShown] = useState(false);
  // Reset while rendering (React's pattern for state derived from a prop), not in an effect.
  if (!on && shown) setShown(false);
  useEffect(() => {
    if (!on) return;
    const timer = window.setTimeout(() => setShown(true), ms);
    return () => window.clearTimeout(timer);
  }, [on, ms]);
  return on && shown;
}
