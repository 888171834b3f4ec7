import { startTransition, useEffect, useState } from 'react';

/**
 * How many of a screen's `count` parts to draw: the first at once, then one more after each
 * commit, each in a transition of its own. A screen of tables and cards drawn whole is one long
 * commit (the DOM of every part, then its layout), which a slow phone feels as a page that
 * takes no tap; in stages, each part's commit is a task of its own, the first part (the top of
 * the page) first. Once every part is drawn, it stays so: new data redraws them all at once.
 */
export function useStaged(count: number): number {
  const [shown, setShown] = useState(1);
  const done = shown >= count;
  useEffect(() => {
    if (!done) startTransition(() => setShown((n) => n + 1));
  }, [shown, done]);
  return done ? count : shown;
}
