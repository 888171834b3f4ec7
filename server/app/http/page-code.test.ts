import { describe, expect, test } from 'vitest';
import { deferPageCode, PAGE_CODE_ID, PAGE_CODE_LOADER } from './page-code';

/** index.html as Vite builds it: the entry and the module preloads of its static imports. */
const BUILT =
  '<!doctype html><html><head><title>PDV</title>\n' +
  '    <script type="module" crossorigin src="/assets/index-a1.js"></script>\n' +
  '    <link rel="modulepreload" crossorigin href="/assets/react-dom-b2.js">\n' +
  '    <link rel="modulepreload" crossorigin href="/assets/jsx-c3.js">\n' +
  '    <link rel="stylesheet" crossorigin href="/assets/index-d4.css">\n' +
  '</head><body><div id="root"></div></body></html>';

function codeList(html: string): unknown {
  const m = new RegExp(`<script id="${PAGE_CODE_ID}" type="application/json">(.*?)</script>`).exec(
    html,
  );
  return m?.[1] === undefined ? null : JSON.parse(m[1]);
}

describe('deferPageCode', () => {
  test('the module script and preloads leave the page; the loader starts them, the route’s chunk after', () => {
    const html = deferPageCode(BUILT, ['/assets/premios-e5.js']);
    expect(html).not.toMatch(/<script type="module"/);
    expect(html).not.toMatch(/<link rel="modulepreload"/);
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/index-d4.css">');
    expect(codeList(html)).toEqual([
      '/assets/index-a1.js',
      '/assets/react-dom-b2.js',
      '/assets/jsx-c3.js',
      '/assets/premios-e5.js',
    ]);
    // The loader runs after the list it reads, inside the head.
    const list = html.indexOf(`id="${PAGE_CODE_ID}"`);
    const loader = html.indexOf(`<script>${PAGE_CODE_LOADER}</script>`);
    expect(list).toBeGreaterThan(0);
    expect(loader).toBeGreaterThan(list);
    expect(loader).toBeLessThan(html.indexOf('</head>'));
  });

  test('a page without exactly one module script is left as it is, the route’s chunk preloaded', () => {
    const bare = '<!doctype html><html><head></head><body><div id="root"></div></body></html>';
    expect(deferPageCode(bare, ['/assets/q-1.js'])).toBe(
      '<!doctype html><html><head><link rel="modulepreload" crossorigin href="/assets/q-1.js"></head>' +
        '<body><div id="root"></div></body></html>',
    );
  });
});

/** The loader run against a stand-in of the page: what it appends, and when. */
function runLoader(o: { observer: boolean }) {
  const appended: string[] = [];
  let observed: ((list: { getEntriesByName: (n: string) => unknown[] }) => void) | null = null;
  let timer: (() => void) | null = null;
  const make = (tag: string) => {
    const el: Record<string, string> = { tag };
    return el;
  };
  const document = {
    getElementById: (id: string) =>
      id === PAGE_CODE_ID ? { textContent: '["/e.js","/r.js","/j.js"]' } : null,
    createElement: make,
    head: {
      appendChild: (el: Record<string, string>) =>
        appended.push(el.tag === 'script' ? `script ${el.type} ${el.src}` : `${el.rel} ${el.href}`),
    },
  };
  class Observer {
    constructor(callback: typeof observed) {
      observed = callback;
    }
    observe(options: { type: string; buffered: boolean }) {
      expect(options).toEqual({ type: 'paint', buffered: true });
    }
  }
  const run = new Function('document', 'PerformanceObserver', 'setTimeout', PAGE_CODE_LOADER);
  run(document, o.observer ? Observer : undefined, (f: () => void, ms: number) => {
    expect(ms).toBe(1000);
    timer = f;
  });
  const paint = (name: string) =>
    observed?.({ getEntriesByName: (n: string) => (n === name ? [{}] : []) });
  return { appended, paint, fire: () => timer?.() };
}

describe('PAGE_CODE_LOADER', () => {
  const started = ['modulepreload /r.js', 'modulepreload /j.js', 'script module /e.js'];

  test('starts the code at the first contentful paint, once', () => {
    const page = runLoader({ observer: true });
    expect(page.appended).toEqual([]);
    page.paint('first-paint');
    expect(page.appended).toEqual([]);
    page.paint('first-contentful-paint');
    expect(page.appended).toEqual(started);
    page.fire();
    page.paint('first-contentful-paint');
    expect(page.appended).toEqual(started);
  });

  test('without a paint within a second (a background tab), the timer starts it', () => {
    const page = runLoader({ observer: true });
    page.fire();
    expect(page.appended).toEqual(started);
  });

  test('a browser without PerformanceObserver starts it at once', () => {
    expect(runLoader({ observer: false }).appended).toEqual(started);
  });
});
