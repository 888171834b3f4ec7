import { expect, expectAccessible, MANAGER_LINKS, test } from './support/fixtures';
import { expectInertUntilAdopted, holdAssets } from './support/painted';
import { openCounter } from './support/counter';

test('the app loads through the app server and shows it is connected to the sandbox establishment', async ({
  page,
}) => {
  await page.goto('/');
  const connection = page.getByTestId('connection');
  await expect(connection).toContainText('Loja Demo');
  await expect(connection).toContainText('Sandbox');
  await expect(page.getByRole('navigation', { name: 'Principal' }).getByRole('link')).toHaveText(
    MANAGER_LINKS,
  );
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

test('the page paints the whole first view before the app code has arrived; its fields take no keys until the app has them', async ({
  page,
}) => {
  // The app's JavaScript never arrives: what shows is the server's page alone.
  await page.route('**/assets/*.js', () => undefined);
  await page.goto('/', { waitUntil: 'commit' });
  await expect(page.getByTestId('terminal')).toHaveText(
    /Terminal\s+Navegador local \(sandbox\)\s+·\s+Gerente/,
  );
  await expect(page.getByTestId('connection')).toContainText('Loja Demo · nº 1');
  const field = page.locator('#lookup');
  await expect(field).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Abrir turno' })).toBeVisible();
  // Read-only until React owns it: keys typed there would be lost at its first render.
  await expect(field).not.toBeEditable();
  await field.click({ force: true });
  await page.keyboard.type('119');
  await expect(field).toHaveValue('');

  await page.goto('/premios', { waitUntil: 'commit' });
  await expect(
    page.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Prêmios' }),
  ).toHaveAttribute('aria-current', 'page');
  await expect(page.locator('h1', { hasText: 'Prêmios' })).toBeVisible();
});

test('the painted page starts its code after its first paint, through a loader the CSP allows', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto('/');
  await expect(page.locator('#root')).not.toHaveAttribute('inert');
  const { fcp, code } = await page.evaluate(() => ({
    fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1,
    code: performance
      .getEntriesByType('resource')
      .filter((e) => /\/assets\/[^/]+\.js$/.test(e.name))
      .map((e) => e.startTime),
  }));
  console.log(
    `page code: first contentful paint at ${fcp.toFixed(0)} ms, ${code.length} scripts from ` +
      `${Math.min(...code).toFixed(0)} ms`,
  );
  expect(fcp).toBeGreaterThan(0);
  expect(code.length).toBeGreaterThan(0);
  for (const start of code) expect(start).toBeGreaterThanOrEqual(fcp);
  expect(errors).toEqual([]);
});

test('a painted button takes no tap before the app has it, and the first tap after it works (the kiosk)', async ({
  page,
}) => {
  const code = await holdAssets(page, '**/assets/*.js');
  await page.goto('/quiosque', { waitUntil: 'commit' });
  const start = page.getByRole('button', { name: 'Consultar meus pontos' });
  await expect(start).toBeVisible();
  // Painted, not yet React's: the page is inert, so a tap does not land on a button whose
  // handler has not arrived (it was lost, and the customer was left on this screen).
  await expectInertUntilAdopted(page, start);
  code.release();
  await start.click();
  await expect(page.getByRole('group', { name: 'Teclado numérico' })).toBeVisible();
  await expect(page.locator('#root')).not.toHaveAttribute('inert');
});

test('the app adopts the page the server painted: the same elements, no hydration error, on every route', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  // The app's code waits until the painted page has been marked.
  let held = Promise.resolve();
  await page.route('**/assets/*.js', async (route) => {
    await held;
    await route.continue();
  });
  type Marked = Element & { painted?: true };
  for (const [path, anchor] of [
    ['/', '#lookup'],
    ['/premios', 'main h1'],
    ['/quiosque', 'main button'],
    ['/nao-existe', 'main h1'],
  ] as const) {
    let release!: () => void;
    held = new Promise<void>((r) => (release = r));
    // Not 'domcontentloaded': that waits for the app's module scripts, which are held.
    await page.goto(path, { waitUntil: 'commit' });
    await page.locator(anchor).first().waitFor({ state: 'attached' });
    const painted = await page.evaluate((selector) => {
      const el = document.querySelector<Marked>(selector);
      if (el) el.painted = true;
      return el !== null && document.getElementById('root')!.hasAttribute('data-ssr');
    }, anchor);
    expect(painted, `${path}: painted by the server`).toBe(true);
    release();
    // React owns the element once it has adopted it (its fiber is on the element).
    await expect
      .poll(
        () =>
          page.evaluate((selector) => {
            const el = document.querySelector<Marked>(selector);
            if (el === null) return 'gone';
            const owned = Object.keys(el).some((k) => k.startsWith('__reactFiber$'));
            return owned ? (el.painted ? 'adopted' : 'replaced') : 'waiting';
          }, anchor),
        { message: path },
      )
      .toBe('adopted');
  }
  // The counter works from the adopted page: the shift opens, the search field takes the keys.
  await page.goto('/');
  const dialog = page.getByRole('dialog', { name: /abrir turno/i });
  await dialog.getByLabel('Senha do atendente').fill('1234');
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.getByLabel(/buscar cliente/i)).toBeFocused();
  console.log(`hydration: 4 routes adopted, ${errors.length} errors`);
  expect(errors).toEqual([]);
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
