// The app server's render of a page's first view (built apart: `vite build --ssr`, into
// dist-ssr/). The page then shows the whole screen, the counter with its "Abrir turno"
// dialog, before any of the app's JavaScript has arrived, and the browser hydrates it
// (src/app/main.tsx): React adopts these elements instead of building the screen again, so
// after the first paint nothing is created and laid out anew.
import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { Config } from '#contract/api/config';
import { App } from './app';

/**
 * The markup of `<div id="root">` for the page at `href` (path and query), as the app's first
 * render in the browser produces it from the config the page carries (read with the same
 * schema). Lazy parts are waited for. Throws if the config does not read or the app's shell
 * fails to render; a part that fails is left for the browser to render.
 */
export async function renderPage(
  pageConfig: unknown,
  href: string,
  onError: (error: unknown) => void = () => undefined,
): Promise<string> {
  const config = Config.parse(pageConfig);
  const { prelude } = await prerender(
    <StrictMode>
      <App page={{ config, href }} />
    </StrictMode>,
    { onError },
  );
  const html = await new Response(prelude).text();
  // A focus is the app's to give once it runs: an `autofocus` in the page makes the browser
  // lay the page out before its stylesheet has arrived (125 ms on this machine) and hands the
  // keys to a field React has not adopted yet. React renders the attribute as exactly this.
  return html.replaceAll(' autofocus=""', '');
}
