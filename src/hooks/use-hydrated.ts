import { useSyncExternalStore } from 'react';

const never = () => () => undefined;

/**
 * False on the app server and while React adopts what the server painted (hydration), true
 * once the component is React's; true from the start where React built the page itself. A
 * field the server painted takes no keys before then (`readOnly`): what was typed into it
 * would be the browser's, not React's, and lost at its next render.
 */
export const useHydrated = (): boolean =>
  useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
