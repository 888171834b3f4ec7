import { readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { Context } from 'hono';
import { deferPageCode, insertIntoHead, modulePreloads } from './page-code';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.wasm': 'application/wasm',
};

export const IMMUTABLE = 'public, max-age=31536000, immutable';

const NOT_BUILT =
  'O front-end ainda não foi construído: rode `npm run build` (ou `npm start`) e recarregue.\n' +
  'The front-end has not been built yet: run `npm run build` (or `npm start`) and reload.\n';

export function contentTypeOf(file: string): string {
  return CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * The URL path split into decoded segments, or null when a segment could escape the
 * directory or is otherwise unsafe: `.`/`..` (also once decoded), an encoded separator,
 * a backslash, a NUL, a bad escape, or a dot-file.
 */
export function safeSegments(pathname: string): string[] | null {
  const out: string[] = [];
  for (const raw of pathname.split('/')) {
    if (raw === '') continue;
    let seg: string;
    try {
      seg = decodeURIComponent(raw);
    } catch {
      return null;
    }
    if (seg.startsWith('.') || /[/\\\0]/.test(seg)) return null;
    out.push(seg);
  }
  return out;
}

type Found = { file: string; size: number; mtimeMs: number };

export type Encoding = 'br' | 'gzip';

/** Precompressed siblings written by the build (scripts/precompress.ts), best first. */
const VARIANTS: readonly { encoding: Encoding; suffix: string }[] = [
  { encoding: 'br', suffix: '.br' },
  { encoding: 'gzip', suffix: '.gz' },
];

/**
 * The encodings an `Accept-Encoding` header accepts (q > 0). `*` accepts the ones not named;
 * `x-gzip` is gzip. A missing header accepts none: the answer stays identity.
 */
export function acceptedEncodings(header: string | undefined): Set<Encoding> {
  const accepted = new Set<Encoding>();
  if (header === undefined) return accepted;
  const named = new Map<string, number>();
  for (const part of header.split(',')) {
    const [rawName = '', ...params] = part.split(';');
    const name = rawName.trim().toLowerCase();
    if (name === '') continue;
    let q = 1;
    for (const param of params) {
      const m = /^\s*q\s*=\s*([\d.]+)\s*$/i.exec(param);
      if (m) q = Number(m[1]);
    }
    named.set(name === 'x-gzip' ? 'gzip' : name, Number.isFinite(q) ? q : 0);
  }
  const star = named.get('*');
  for (const { encoding } of VARIANTS) {
    const q = named.get(encoding) ?? star ?? 0;
    if (q > 0) accepted.add(encoding);
  }
  return accepted;
}

type Variant = { encoding: Encoding; file: string; size: number; mtimeMs: number };

async function findFile(root: string, segments: readonly string[]): Promise<Found | null> {
  const candidate = path.resolve(root, ...segments);
  if (candidate !== root && !candidate.startsWith(root + path.sep)) return null;
  try {
    const file = await realpath(candidate);
    // A symlink may point anywhere: only serve what really lies inside the root.
    if (!file.startsWith(root + path.sep)) return null;
    const st = await stat(file);
    return st.isFile() ? { file, size: st.size, mtimeMs: st.mtimeMs } : null;
  } catch {
    return null;
  }
}

/** The id of the page's inline JSON the SPA reads its config from (src/api/client.ts). */
export const PAGE_DATA_ID = 'app-config';

/**
 * `data` as a JSON script element, safe inside HTML: no `<` survives (so neither `</script>`
 * nor `<!--` can appear); JSON.parse reads `\u003c` back as `<`.
 */
export function pageDataScript(data: unknown): string {
  const json = JSON.stringify(data).replace(/</g, '\\u003c');
  return `<script id="${PAGE_DATA_ID}" type="application/json">${json}</script>`;
}

/** The SPA's mount point in index.html, empty as built. */
const ROOT_ELEMENT = '<div id="root"></div>';

export interface StaticOptions<D = unknown> {
  /**
   * Per-request data written into the page (index.html and every SPA route) as JSON, so the
   * SPA has it at its first render. The page is then per request: `no-store`, no ETag,
   * compressed as it goes out.
   */
  pageData?: (c: Context) => Promise<D>;
  /**
   * Markup painted inside `<div id="root">` from that data before the SPA runs, by the page's
   * path and query; '' for none. The root then says so (`data-ssr`): the SPA adopts the markup
   * (hydrates) instead of building it again. Until then the root is `inert`: a tap or click on
   * a painted button would land on an element with no handler yet, and be lost.
   */
  pageMarkup?: (data: D, href: string) => Promise<string>;
  /**
   * Routes whose code is a lazy chunk, by path: the source module as Vite's manifest
   * (`dist/.vite/manifest.json`) names it. The page of such a route loads that chunk and its
   * static imports with the entry (module preloads; in a painted page, its code list: see
   * page-code.ts), instead of after the entry has run.
   */
  routeModules?: Readonly<Record<string, string>>;
  /**
   * The route (a key of `routeModules`) whose code the page at `pathname` shows, when the data
   * decides it (a kiosk terminal's `/` is the kiosk); by default the path itself.
   */
  routeOf?: (data: D, pathname: string) => string;
}

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}

