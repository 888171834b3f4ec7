import { useLayoutEffect, useRef } from 'react';

/**
 * The app's one "latest value" idiom: a ref that always holds the value of the last render,
 * for callbacks and effects that must call the newest props without re-subscribing.
 * (`useEffectEvent` only serves Effects; these are also read from event handlers and
 * async work.) Read it only in handlers and effects, never during render.
 */
export function useLatest<T>(value: T): { readonly current: T } {
  const ref = useRef(value);
  useLayoutEffect(() => {
    ref.current = value;
  });
  return ref;
}
