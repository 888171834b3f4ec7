import { StrictMode, startTransition, useLayoutEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import '../index.css';
import { Config } from '#contract/api/config';
import { buildSchema } from '#contract/lazy-schema';
import { App, routeReady } from './app';

const root = document.getElementById('root');
if (!root) throw new Error('#root missing from index.html');
// `data-ssr`: the app server painted the first view (src/app/render-page.tsx); React adopts
// those elements (hydrates) instead of building them again.
const painted = root.hasAttribute('data-ssr');
/**
 * The painted page is `inert` until React has adopted it (see the app server's static.ts): a
 * tap before then would land on a button with no handler yet. Rendered before the app, so its
 * effect runs before the app's own (an `inert` page takes no focus). With a dialog painted
 * open (the shift's password), the page stays inert until that dialog opens modal or closes
 * (lib/modal.ts).
 */
function Adopted() {
  useLayoutEffect(() => {
    if (!root?.querySelector('dialog[open]')) root?.removeAttribute('inert');
  }, []);
  return null;
}

const app = (
  <StrictMode>
    <Adopted />
    <App />
  </StrictMode>
);
// The first render is a transition: React yields to the browser between components, so a tap
// or keystroke during start-up is answered at once instead of after the whole tree (mobile TBT).
// Each step of the start-up in a task of its own: evaluating the entry's modules, building the
// page config's schema (at its first use), reading the config and the view's code, then the
// render; together they were the longest task after the first paint on /premios and /painel.
const nextTask = () => new Promise((next) => setTimeout(next, 0));
void nextTask()
  .then(() => buildSchema(Config))
  .then(nextTask)
  .then(() => routeReady(location.pathname, painted))
  .then(() =>
    startTransition(() => {
      if (painted) hydrateRoot(root, app);
      else createRoot(root).render(app);
    }),
  );