/**
 * The URLs of each route's chunk and the static imports it adds to the entry's, from Vite's
 * build manifest; none when there is no manifest.
 */
export function routePreloads(
  manifest: Readonly<Record<string, ManifestChunk>>,
  routeModules: Readonly<Record<string, string>>,
): Map<string, string[]> {
  const closure = (key: string, seen: Set<string>): Set<string> => {
    if (seen.has(key) || manifest[key] === undefined) return seen;
    seen.add(key);
    for (const dep of manifest[key].imports ?? []) closure(dep, seen);
    return seen;
  };
  const entry = new Set<string>();
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) closure(key, entry);
  const out = new Map<string, string[]>();
  for (const [route, module] of Object.entries(routeModules)) {
    const urls = [...closure(module, new Set())]
      .filter((key) => !entry.has(key))
      .map((key) => `/${manifest[key]?.file}`);
    if (urls.length > 0) out.set(route, urls);
  }
  return out;
}

/** Handler for everything outside /api: the built SPA with history fallback. */
/** The file's precompressed siblings, looked up once per version of the file. */
function variantFinder(): (found: Found) => Promise<Variant[]> {
  const cache = new Map<string, { key: string; variants: Variant[] }>();
  return async (found) => {
    const key = `${found.size}:${found.mtimeMs}`;
    const cached = cache.get(found.file);
    if (cached?.key === key) return cached.variants;
    const variants: Variant[] = [];
    for (const { encoding, suffix } of VARIANTS) {
      const file = found.file + suffix;
      try {
        const st = await stat(file);
        // A sibling older than its original is left over from an earlier build: ignore it.
        if (st.isFile() && st.mtimeMs >= found.mtimeMs) {
          variants.push({ encoding, file, size: st.size, mtimeMs: st.mtimeMs });
        }
      } catch {
        // no such variant
      }
    }
    cache.set(found.file, { key, variants });
    return variants;
  };
}

/** A page of a few KB, compressed as the browser accepts (well under a millisecond). */
function sendCompressed(
  c: Context,
  html: Buffer<ArrayBuffer>,
  headers: Record<string, string>,
): Response {
  const accepted = acceptedEncodings(c.req.header('accept-encoding'));
  if (accepted.has('br')) {
    headers['Content-Encoding'] = 'br';
    return c.body(
      brotliCompressSync(html, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } }),
      200,
      headers,
    );
  }
  if (accepted.has('gzip')) {
    headers['Content-Encoding'] = 'gzip';
    return c.body(gzipSync(html), 200, headers);
  }
  return c.body(html, 200, headers);
}

