import {
  existsSync,
  mkdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { precompress } from '../../../scripts/precompress';
import { IMMUTABLE } from './static';
import { INDEX_HTML, SECRET_OUTSIDE, makeApp, tempDist } from '../../testing/app-harness';
import type { TestApp } from '../../testing/app-harness';
import type { Role } from '../../store';

let fixture: ReturnType<typeof tempDist>;
beforeEach(() => {
  fixture = tempDist();
});
afterEach(() => fixture.cleanup());

const app = () => makeApp({ distDir: fixture.dist }).app;

/** The config the page carries for the SPA (null when it has none). */
function pageConfig(html: string): unknown {
  const m = /<script id="app-config" type="application\/json">(.*?)<\/script>/.exec(html);
  return m?.[1] === undefined ? null : JSON.parse(m[1]);
}

async function configOf(app: TestApp): Promise<unknown> {
  return ((await (await app.request('/api/config')).json()) as { data: unknown }).data;
}

describe('static SPA', () => {
  test("/ serves index.html carrying this terminal's config, never stored", async () => {
    const res = await app().request('/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('etag')).toBeNull();
    const html = await res.text();
    // The first view is painted from the page (dist-ssr's render, here a stand-in): this
    // terminal, before the SPA's code arrives, for the SPA to adopt.
    expect(html).toContain('<div id="root" data-ssr inert><p>Teste / #1</p></div>');
    expect(pageConfig(html)).toEqual(await configOf(app()));
  });

  test('a browser not enrolled gets the enrollment screen painted', async () => {
    const html = await (await makeApp({ distDir: fixture.dist }, null).app.request('/')).text();
    expect(html).toContain('<div id="root" data-ssr inert><p>registro / #1</p></div>');
    expect(pageConfig(html)).toMatchObject({ terminal: null });
  });

  test("a lazy route's page loads its chunk and the imports the entry lacks, after the first paint", async () => {
    writeFileSync(
      path.join(fixture.dist, 'index.html'),
      '<!doctype html><html><head>' +
        '<script type="module" crossorigin src="/assets/index-abc123.js"></script>' +
        '<link rel="modulepreload" crossorigin href="/assets/react-1.js">' +
        '</head><body><div id="root"></div></body></html>',
    );
    mkdirSync(path.join(fixture.dist, '.vite'));
    writeFileSync(
      path.join(fixture.dist, '.vite', 'manifest.json'),
      JSON.stringify({
        'index.html': { file: 'assets/index-abc123.js', isEntry: true, imports: ['_react.js'] },
        '_react.js': { file: 'assets/react-1.js' },
        '_field.js': { file: 'assets/field-2.js', imports: ['_react.js'] },
        'src/app/routes/premios.tsx': {
          file: 'assets/premios-3.js',
          isDynamicEntry: true,
          imports: ['_react.js', 'index.html', '_field.js'],
        },
        'src/app/routes/quiosque.tsx': { file: 'assets/quiosque-4.js', imports: ['index.html'] },
      }),
    );
    // The painted page lists its code for the loader (page-code.ts): the entry, its preload,
    // then the route's.
    const preloads = async (page: string, as: Role | null = 'gerente') => {
      const html = await (await makeApp({ distDir: fixture.dist }, as).app.request(page)).text();
      expect(html).not.toMatch(/<script type="module"|<link rel="modulepreload"/);
      const list = /<script id="app-code" type="application\/json">(.*?)<\/script>/.exec(html);
      const [entry, react, ...route] = JSON.parse(list![1]!) as string[];
      expect([entry, react]).toEqual(['/assets/index-abc123.js', '/assets/react-1.js']);
      return route;
    };
    expect(await preloads('/premios')).toEqual(['/assets/premios-3.js', '/assets/field-2.js']);
    expect(await preloads('/quiosque')).toEqual(['/assets/quiosque-4.js']);
    expect(await preloads('/')).toEqual([]);
    expect(await preloads('/premios/outra')).toEqual([]);
    // A kiosk terminal's / is the kiosk: its page preloads the kiosk's code. A cashier's and a
    // browser not enrolled are the counter and the enrollment screen.
    expect(await preloads('/', 'quiosque')).toEqual(['/assets/quiosque-4.js']);
    expect(await preloads('/', 'caixa')).toEqual([]);
    expect(await preloads('/', null)).toEqual([]);
    // The manifest itself is not served.
    expect((await app().request('/.vite/manifest.json')).status).toBe(400);
  });

  test('/index.html itself is not stored either', async () => {
    const res = await app().request('/index.html');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(pageConfig(await res.text())).toMatchObject({ terminal: { role: 'gerente' } });
  });

  test('the page says so when the browser is not enrolled', async () => {
    const guest = makeApp({ distDir: fixture.dist }, null).app;
    const res = await guest.request('/premios');
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(pageConfig(await res.text())).toMatchObject({ terminal: null, enrollment: 'code' });
  });

  test('sandbox on loopback: the page enrolls the browser as GET /api/config does', async () => {
    const guest = makeApp({ distDir: fixture.dist, autoEnroll: true }, null).app;
    const res = await guest.request('/');
    const cookie = res.headers.get('set-cookie');
    expect(cookie).toMatch(/HttpOnly/i);
    expect(pageConfig(await res.text())).toMatchObject({
      terminal: { role: 'gerente' },
      enrollment: 'auto',
    });
    const again = await guest.request('/api/config', {
      headers: { cookie: cookie!.split(';')[0]! },
    });
    expect(((await again.json()) as { data: unknown }).data).toMatchObject({
      terminal: { role: 'gerente', name: 'Navegador local (sandbox)' },
    });
  });

  test('the config goes into the head before the scripts; a < in it cannot end the script', async () => {
    writeFileSync(
      path.join(fixture.dist, 'index.html'),
      '<!doctype html><html><head><script type="module" src="/assets/a.js"></script></head>' +
        '<body><div id="root"></div></body></html>',
    );
    const evil = makeApp({
      distDir: fixture.dist,
      establishmentName: '</script><script>alert(1)</script><!--',
    }).app;
    const html = await (await evil.request('/')).text();
    expect(html.indexOf('id="app-config"')).toBeLessThan(html.indexOf('</head>'));
    expect(html.match(/<\/script>/g)).toHaveLength(2);
    expect(html).not.toContain('<!--');
    expect(pageConfig(html)).toMatchObject({
      establishmentName: '</script><script>alert(1)</script><!--',
    });
  });

  test.each([
    ['/assets/index-abc123.js', 'text/javascript; charset=utf-8', 'console.log("app");'],
    ['/assets/index-abc123.css', 'text/css; charset=utf-8', 'body{margin:0}'],
    ['/assets/logo-abc123.svg', 'image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg"/>'],
  ])('%s is served as %s and cached as immutable', async (url, type, body) => {
    const res = await app().request(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(type);
    expect(res.headers.get('cache-control')).toBe(IMMUTABLE);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await res.text()).toBe(body);
  });

  test('a binary asset keeps its bytes', async () => {
    const res = await app().request('/assets/font-abc123.woff2');
    expect(res.headers.get('content-type')).toBe('font/woff2');
    expect([...new Uint8Array(await res.arrayBuffer())]).toEqual([0x77, 0x4f, 0x46, 0x32]);
  });

  test('files outside /assets are served with no-cache', async () => {
    const res = await app().request('/manifest.webmanifest');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/manifest+json; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect((await app().request('/favicon.ico')).headers.get('content-type')).toBe('image/x-icon');
  });

  test.each(['/caixa', '/premios', '/clientes/123/editar', '/quiosque/'])(
    'history fallback: %s gets index.html',
    async (url) => {
      const res = await app().request(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-store');
      const html = await res.text();
      expect(html).toContain(`<div id="root" data-ssr inert><p>Teste ${url} #1</p></div>`);
      expect(pageConfig(html)).toMatchObject({ establishmentId: 1 });
    },
  );

  test('HEAD on a route answers the headers of index.html without a body', async () => {
    const res = await app().request('/caixa', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await res.text()).toBe('');
  });

  test.each([
    '/assets/missing-abc.js',
    '/assets/missing',
    '/logo.png',
    '/robots.txt',
    '/caixa/app.js',
  ])('a missing file %s is a plain 404, never index.html', async (url) => {
    const res = await app().request(url);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await res.text()).not.toContain('<html');
  });

  test('a repeated request with the ETag is a 304', async () => {
    const first = await app().request('/assets/index-abc123.js');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^W\/"/);
    const second = await app().request('/assets/index-abc123.js', {
      headers: { 'if-none-match': etag! },
    });
    expect(second.status).toBe(304);
    expect(await second.text()).toBe('');
  });

  test('other methods outside /api are a 405', async () => {
    const res = await app().request('/caixa', { method: 'POST', body: 'x' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
  });

  test.each([
    '/..%2fsecret.txt',
    '/assets/..%2f..%2fsecret.txt',
    '/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
    '/..%5csecret.txt',
    '/%2e%2e/secret.txt',
    '/../secret.txt',
    '/assets/../../secret.txt',
    '/secret.txt',
    '/assets/%00.js',
    '/.env',
    '/%E0%A4%A',
  ])('path traversal %s is refused', async (url) => {
    const res = await app().request(url);
    expect([400, 404]).toContain(res.status);
    expect(await res.text()).not.toContain(SECRET_OUTSIDE);
  });

  test('an encoded traversal is a 400', async () => {
    const res = await app().request('/assets/..%2f..%2fsecret.txt');
    expect(res.status).toBe(400);
  });

  test('a symlink inside dist pointing outside it is not followed', async () => {
    symlinkSync(
      path.join(fixture.base, 'secret.txt'),
      path.join(fixture.dist, 'assets', 'leak.txt'),
    );
    const res = await app().request('/assets/leak.txt');
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain(SECRET_OUTSIDE);
  });

  test('without a build the pages answer a plain 503 telling to run npm run build, and the API still works', async () => {
    const { app: noDist } = makeApp({ distDir: path.join(fixture.base, 'not-built') });
    const res = await noDist.request('/caixa');
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await res.text()).toContain('npm run build');
    expect((await noDist.request('/assets/index-abc123.js')).status).toBe(503);
    expect((await noDist.request('/api/config')).status).toBe(200);
  });
});

describe('precompressed assets', () => {
  const JS = `export const big = ${JSON.stringify('ponto '.repeat(400))};\n`;
  const js = () => path.join(fixture.dist, 'assets', 'app-abc123.js');

  beforeEach(async () => {
    writeFileSync(js(), JS);
    writeFileSync(path.join(fixture.dist, 'index.html'), INDEX_HTML + ' '.repeat(600));
    await precompress(fixture.dist);
  });

  test('the build step writes brotli and gzip siblings that decompress to the original', () => {
    expect(brotliDecompressSync(readFileSync(`${js()}.br`)).toString()).toBe(JS);
    expect(gunzipSync(readFileSync(`${js()}.gz`)).toString()).toBe(JS);
    // too small to be worth it, or not a text format
    expect(existsSync(path.join(fixture.dist, 'assets', 'index-abc123.css.br'))).toBe(false);
    expect(existsSync(path.join(fixture.dist, 'assets', 'font-abc123.woff2.br'))).toBe(false);
  });

  test.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['*', 'br'],
    ['gzip;q=0.5, *;q=0', 'gzip'],
  ])('Accept-Encoding %s gets %s with Vary, immutable and its own ETag', async (accept, enc) => {
    const res = await app().request('/assets/app-abc123.js', {
      headers: { 'accept-encoding': accept },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe(enc);
    expect(res.headers.get('vary')).toBe('Accept-Encoding');
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe(IMMUTABLE);
    expect(res.headers.get('etag')).toMatch(new RegExp(`-${enc}"$`));
    const body = Buffer.from(await res.arrayBuffer());
    expect((enc === 'br' ? brotliDecompressSync(body) : gunzipSync(body)).toString()).toBe(JS);
    expect(body.byteLength).toBeLessThan(JS.length / 4);
  });

  test.each([undefined, 'identity', 'deflate', 'br;q=0, gzip;q=0', '*;q=0'])(
    'Accept-Encoding %s gets the original bytes, still with Vary',
    async (accept) => {
      const res = await app().request('/assets/app-abc123.js', {
        headers: accept === undefined ? {} : { 'accept-encoding': accept },
      });
      expect(res.headers.get('content-encoding')).toBeNull();
      expect(res.headers.get('vary')).toBe('Accept-Encoding');
      expect(await res.text()).toBe(JS);
    },
  );

  test('index.html is served compressed and not stored; fallback routes too', async () => {
    for (const url of ['/', '/premios']) {
      const res = await app().request(url, { headers: { 'accept-encoding': 'gzip, br' } });
      expect(res.headers.get('content-encoding')).toBe('br');
      expect(res.headers.get('vary')).toBe('Accept-Encoding');
      expect(res.headers.get('cache-control')).toBe('no-store');
      const html = brotliDecompressSync(Buffer.from(await res.arrayBuffer())).toString();
      expect(html).toContain(`<div id="root" data-ssr inert><p>Teste ${url} #`);
      expect(pageConfig(html)).toMatchObject({ establishmentId: 1 });
    }
    const gz = await app().request('/', { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toContain('app-config');
  });

  test('a 304 needs the ETag of the same encoding', async () => {
    const br = await app().request('/assets/app-abc123.js', {
      headers: { 'accept-encoding': 'br' },
    });
    const etag = br.headers.get('etag')!;
    const again = await app().request('/assets/app-abc123.js', {
      headers: { 'accept-encoding': 'br', 'if-none-match': etag },
    });
    expect(again.status).toBe(304);
    const gz = await app().request('/assets/app-abc123.js', {
      headers: { 'accept-encoding': 'gzip', 'if-none-match': etag },
    });
    expect(gz.status).toBe(200);
    expect(gz.headers.get('content-encoding')).toBe('gzip');
  });

  test('HEAD gives the length of the encoded variant', async () => {
    const res = await app().request('/assets/app-abc123.js', {
      method: 'HEAD',
      headers: { 'accept-encoding': 'br' },
    });
    expect(res.headers.get('content-length')).toBe(String(statSync(`${js()}.br`).size));
    expect(await res.text()).toBe('');
  });

  test('a sibling left over from an older build is ignored', async () => {
    const newer = new Date(Date.now() + 60_000);
    writeFileSync(js(), 'export const fresh = 1;\n');
    utimesSync(js(), newer, newer);
    const res = await app().request('/assets/app-abc123.js', {
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(await res.text()).toBe('export const fresh = 1;\n');
  });
});
