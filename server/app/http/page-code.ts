// A painted page's code starts after its first paint. The page the server painted is whole
// without any script (and `inert` until React has adopted it), so the app's code has nothing
// to add to the first paint: fetched beside the stylesheet, as Vite's index.html has it, it
// shares a slow link with the stylesheet the paint waits for. The page lists its code in
// `<script id="app-code" type="application/json">` and PAGE_CODE_LOADER, an inline script the
// Content-Security-Policy allows by its hash, adds the module script and its module preloads
// once the browser reports the first contentful paint (or after a second, whichever is first:
// a page opened in a background tab paints only when shown).
import { createHash } from 'node:crypto';

export const PAGE_CODE_ID = 'app-code';

/** ES5, no template: its text is hashed as it stands. */
export const PAGE_CODE_LOADER =
  '(function(){' +
  `var list=JSON.parse(document.getElementById('${PAGE_CODE_ID}').textContent),started=false;` +
  'function start(){if(started)return;started=true;' +
  'for(var i=1;i<list.length;i++){var link=document.createElement("link");' +
  'link.rel="modulepreload";link.crossOrigin="";link.href=list[i];document.head.appendChild(link)}' +
  'var script=document.createElement("script");script.type="module";script.crossOrigin="";' +
  'script.src=list[0];document.head.appendChild(script)}' +
  'try{new PerformanceObserver(function(entries){' +
  'if(entries.getEntriesByName("first-contentful-paint").length>0)start()' +
  '}).observe({type:"paint",buffered:true})}catch(e){start()}' +
  'setTimeout(start,1000)})()';

/** The loader's CSP source: `'sha256-…'` of its text. */
export const PAGE_CODE_LOADER_HASH = `'sha256-${createHash('sha256')
  .update(PAGE_CODE_LOADER)
  .digest('base64')}'`;

/** Vite's tags in index.html: the entry, and the module preloads of its static imports. */
const MODULE_SCRIPT = /<script type="module" crossorigin src="([^"]+)"><\/script>\s*/g;
const MODULE_PRELOAD = /<link rel="modulepreload" crossorigin href="([^"]+)">\s*/g;

/**
 * `html` (index.html as built) with its module script and module preloads taken out and
 * `extra` (a route's chunk and its imports) added to them, started by the loader after the
 * first paint. Unchanged, with `extra` as preloads, if it has not exactly one module script.
 */
export function deferPageCode(html: string, extra: readonly string[]): string {
  const entries: string[] = [];
  const preloads: string[] = [];
  const rest = html
    .replace(MODULE_SCRIPT, (_, src: string) => (entries.push(src), ''))
    .replace(MODULE_PRELOAD, (_, href: string) => (preloads.push(href), ''));
  if (entries.length !== 1) return insertIntoHead(html, modulePreloads(extra));
  const list = JSON.stringify([...entries, ...preloads, ...extra]).replace(/</g, '\\u003c');
  return insertIntoHead(
    rest,
    `<script id="${PAGE_CODE_ID}" type="application/json">${list}</script>` +
      `<script>${PAGE_CODE_LOADER}</script>`,
  );
}

/** `<link rel=modulepreload>` for each URL (a page that was not painted loads as built). */
export function modulePreloads(urls: readonly string[]): string {
  return urls.map((url) => `<link rel="modulepreload" crossorigin href="${url}">`).join('');
}

/** `html` with `insert` at the end of its head (or body, or the document). */
export function insertIntoHead(html: string, insert: string): string {
  for (const tag of ['</head>', '</body>']) {
    const at = html.indexOf(tag);
    if (at >= 0) return html.slice(0, at) + insert + html.slice(at);
  }
  return html + insert;
}
