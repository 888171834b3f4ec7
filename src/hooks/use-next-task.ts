import { useEffect, useState } from 'react';

/**
 * False on the first render, true from a task after it. For a screen's second request: starting
 * a request (a fetch and its abort signals) costs a few ms on a slow phone, and a screen that
 * starts all of its requests as it mounts does so in one long task.
 */
export function useNextTask(): boolean {
  const [later, setLater] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setLater(true), 0);
    return () => clearTimeout(timer);
  }, []);
  return later;
}