export function createStaticHandler<D>(distDir: string, options: StaticOptions<D> = {}) {
  const configuredRoot = path.resolve(distDir);
  let root: string | null = null;

  async function resolveRoot(): Promise<string | null> {
    if (root !== null) return root;
    try {
      const real = await realpath(configuredRoot);
      if (!(await stat(path.join(real, 'index.html'))).isFile()) return null;
      root = real;
      return root;
    } catch {
      return null; // not built yet: checked again on the next request
    }
  }

  const variantsOf = variantFinder();

  async function send(c: Context, found: Found, cacheControl: string): Promise<Response> {
    const variants = await variantsOf(found);
    const accepted = acceptedEncodings(c.req.header('accept-encoding'));
    const chosen = variants.find((v) => accepted.has(v.encoding));
    const version = `${found.size.toString(16)}-${Math.floor(found.mtimeMs).toString(16)}`;
    const etag = chosen ? `W/"${version}-${chosen.encoding}"` : `W/"${version}"`;
    const headers: Record<string, string> = {
      'Content-Type': contentTypeOf(found.file),
      'Cache-Control': cacheControl,
      ETag: etag,
    };
    // Caches must key the answer on Accept-Encoding whenever another encoding exists.
    if (variants.length > 0) headers.Vary = 'Accept-Encoding';
    if (chosen) headers['Content-Encoding'] = chosen.encoding;
    const ifNoneMatch = c.req.header('if-none-match');
    if (ifNoneMatch !== undefined && ifNoneMatch.split(',').some((t) => t.trim() === etag)) {
      return c.body(null, 304, headers);
    }
    const bodyFile = chosen?.file ?? found.file;
    if (c.req.method === 'HEAD') {
      return c.body(null, 200, {
        ...headers,
        'Content-Length': String(chosen?.size ?? found.size),
      });
    }
    return c.body(await readFile(bodyFile), 200, headers);
  }

  /** index.html's text and the routes' preloads, read once per version of the file. */
  let indexText: { key: string; text: string; preloads: Map<string, string[]> } | null = null;
  async function readPreloads(dist: string): Promise<Map<string, string[]>> {
    if (options.routeModules === undefined) return new Map();
    try {
      const manifest = JSON.parse(
        await readFile(path.join(dist, '.vite', 'manifest.json'), 'utf8'),
      ) as Record<string, ManifestChunk>;
      return routePreloads(manifest, options.routeModules);
    } catch {
      return new Map(); // built without a manifest: the routes load as they are reached
    }
  }
  async function sendPage(c: Context, found: Found, dist: string): Promise<Response> {
    const pageData = options.pageData;
    if (pageData === undefined) return send(c, found, 'no-cache');
    const headers: Record<string, string> = {
      'Content-Type': contentTypeOf(found.file),
      'Cache-Control': 'no-store',
      Vary: 'Accept-Encoding',
    };
    if (c.req.method === 'HEAD') return c.body(null, 200, headers);
    const key = `${found.size}:${found.mtimeMs}`;
    if (indexText?.key !== key) {
      indexText = {
        key,
        text: await readFile(found.file, 'utf8'),
        preloads: await readPreloads(dist),
      };
    }
    const { pathname, search } = new URL(c.req.url);
    const data = await pageData(c);
    const route = indexText.preloads.get(options.routeOf?.(data, pathname) ?? pathname) ?? [];
    const markup = (await options.pageMarkup?.(data, pathname + search)) ?? '';
    // A painted page starts its code after its first paint (page-code.ts); one that is not
    // painted needs its code for any paint, and loads it as built.
    const page =
      markup === ''
        ? insertIntoHead(indexText.text, modulePreloads(route))
        : deferPageCode(
            // A function: `$&` and the like in the markup are text, not replacement patterns.
            indexText.text.replace(
              ROOT_ELEMENT,
              () => `<div id="root" data-ssr inert>${markup}</div>`,
            ),
            route,
          );
    return sendCompressed(c, Buffer.from(insertIntoHead(page, pageDataScript(data))), headers);
  }

  return async (c: Context): Promise<Response> => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      return c.text('Method Not Allowed\n', 405, { Allow: 'GET, HEAD' });
    }
    const dist = await resolveRoot();
    if (dist === null) {
      return c.text(NOT_BUILT, 503, { 'Cache-Control': 'no-store', 'Retry-After': '10' });
    }
    const pathname = new URL(c.req.url).pathname;
    const segments = safeSegments(pathname);
    if (segments === null) return c.text('Bad Request\n', 400);

    const isAsset = segments[0] === 'assets';
    const found = segments.length > 0 ? await findFile(dist, segments) : null;
    if (found !== null) {
      if (found.file === path.join(dist, 'index.html')) return sendPage(c, found, dist);
      return send(c, found, isAsset ? IMMUTABLE : 'no-cache');
    }
    const last = segments.at(-1) ?? '';
    if (isAsset || path.extname(last) !== '') return c.text('Not Found\n', 404);

    const index = await findFile(dist, ['index.html']);
    if (index === null) {
      root = null;
      return c.text(NOT_BUILT, 503, { 'Cache-Control': 'no-store', 'Retry-After': '10' });
    }
    return sendPage(c, index, dist);
  };
}
