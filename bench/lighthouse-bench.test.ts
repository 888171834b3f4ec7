// The relay behind the bench's Lighthouse variants of /: if it let a script through, the
// ceiling would silently measure the real page; if it kept COOP, "without COOP" would too.
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { deferPageCode } from '../server/app/http/page-code';
import { variantRelay } from './lighthouse-bench';

const PAGE =
  '<!doctype html><html><head><link rel="stylesheet" href="/assets/a.css">' +
  '<script type="module" crossorigin src="/assets/index-abc.js"></script>' +
  '<link rel="modulepreload" crossorigin href="/assets/react-dom-abc.js">' +
  '<script id="app-config" type="application/json">{"terminal":null}</script></head>' +
  '<body><div id="root"><header>Fidelidade PDV</header></div></body></html>';
const SCRIPT = 'console.log("the app");';
/** The same page painted by the app server: its code started by the inline loader. */
const PAINTED = deferPageCode(PAGE, []);

const upstream = createServer((req, res) => {
  if (req.url === '/') {
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'x-upstream': 'yes',
      'cross-origin-opener-policy': 'same-origin',
    });
    res.end(PAGE);
  } else if (req.url === '/painted') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(PAINTED);
  } else if (req.url === '/assets/index-abc.js') {
    res.writeHead(200, {
      'content-type': 'text/javascript',
      'cache-control': 'immutable',
      'cross-origin-opener-policy': 'same-origin',
    });
    res.end(SCRIPT);
  } else {
    res.writeHead(404).end();
  }
});
type Relay = Awaited<ReturnType<typeof variantRelay>>;
let relay: Relay; // without JavaScript
let noCoop: Relay; // without COOP, scripts kept

beforeAll(async () => {
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const { port } = upstream.address() as AddressInfo;
  relay = await variantRelay(`http://127.0.0.1:${port}`, { scripts: false, coop: true });
  noCoop = await variantRelay(`http://127.0.0.1:${port}`, { scripts: true, coop: false });
});
afterAll(async () => {
  await relay.close();
  await noCoop.close();
  await new Promise<void>((resolve) => upstream.close(() => resolve()));
});

test('the page comes through with its module scripts and preloads removed, the rest as it was', async () => {
  const res = await fetch(`${relay.url}/`, { headers: { accept: 'text/html' } });
  expect(res.status).toBe(200);
  expect(res.headers.get('x-upstream')).toBe('yes');
  expect(res.headers.get('cross-origin-opener-policy')).toBe('same-origin');
  const html = await res.text();
  expect(html).not.toContain('type="module"');
  expect(html).not.toContain('modulepreload');
  expect(html).toContain('<link rel="stylesheet" href="/assets/a.css">');
  expect(html).toContain(
    '<script id="app-config" type="application/json">{"terminal":null}</script>',
  );
  expect(html).toContain('<div id="root"><header>Fidelidade PDV</header></div>');
});

test('a painted page loses its code list and the loader that starts it', async () => {
  expect(PAINTED).toContain('<script>');
  const html = await (
    await fetch(`${relay.url}/painted`, { headers: { accept: 'text/html' } })
  ).text();
  expect(html.match(/<script[^>]*>/g)).toEqual([
    '<script id="app-config" type="application/json">',
  ]);
  expect(html).toContain('<div id="root"><header>Fidelidade PDV</header></div>');
});

test('the page is gzipped for a browser that accepts it, as the app server would', async () => {
  const url = new URL(`${relay.url}/`);
  const { headers, body } = await new Promise<{ headers: Record<string, unknown>; body: Buffer }>(
    (resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: '/',
          headers: { accept: 'text/html', 'accept-encoding': 'gzip, br' },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
        },
      );
      req.on('error', reject);
      req.end();
    },
  );
  expect(headers['content-encoding']).toBe('gzip');
  const html = gunzipSync(body).toString('utf8');
  expect(html).toContain('Fidelidade PDV');
  expect(html).not.toContain('type="module"');
});

test('other answers pass through byte for byte with their headers', async () => {
  const res = await fetch(`${relay.url}/assets/index-abc.js`);
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toBe('immutable');
  expect(await res.text()).toBe(SCRIPT);
  expect((await fetch(`${relay.url}/nothing`)).status).toBe(404);
});

test('without COOP, the page loses that header and nothing else; other answers keep it', async () => {
  const res = await fetch(`${noCoop.url}/`, { headers: { accept: 'text/html' } });
  expect(res.status).toBe(200);
  expect(res.headers.get('cross-origin-opener-policy')).toBeNull();
  expect(res.headers.get('x-upstream')).toBe('yes');
  expect(await res.text()).toBe(PAGE);
  const script = await fetch(`${noCoop.url}/assets/index-abc.js`);
  expect(script.headers.get('cross-origin-opener-policy')).toBe('same-origin');
  expect(await script.text()).toBe(SCRIPT);
});
