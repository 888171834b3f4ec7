import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import '../index.css';
import { App, routeReady } from './app';

const root = document.getElementById('root');
if (!root) throw new Error('#root missing from index.html');
// The first render is a transition: React yields to the browser between components, so a tap
// or keystroke during start-up is answered at once instead of after the whole tree (mobile TBT).
void routeReady(location.pathname).then(() =>
  startTransition(() =>
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  ),
);
