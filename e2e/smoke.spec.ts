import { expect, expectAccessible, openCounter, test } from './support/fixtures';

test('the app loads through the app server and shows it is connected to the sandbox establishment', async ({
  page,
}) => {
  await page.goto('/');
  const connection = page.getByTestId('connection');
  await expect(connection).toContainText('Loja Demo');
  await expect(connection).toContainText('Sandbox');
  await expect(page.getByRole('navigation', { name: 'Principal' }).getByRole('link')).toHaveText([
    'Caixa',
    'Prêmios',
    'Quiosque',
  ]);
});

test('the page carries the config: the counter paints without asking GET /api/config', async ({
  page,
}) => {
  const asked: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/config') asked.push(r.url());
  });
  await page.goto('/');
  await expect(page.getByTestId('terminal')).toContainText('Gerente');
  await expect(page.getByRole('dialog', { name: /abrir turno/i })).toBeVisible();
  await page.goto('/premios');
  await expect(page.getByRole('heading', { name: 'Prêmios' })).toBeVisible();
  console.log(`GET /api/config asked ${asked.length} times over two page loads`);
  expect(asked).toEqual([]);
});

test('no token reaches the browser: the config answer and the page carry none', async ({
  page,
  request,
}) => {
  const config = await request.get('/api/config');
  const text = await config.text();
  expect(text).not.toContain('demo-access-token');
  expect(text).not.toContain('demo-app-token');
  expect(JSON.parse(text).data).toMatchObject({ establishmentId: 1, mode: 'sandbox' });
  await page.goto('/');
  expect(await page.content()).not.toContain('demo-access-token');
});

test('a history URL loads the app (server-side fallback to index.html)', async ({ page }) => {
  await page.goto('/premios');
  await expect(page.getByRole('heading', { name: 'Prêmios' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Prêmios' })).toHaveAttribute('aria-current', 'page');
});

test('the built app in dist/ holds no token', async () => {
  const { readdirSync, readFileSync, statSync } = await import('node:fs');
  const { join } = await import('node:path');
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else files.push(p);
    }
  };
  walk('dist');
  expect(files.length).toBeGreaterThan(2);
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    expect(text, f).not.toMatch(/demo-access-token|demo-app-token|access-token-\d/);
  }
});

test('reward list page URLs are absolute, keep the filters and lead back through the app server', async ({
  request,
}) => {
  const first = await request.get(
    '/api/v4/estabelecimentos/1/recompensas?itens_por_pagina=5&status=resgatado',
  );
  expect(first.status()).toBe(200);
  const page1 = (await first.json()).data;
  expect(page1.next_page_url).toMatch(
    /^http:\/\/127\.0\.0\.1:\d+\/api\/v4\/estabelecimentos\/1\/recompensas\?/,
  );
  expect(page1.next_page_url).toContain('status=resgatado');
  const second = await request.get(page1.next_page_url);
  const page2 = (await second.json()).data;
  expect(page2.current_page).toBe(2);
  expect(page2.data.every((r: { premio_status: string }) => r.premio_status === 'resgatado')).toBe(
    true,
  );
});

test('the header is painted from the page itself, before the app code has arrived', async ({
  page,
}) => {
  // The app's JavaScript never arrives: what shows is the server's page alone.
  await page.route('**/assets/*.js', () => undefined);
  await page.goto('/premios', { waitUntil: 'commit' });
  const header = page.locator('header');
  await expect(page.getByTestId('terminal')).toHaveText(
    /Terminal\s+Navegador local \(sandbox\)\s+·\s+Gerente/,
  );
  await expect(page.getByTestId('connection')).toContainText('Loja Demo · nº 1');
  await expect(header.getByRole('link', { name: 'Prêmios' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await expect(page.getByRole('heading', { name: 'Prêmios' })).toHaveCount(0); // no SPA yet
});

test("the SPA's header is the page's header, node for node, on every route that has one", async ({
  page,
}) => {
  for (const path of ['/', '/premios', '/nao-existe']) {
    const html = await (await page.request.get(path)).text();
    const shell = /<div id="root">([\s\S]*?)<\/div>\s*<noscript>/.exec(html)?.[1] ?? '';
    expect(shell, path).toContain('<header');
    await page.goto(path);
    await expect(page.locator('main')).toBeVisible(); // the SPA has rendered
    const same = await page.evaluate((markup) => {
      const t = document.createElement('template');
      t.innerHTML = markup;
      const painted = t.content.querySelector('header')!;
      const rendered = document.querySelector('header')!.cloneNode(true) as HTMLElement;
      painted.normalize();
      rendered.normalize();
      return painted.isEqualNode(rendered) ? '' : `${painted.outerHTML}\n!=\n${rendered.outerHTML}`;
    }, shell);
    expect(same, path).toBe('');
  }
  // The kiosk runs without a header: its page paints none either.
  const kiosk = await (await page.request.get('/quiosque')).text();
  expect(kiosk).toContain('<div id="root"></div>');
});

test('the accessibility check fails a real screen with a serious violation, and passes it without', async ({
  page,
}) => {
  await openCounter(page);
  await expectAccessible(page, 'counter, shift open');
  // A button without a name and an image without a text alternative, as a careless change
  // would add them (the page's CSP does not stop axe, which the test injects).
  await page.evaluate(() => {
    const main = document.querySelector('main')!;
    main.append(Object.assign(document.createElement('img'), { src: '/favicon.svg' }));
    main.append(document.createElement('button'));
  });
  const failure = await expectAccessible(page, 'counter, broken on purpose').then(
    () => null,
    (err: unknown) => String(err),
  );
  expect(failure).toContain('critical image-alt');
  expect(failure).toContain('critical button-name');
});
