// The counter's heavier parts (forms, basket, customer and not-found panels, a posting's
// status; the enrollment screen too, which an enrolled terminal never shows) load in their
// own chunk, so the first paint of the counter needs only the shell
// and the search field. The chunk is fetched as soon as the counter is idle, long before
// the cashier finishes typing a phone.
import { lazy, Suspense, useState, type ComponentType, type ReactNode } from 'react';

type Heavy = typeof import('./counter-heavy');

/** The chunk once it has loaded: from then on its parts render synchronously. */
let loaded: Heavy | null = null;
let loading: Promise<Heavy> | null = null;
const load = (): Promise<Heavy> =>
  (loading ??= import('./counter-heavy').then((m) => (loaded = m)));

/**
 * One part of the chunk. `React.lazy` alone suspends on its first render even when the chunk
 * is already here (its factory's promise settles a microtask later), and React then holds the
 * revealed content for its 300 ms throttle: the first search after a load paid ~350 ms. A part
 * mounted after the chunk loaded renders the component directly instead; one mounted before
 * stays on its lazy wrapper for its whole life (switching would remount it and lose its state).
 */
function part<K extends keyof Heavy>(name: K) {
  type Props = Heavy[K] extends ComponentType<infer P> ? P : never;
  const Lazy = lazy(() =>
    load().then((m) => ({ default: m[name] as unknown as ComponentType<Props> })),
  );
  function Part(props: Props) {
    const [direct] = useState(() => loaded !== null);
    const Component =
      direct && loaded !== null ? (loaded[name] as unknown as ComponentType<Props>) : Lazy;
    return <Component {...(props as Props & object)} />;
  }
  // For React's developer tools only: the production build leaves it out.
  if (import.meta.env.DEV) Part.displayName = `Part(${String(name)})`;
  return Part;
}

export const SalePanel = part('SalePanel');
export const PostedPanel = part('PostedPanel');
/** The customer's rewards waiting to be handed over (in the customer's panel). */
export const PendingRewards = part('PendingRewards');
export const CustomerPanel = part('CustomerPanel');
export const RegisterForm = part('RegisterForm');
export const PostingStatus = part('PostingStatus');
export const NotFoundPanel = part('NotFoundPanel');
/** A failed search (the service unavailable: a sale by phone can still be kept). */
export const LookupFailed = part('LookupFailed');
export const LedgerDialog = part('LedgerDialog');
/** The header's contingency state (the service down, sales waiting). */
export const ContingencyBanner = part('ContingencyBanner');
/** Only a browser that is not (or no longer) a terminal sees it. */
export const EnrollScreen = part('EnrollScreen');
/** The attendant password, asked whenever the shift is closed. */
export const ShiftDialog = part('ShiftDialog');

// The kiosk's counter side is its own chunk (the kiosk feature), fetched when shown.
export const SendToKiosk = lazy(() => import('@/features/kiosk/send-to-kiosk'));

export const prefetchCounterParts = (): Promise<unknown> => load();

/**
 * A white card; `lazy` for content from the counter's second chunk (shows "Carregando…").
 *
 * `isolate`: each card of the counter (and its header and shortcut bar) is a stacking context
 * of its own, so the browser repaints only the card a key changed and reuses the others' paint
 * as it was. A key in the amount or search field then costs about 2 ms less to draw (the
 * frame's pre-paint, paint and hover update; measured with a trace of 72 keys). Nothing on the
 * counter uses z-index, so no layer order changes.
 */
export function Panel({ children, lazy = false }: { children: ReactNode; lazy?: boolean }) {
  const card = (
    <div className="isolate rounded-lg border border-slate-300 bg-white p-4">{children}</div>
  );
  return lazy ? <Loading>{card}</Loading> : card;
}

export function Loading({ children }: { children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <p role="status" className="rounded-lg border border-slate-300 bg-white p-4 text-slate-700">
          Carregando…
        </p>
      }
    >
      {children}
    </Suspense>
  );
}
