// The first view of each page, rendered by the SPA's own code (src/app/render-page.tsx, which
// `npm run build` compiles into dist-ssr/ beside dist/): the page shows the whole screen before
// any of the app's JavaScript has arrived, and the browser adopts it (hydrates) instead of
// building it again. Without that build, or if a render fails, the page goes out with an empty
// root and the SPA renders itself, as it always can.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Logger } from 'pino';

type RenderPage = (
  config: unknown,
  href: string,
  onError?: (error: unknown) => void,
) => Promise<string>;

/** Pages rendered for the same config and address are the same markup: kept, this many. */
const CACHED_PAGES = 200;

/**
 * `render(data, href)`: the markup of `<div id="root">` for the page at `href` (path and
 * query) from the config the page carries, or '' when there is nothing to paint.
 */
export function pageRenderer(distDir: string, logger: Logger) {
  const file = path.join(path.dirname(path.resolve(distDir)), 'dist-ssr', 'render-page.js');
  let loaded: { version: string; render: RenderPage | null } | null = null;
  const cache = new Map<string, string>();

  /** The render function of the build on disk now (a new build is imported afresh). */
  async function current(): Promise<RenderPage | null> {
    let version: string;
    try {
      const st = await stat(file);
      version = `${st.size}-${st.mtimeMs}`;
    } catch {
      return null; // not built: pages go out unpainted
    }
    if (loaded?.version !== version) {
      cache.clear();
      let render: RenderPage | null = null;
      try {
        const url = `${pathToFileURL(file).href}?v=${encodeURIComponent(version)}`;
        render = ((await import(url)) as { renderPage: RenderPage }).renderPage;
      } catch (err) {
        logger.error({ err }, 'page render: the build in dist-ssr does not load');
      }
      loaded = { version, render };
    }
    return loaded.render;
  }

  return async function render(data: unknown, href: string): Promise<string> {
    const renderPage = await current();
    if (renderPage === null) return '';
    const key = `${href}\n${JSON.stringify(data)}`;
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    try {
      const html = await renderPage(data, href, (err) =>
        logger.warn({ err, href }, 'page render: a part is left to the browser'),
      );
      if (cache.size >= CACHED_PAGES) cache.delete(cache.keys().next().value!);
      cache.set(key, html);
      return html;
    } catch (err) {
      logger.error({ err, href }, 'page render failed: the page goes out unpainted');
      return '';
    }
  };
}
