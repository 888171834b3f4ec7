// The counter's heavier parts (forms, basket, customer and not-found panels, a posting's
// status) load in their own chunk, so the first paint of the counter needs only the shell
// and the search field. The chunk is fetched as soon as the counter is idle, long before
// the cashier finishes typing a phone.
import { lazy, Suspense, type ReactNode } from 'react';

const load = () => import('./counter-heavy');

export const SalePanel = lazy(() => load().then((m) => ({ default: m.SalePanel })));
export const PostedPanel = lazy(() => load().then((m) => ({ default: m.PostedPanel })));
export const CustomerPanel = lazy(() => load().then((m) => ({ default: m.CustomerPanel })));
export const RegisterForm = lazy(() => load().then((m) => ({ default: m.RegisterForm })));
export const PostingStatus = lazy(() => load().then((m) => ({ default: m.PostingStatus })));
export const NotFoundPanel = lazy(() => load().then((m) => ({ default: m.NotFoundPanel })));
export const LedgerDialog = lazy(() => load().then((m) => ({ default: m.LedgerDialog })));

export function prefetchCounterParts(): void {
  void load();
}

/** A white card; `lazy` for content from the counter's second chunk (shows "Carregando…"). */
export function Panel({ children, lazy = false }: { children: ReactNode; lazy?: boolean }) {
  const card = <div className="rounded-lg border border-slate-300 bg-white p-4">{children}</div>;
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
