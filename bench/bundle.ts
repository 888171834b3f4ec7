// Bundle figures: build the SPA, then walk dist/ the way a browser loads the counter route.
//
// Initial JavaScript = the entry `<script type="module" src>` of dist/index.html, every
// `<link rel="modulepreload">`, and, recursively, the static imports of those chunks. Dynamic
// `import()` targets are lazy: fetched later, never before the first render.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';

export interface Asset {
  /** Path inside dist/, e.g. assets/index-abc.js. */
  file: string;
  raw: number;
  gzip: number;
}

export interface LazyChunk extends Asset {
  /** Gzip bytes this chunk and its static imports add on top of the initial set. */
  extraGzip: number;
}

export interface BundleReport {
  entry: string;
  initial: Asset[];
  lazy: LazyChunk[];
  css: Asset[];
  initialGzip: number;
  allJsGzip: number;
  cssGzip: number;
  /** Static imports that are not files of dist/ (should be none). */
  unresolved: string[];
}

/** `npm run build`: the SPA (timed), then the server's render of its pages (dist-ssr/). */
export async function buildSpa(root: string): Promise<number> {
  const configFile = path.join(root, 'vite.config.ts');
  const started = performance.now();
  await build({ root, configFile, logLevel: 'warn' });
  const ms = performance.now() - started;
  await build({ root, configFile, logLevel: 'warn', build: { ssr: 'src/app/render-page.tsx' } });
  return ms;
}

const ORIGIN = 'http://dist.invalid';

function gzipSize(bytes: Buffer): number {
  return gzipSync(bytes, { level: 9 }).byteLength;
}

/** Attributes of every `<tag …>` in an HTML text (names lower-cased). */
function tagsOf(html: string, tag: string): Map<string, string>[] {
  const out: Map<string, string>[] = [];
  const tagRe = new RegExp(`<${tag}\\b([^>]*)>`, 'gi');
  for (const m of html.matchAll(tagRe)) {
    const attrs = new Map<string, string>();
    const attrRe = /([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g;
    for (const a of (m[1] ?? '').matchAll(attrRe)) {
      const name = a[1];
      if (name !== undefined) attrs.set(name.toLowerCase(), a[2] ?? a[3] ?? a[4] ?? '');
    }
    out.push(attrs);
  }
  return out;
}

/**
 * The module specifiers of the import/export-from declarations a chunk starts with. Bundler
 * output hoists them all to the top, so reading stops at the first other statement; that
 * keeps strings and `import()` calls inside the code from being mistaken for imports.
 */
export function leadingStaticImports(code: string): string[] {
  const specs: string[] = [];
  const patterns = [
    /\s+|\/\*[\s\S]*?\*\/|\/\/[^\n]*\n?|(["'])use strict\1\s*;?/y, // trivia, no specifier
    /import\s*(?:[\w$\s{},*]*?\s*from\s*)?(["'])([^"'\n]+)\1\s*(?:(?:with|assert)\s*\{[^}]*\}\s*)?;?/y,
    /export\s*(?:\*(?:\s*as\s*[\w$]+)?|\{[^}]*\})\s*from\s*(["'])([^"'\n]+)\1\s*;?/y,
  ];
  let pos = 0;
  for (;;) {
    let matched = false;
    for (const re of patterns) {
      re.lastIndex = pos;
      const m = re.exec(code);
      if (m === null || m[0].length === 0) continue;
      // `import(` and `import.meta` are expressions, not declarations.
      if (/^import\s*[(.]/.test(m[0])) continue;
      if (m[2] !== undefined) specs.push(m[2]);
      pos = re.lastIndex;
      matched = true;
      break;
    }
    if (!matched) return specs;
  }
}

/** dist/ file of a URL (absolute on the site), or null when it points elsewhere. */
function fileOf(distDir: string, url: URL): string | null {
  if (url.origin !== ORIGIN) return null;
  const rel = decodeURIComponent(url.pathname).replace(/^\/+/, '');
  const full = path.join(distDir, rel);
  return existsSync(full) ? rel : null;
}

function listFiles(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const rel = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) out.push(...listFiles(path.join(dir, entry.name), rel));
    else out.push(rel);
  }
  return out.sort();
}

export function analyzeBundle(distDir: string): BundleReport {
  const html = readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const page = new URL('/index.html', ORIGIN);
  const roots: URL[] = [];
  for (const s of tagsOf(html, 'script')) {
    const src = s.get('src');
    if (s.get('type') === 'module' && src !== undefined) roots.push(new URL(src, page));
  }
  for (const l of tagsOf(html, 'link')) {
    const rel = (l.get('rel') ?? '').toLowerCase().split(/\s+/);
    const href = l.get('href');
    if (rel.includes('modulepreload') && href !== undefined) roots.push(new URL(href, page));
  }
  const entry = roots[0];
  if (entry === undefined) throw new Error('dist/index.html has no <script type="module" src>');

  const assets = new Map<string, Asset>();
  const asset = (file: string): Asset => {
    let a = assets.get(file);
    if (a === undefined) {
      const bytes = readFileSync(path.join(distDir, file));
      a = { file, raw: bytes.byteLength, gzip: gzipSize(bytes) };
      assets.set(file, a);
    }
    return a;
  };

  const unresolved: string[] = [];
  /** The static closure of some chunks: files in load order. */
  const closure = (starts: readonly URL[]): Set<string> => {
    const seen = new Set<string>();
    const queue = [...starts];
    for (let url = queue.shift(); url !== undefined; url = queue.shift()) {
      const file = fileOf(distDir, url);
      if (file === null) {
        if (!unresolved.includes(url.href)) unresolved.push(url.href);
        continue;
      }
      if (seen.has(file)) continue;
      seen.add(file);
      const code = readFileSync(path.join(distDir, file), 'utf8');
      for (const spec of leadingStaticImports(code)) {
        // Bare specifiers ("react") cannot load in a browser without an import map.
        if (!/^(\.{0,2}\/|[a-z][a-z0-9+.-]*:)/i.test(spec)) {
          if (!unresolved.includes(spec)) unresolved.push(spec);
          continue;
        }
        queue.push(new URL(spec, url));
      }
    }
    return seen;
  };

  const initialFiles = closure(roots);
  const initial = [...initialFiles].map(asset);
  const files = listFiles(distDir);
  const js = files.filter((f) => /\.m?js$/.test(f) && !f.endsWith('.map'));
  const lazy: LazyChunk[] = js
    .filter((f) => !initialFiles.has(f))
    .map((f) => {
      const extra = [...closure([new URL(`/${f}`, ORIGIN)])].filter((x) => !initialFiles.has(x));
      return { ...asset(f), extraGzip: extra.reduce((sum, x) => sum + asset(x).gzip, 0) };
    });
  const css = files.filter((f) => f.endsWith('.css')).map(asset);
  const sum = (list: readonly Asset[]): number => list.reduce((acc, a) => acc + a.gzip, 0);
  return {
    entry: entry.pathname,
    initial,
    lazy,
    css,
    initialGzip: sum(initial),
    allJsGzip: sum(js.map(asset)),
    cssGzip: sum(css),
    unresolved,
  };
}
