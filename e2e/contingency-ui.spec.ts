// Contingency on the counter, in a real browser against the real processes (sandbox, fault
// relay, app server in live mode): the header's state and count while the service is down,
// a sale taken then (its panel and its marked slip), and its settlement once the service
// returns, on the counter and in "Lançamentos do turno".
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type BrowserContext } from '@playwright/test';
import {
  freshPhone,
  startAppServer,
  startSandbox,
  type RunningProcess,
} from '../server/testing/processes';
import { startRelay, type Relay } from '../server/testing/relay';
import { enrollContext as enrollTerminal } from './support/enroll-context';
import { amount, expectAccessible, postButton } from './support/fixtures';

let dir: string;
let sandbox: RunningProcess;
let relay: Relay;
let app: RunningProcess;
let appDb: string;

/** Makes the browser context an enrolled caixa terminal of this spec's app server. */
function enrollContext(context: BrowserContext): Promise<void> {
  return enrollTerminal(context, { url: app.url, appDb, name: 'Caixa 1' });
}

test.beforeAll(async () => {
  test.setTimeout(60_000);
  dir = mkdtempSync(path.join(tmpdir(), 'contingency-ui-'));
  sandbox = await startSandbox(path.join(dir, 'sandbox.db'));
  relay = await startRelay(sandbox.url);
  appDb = path.join(dir, 'app.db');
  app = await startAppServer(relay.url, {
    APP_DB: appDb,
    CONTINGENCY_FAILURES: '1',
    CONTINGENCY_PROBE_MS: '500',
  });
});

test.afterAll(async () => {
  await app?.stop();
  await relay?.close();
  await sandbox?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('service down: the header says so with the count; a sale is kept, its slip marked; when the service returns it settles on the counter and in the ledger', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ baseURL: app.url });
  await enrollContext(context);
  const page = await context.newPage();
  await page.goto('/');
  const shift = page.getByRole('dialog', { name: /abrir turno/i });
  await shift.getByLabel('Senha do atendente').fill('1234');
  await shift.getByRole('button', { name: /abrir turno/i }).click();
  await expect(shift).toBeHidden();

  // A new customer found by phone; the link drops before the sale is confirmed.
  const phone = freshPhone();
  const field = page.getByLabel(/buscar cliente/i);
  await field.fill(phone.slice(3));
  await field.press('Enter');
  await amount(page).pressSequentially('2590');
  relay.setDown(true);
  await postButton(page).click();
  const banner = page.getByTestId('contingency');
  await expect(banner).toContainText('Serviço indisponível — modo contingência', {
    timeout: 15_000,
  });
  const kept = page.getByTestId('kept-panel');
  await expect(kept.getByRole('heading')).toHaveText(
    'Guardado: será lançado quando o serviço voltar',
  );
  await expect(page.getByTestId('slip')).toContainText('VENDA GUARDADA');
  await expect(page.getByTestId('slip')).toContainText('Saldo indisponível');
  await expect(page.getByTestId('contingency-waiting')).toHaveText('1 venda aguardando envio', {
    timeout: 10_000,
  });
  await page.screenshot({ path: 'test-results/contingency-2-kept.png', fullPage: true });
  await expectAccessible(page, 'sale kept in contingency');

  const back = Date.now();
  relay.setDown(false);
  await expect(kept.getByRole('heading')).toHaveText(
    '✓ Lançado: a venda guardada chegou ao serviço',
    { timeout: 30_000 },
  );
  await expect(kept).toContainText('Novo saldo');
  await expect(banner).toBeHidden({ timeout: 10_000 });
  console.log(
    `[contingency-ui] kept sale shown as lançado ${((Date.now() - back) / 1000).toFixed(1)} s after the service returned`,
  );
  await page.screenshot({ path: 'test-results/contingency-3-settled.png', fullPage: true });
  await expectAccessible(page, 'kept sale settled');

  await page.getByRole('button', { name: /lançamentos do turno/i }).click();
  const ledger = page.getByRole('dialog', { name: /lançamentos/i });
  await expect(ledger.getByRole('row').filter({ hasText: 'R$ 25,90' })).toContainText('Lançado');
  await page.screenshot({ path: 'test-results/contingency-4-ledger.png', fullPage: true });
  await context.close();
});
