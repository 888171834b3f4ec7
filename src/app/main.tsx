import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '../index.css';
import { App, routeReady } from './app';

const root = document.getElementById('root');
if (!root) throw new Error('#root missing from index.html');
void routeReady(location.pathname).then(() =>
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
