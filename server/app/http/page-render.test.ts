import { rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { makeApp, tempDist } from '../../testing/app-harness';

let fixture: ReturnType<typeof tempDist>;
beforeEach(() => {
  fixture = tempDist();
});
afterEach(() => fixture.cleanup());

const renderFile = () => path.join(fixture.base, 'dist-ssr', 'render-page.js');
/** Writes a new build of the renderer, dated later than the one before. */
function newBuild(source: string, seconds: number) {
  writeFileSync(renderFile(), source);
  const at = new Date(Date.now() + seconds * 1000);
  utimesSync(renderFile(), at, at);
}
const root = (html: string) => /<div id="root"[^>]*>.*?<\/div>/.exec(html)?.[0];

describe('the page painted by the app server', () => {
  test('is rendered once per address and config, and again after a new build', async () => {
    const { app } = makeApp({ distDir: fixture.dist });
    const page = async (href: string) => root(await (await app.request(href)).text());
    expect(await page('/premios?status=resgatado')).toBe(
      '<div id="root" data-ssr inert><p>Teste /premios?status=resgatado #1</p></div>',
    );
    // The same page again comes from the cache: no second render.
    expect(await page('/premios?status=resgatado')).toContain('#1</p>');
    expect(await page('/')).toContain('<p>Teste / #2</p>');
    newBuild("export async function renderPage(c, href) { return '<p>v2 ' + href + '</p>'; }\n", 5);
    expect(await page('/premios?status=resgatado')).toBe(
      '<div id="root" data-ssr inert><p>v2 /premios?status=resgatado</p></div>',
    );
  });

  test('markup is inserted as it is: `$&` in a name is text, not a replacement pattern', async () => {
    const { app } = makeApp({ distDir: fixture.dist, establishmentName: 'Loja $& $1' });
    newBuild(
      'export async function renderPage(c) { return "<p>" + c.establishmentName + "</p>"; }\n',
      5,
    );
    expect(root(await (await app.request('/')).text())).toBe(
      '<div id="root" data-ssr inert><p>Loja $& $1</p></div>',
    );
  });

  test('a render that fails, a build that does not load, no build: the page goes out unpainted', async () => {
    const { app, lines } = makeApp({ distDir: fixture.dist });
    const page = async () => {
      const res = await app.request('/');
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain('id="app-config"'); // the SPA still gets its config
      return root(html);
    };
    newBuild('export async function renderPage() { throw new Error("boom"); }\n', 5);
    expect(await page()).toBe('<div id="root"></div>');
    expect(lines.join('')).toContain('page render failed');
    newBuild('export async function renderPage( {\n', 10);
    expect(await page()).toBe('<div id="root"></div>');
    expect(lines.join('')).toContain('does not load');
    rmSync(renderFile());
    expect(await page()).toBe('<div id="root"></div>');
  });

  test('a painted page starts its code after its first paint; an unpainted one loads it as built', async () => {
    writeFileSync(
      path.join(fixture.dist, 'index.html'),
      '<!doctype html><html><head>' +
        '<script type="module" crossorigin src="/assets/index-abc123.js"></script>' +
        '</head><body><div id="root"></div></body></html>',
    );
    const { app } = makeApp({ distDir: fixture.dist });
    const painted = await (await app.request('/')).text();
    expect(painted).toContain('<div id="root" data-ssr inert>');
    expect(painted).not.toContain('<script type="module"');
    expect(painted).toContain(
      '<script id="app-code" type="application/json">["/assets/index-abc123.js"]',
    );
    newBuild('export async function renderPage() { throw new Error("boom"); }\n', 5);
    const unpainted = await (await app.request('/')).text();
    expect(root(unpainted)).toBe('<div id="root"></div>');
    expect(unpainted).toContain(
      '<script type="module" crossorigin src="/assets/index-abc123.js"></script>',
    );
    expect(unpainted).not.toContain('id="app-code"');
  });
});
