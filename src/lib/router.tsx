import {
  createContext,
  use,
  useSyncExternalStore,
  type AnchorHTMLAttributes,
  type MouseEvent,
} from 'react';

// Kept here, not a library: a few lines of history routing instead of a router dependency;
// the app has three top-level screens and query-string state, nothing nested.

const NAVIGATE_EVENT = 'app:navigate';

function subscribe(onChange: () => void) {
  window.addEventListener('popstate', onChange);
  window.addEventListener(NAVIGATE_EVENT, onChange);
  return () => {
    window.removeEventListener('popstate', onChange);
    window.removeEventListener(NAVIGATE_EVENT, onChange);
  };
}

const getLocation = () => window.location.pathname + window.location.search;

/**
 * The page's path and query when the app server renders it (src/app/render-page.tsx). In the
 * browser there is none: hydration reads the real location, the one the server rendered.
 */
export const ServerLocation = createContext<string | null>(null);

export function useLocation(): { pathname: string; search: URLSearchParams } {
  const server = use(ServerLocation);
  const href = useSyncExternalStore(subscribe, getLocation, () => server ?? getLocation());
  const url = new URL(href, 'http://local');
  return { pathname: url.pathname, search: url.searchParams };
}

export function navigate(to: string, opts: { replace?: boolean } = {}) {
  if (to === getLocation()) return;
  if (opts.replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  window.dispatchEvent(new Event(NAVIGATE_EVENT));
}

type LinkProps = AnchorHTMLAttributes<HTMLAnchorElement> & { href: string };

/** An ordinary link that navigates in-app on a plain left click. */
export function Link({ href, onClick, ...rest }: LinkProps) {
  const handle = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey)
      return;
    e.preventDefault();
    navigate(href);
  };
  return <a href={href} onClick={handle} {...rest} />;
}
