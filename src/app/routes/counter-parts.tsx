// The counter's heavier parts (forms, basket, customer panel) load in their own chunk, so
// the first paint of the counter needs only the shell and the search field. The chunk is
// fetched as soon as the counter is idle, long before the cashier finishes typing a phone.
import { lazy } from 'react';

const load = () => import('./counter-heavy');

export const SalePanel = lazy(() => load().then((m) => ({ default: m.SalePanel })));
export const PostedPanel = lazy(() => load().then((m) => ({ default: m.PostedPanel })));
export const CustomerPanel = lazy(() => load().then((m) => ({ default: m.CustomerPanel })));
export const RegisterForm = lazy(() => load().then((m) => ({ default: m.RegisterForm })));

export function prefetchCounterParts(): void {
  void load();
}
