import { expect, test } from './support/fixtures';

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
