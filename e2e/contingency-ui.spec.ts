// Contingency on the counter, in a real browser against the real processes (sandbox, fault
// relay, app server in live mode): the header's state and count while the service is down,
// a sale taken then (its panel and its marked slip), and its settlement once the service
// returns, on the counter and in "Lançamentos do turno"; a sale taken after the customer's
// lookup failed (the service already down), delivered once.
import Database from 'better-sqlite3';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { freshPhone } from '../server/testing/processes';
import { enrollContext } from './support/enroll-context';
import { ownRelayedApp } from './support/own-server';
import { expectAccessible } from './support/fixtures';
import { amount, openShift, postButton } from './support/counter';
import { shot } from './support/shots';

const own = ownRelayedApp('contingency-ui', {
  CONTINGENCY_FAILURES: '1',
  CONTINGENCY_PROBE_MS: '500',
});

/**
 * A new browser context, an enrolled terminal of this spec's server (a caixa unless told), on
 * the counter with its shift opened with `password`.
 */
async function openTerminal(
  browser: Browser,
  role: 'caixa' | 'gerente' = 'caixa',
  password = '1234',
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: own.app.url });
  await enrollContext(context, own, role === 'gerente' ? 'Gerência' : 'Caixa 1', role);
  const page = await context.newPage();
  await page.goto('/');
  await openShift(page, password);
  return { context, page };
}

/** The amounts the sandbox holds as postings for `celular` (read from its database). */
function sandboxPostings(celular: string): number[] {
  const db = new Database(own.sandboxDb, { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare(
        `select p.valor_gasto as valor from pontos p join clientes c on c.id = p.cliente_id
         where c.estabelecimento_id = 1 and c.celular = ? order by p.id`,
      )
      .all(celular) as { valor: number }[];
    return rows.map((r) => r.valor);
  } finally {
    db.close();
  }
}

/** The state the app server's journal holds for the sale to `celular` (one sale each here). */
function journalState(celular: string): string {
  const db = new Database(own.appDb, { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare('select state from posting_journal where customer_key = ?')
      .all(celular) as { state: string }[];
    expect(rows).toHaveLength(1);
    return rows[0]!.state;
  } finally {
    db.close();
  }
}

test('service down: the header says so with the count; a sale is kept, its slip marked; when the service returns it settles on the counter and in the ledger', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { context, page } = await openTerminal(browser);

  // A new customer found by phone; the link drops before the sale is confirmed.
  const phone = freshPhone();
  const field = page.getByLabel(/buscar cliente/i);
  await field.fill(phone.slice(3));
  await field.press('Enter');
  await amount(page).pressSequentially('2590');
  own.relay.setDown(true);
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
  await shot(page, 'test-results/contingency-2-kept.png', { fullPage: true });
  await expectAccessible(page, 'sale kept in contingency');

  const back = Date.now();
  own.relay.setDown(false);
  await expect(kept.getByRole('heading')).toHaveText(
    '✓ Lançado: a venda guardada chegou ao serviço',
    { timeout: 30_000 },
  );
  await expect(kept).toContainText('Novo saldo');
  await expect(banner).toBeHidden({ timeout: 10_000 });
  console.log(
    `[contingency-ui] kept sale shown as lançado ${((Date.now() - back) / 1000).toFixed(1)} s after the service returned`,
  );
  await shot(page, 'test-results/contingency-3-settled.png', { fullPage: true });
  await expectAccessible(page, 'kept sale settled');

  await page.getByRole('button', { name: /lançamentos do turno/i }).click();
  const ledger = page.getByRole('dialog', { name: /lançamentos/i });
  await expect(ledger.getByRole('row').filter({ hasText: 'R$ 25,90' })).toContainText('Lançado');
  await shot(page, 'test-results/contingency-4-ledger.png', { fullPage: true });
  await context.close();
});

test('the service down before the lookup: the counter says the customer cannot be read, takes the sale by phone, and it is delivered once when the service returns', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { context, page } = await openTerminal(browser);
  own.relay.setDown(true);
  const banner = page.getByTestId('contingency');
  const field = page.getByLabel(/buscar cliente/i);

  // By CPF the sale cannot be kept (the points call needs the phone): the counter says so.
  await field.fill('52998224725');
  await field.press('Enter');
  const failed = page.getByTestId('lookup-unavailable');
  await expect(failed.getByRole('heading')).toHaveText(
    'Não foi possível consultar o cliente agora',
    { timeout: 15_000 },
  );
  await expect(failed).toContainText('busque pelo celular do cliente');
  await expect(amount(page)).toHaveCount(0);
  await expect(banner).toContainText('Serviço indisponível — modo contingência', {
    timeout: 10_000,
  });
  await shot(page, 'test-results/contingency-5-lookup-cpf.png', { fullPage: true });

  // By phone: the same panel offers the sale; the amount takes the focus.
  const phone = freshPhone();
  await field.fill(phone.slice(3));
  await field.press('Enter');
  await expect(failed).toContainText('será lançada quando o serviço voltar');
  await expect(failed).toContainText('não podem ser lidos agora');
  const sale = page.getByRole('form', { name: 'Lançar pontos' });
  await expect(sale).toContainText('Saldo indisponível agora');
  await expect(page.getByTestId('new-balance')).toHaveCount(0);
  await expect(amount(page)).toBeFocused();
  await amount(page).pressSequentially('3150');
  await shot(page, 'test-results/contingency-6-lookup-phone.png', { fullPage: true });
  await expectAccessible(page, 'lookup failed, sale by phone');
  await amount(page).press('Enter');

  const kept = page.getByTestId('kept-panel');
  await expect(kept.getByRole('heading')).toHaveText(
    'Guardado: será lançado quando o serviço voltar',
  );
  await expect(page.getByTestId('slip')).toContainText('VENDA GUARDADA');
  await expect(postButton(page)).toHaveCount(0);
  expect(sandboxPostings(phone)).toEqual([]);
  await shot(page, 'test-results/contingency-7-kept-by-phone.png', { fullPage: true });

  own.relay.setDown(false);
  await expect(kept.getByRole('heading')).toHaveText(
    '✓ Lançado: a venda guardada chegou ao serviço',
    { timeout: 30_000 },
  );
  await expect(banner).toBeHidden({ timeout: 10_000 });
  // Settled and nothing left waiting (the banner is gone): counted in the sandbox's own data.
  const got = sandboxPostings(phone);
  const delivered = got.filter((v) => v === 3150).length;
  console.log(
    `[contingency-ui] sale taken after a failed lookup: confirmed 1 delivered ${delivered} duplicated ${Math.max(0, delivered - 1)} lost ${delivered === 0 ? 1 : 0}`,
  );
  expect(got).toEqual([3150]);
  await context.close();
});

test('sales refused at delivery: the open ledger follows them, the cashier is told to ask the manager, the manager resends one with the corrected password and discards the other', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  // A wrong attendant password (the shift does not check it): the service refuses it only
  // when the kept sales are delivered.
  const { context: cashierContext, page: cashier } = await openTerminal(browser, 'caixa', '9999');
  own.relay.setDown(true);

  const field = cashier.getByLabel(/buscar cliente/i);
  const kept = cashier.getByTestId('kept-panel');
  const sales = [
    { phone: freshPhone(), digits: '1270', money: 'R$ 12,70' },
    { phone: freshPhone(), digits: '1380', money: 'R$ 13,80' },
  ];
  for (const sale of sales) {
    await field.fill(sale.phone.slice(3));
    await field.press('Enter');
    await expect(amount(cashier)).toBeFocused({ timeout: 15_000 });
    await amount(cashier).pressSequentially(sale.digits);
    await amount(cashier).press('Enter');
    await expect(kept.getByRole('heading')).toHaveText(
      'Guardado: será lançado quando o serviço voltar',
    );
    await cashier.keyboard.press('Escape');
    await expect(kept).toBeHidden();
  }

  // The cashier's ledger, left open while the service returns, follows both sales.
  await cashier.getByRole('button', { name: /lançamentos do turno/i }).click();
  const cashierLedger = cashier.getByRole('dialog', { name: /lançamentos/i });
  const cashierRow = (money: string) => cashierLedger.getByRole('row').filter({ hasText: money });
  for (const sale of sales) await expect(cashierRow(sale.money)).toContainText('Aguardando envio');
  own.relay.setDown(false);
  for (const sale of sales) {
    await expect(cashierRow(sale.money)).toContainText('Precisa de atenção', { timeout: 30_000 });
    await expect(cashierRow(sale.money)).toContainText('Peça ao gerente');
    await expect(cashierRow(sale.money).getByRole('button')).toHaveCount(0);
  }
  await shot(cashier, 'test-results/contingency-8-cashier-attention.png');
  await expectAccessible(cashier, 'cashier ledger, sales needing attention');

  // The manager, on another terminal, decides.
  const { context: managerContext, page: manager } = await openTerminal(browser, 'gerente');
  await manager.getByRole('button', { name: /lançamentos do turno/i }).click();
  const ledger = manager.getByRole('dialog', { name: /lançamentos/i });
  const row = (money: string) => ledger.getByRole('row').filter({ hasText: money });
  const [resent, discarded] = sales as [(typeof sales)[0], (typeof sales)[0]];
  await expect(row(resent.money)).toContainText('Precisa de atenção');
  await expect(row(resent.money)).toContainText('Caixa 1');
  await shot(manager, 'test-results/contingency-9-manager-attention.png');

  await row(resent.money).getByRole('button', { name: 'Reenviar' }).click();
  const password = row(resent.money).getByLabel('Senha do atendente (corrigida)');
  await expect(password).toBeFocused();
  await manager.keyboard.press('Enter');
  await expect(row(resent.money)).toContainText('Informe a senha do atendente.');
  await password.fill('1234');
  await shot(manager, 'test-results/contingency-10-manager-resend.png');
  await expectAccessible(manager, 'manager resending a sale');
  await password.press('Enter');
  await expect(ledger.getByRole('status').first()).toContainText(
    `Venda de ${resent.money} reenviada com a senha corrigida.`,
  );
  await expect(ledger.getByRole('region', { name: 'Lista de lançamentos' })).toBeFocused();
  await expect(row(resent.money)).toContainText('Lançado', { timeout: 20_000 });

  await row(discarded.money).getByRole('button', { name: 'Descartar', exact: true }).click();
  const confirm = row(discarded.money).getByRole('group', { name: /Descartar a venda/ });
  // The question opens on its confirm button, as every confirmation: Enter confirms.
  await expect(confirm.getByRole('button', { name: /^Descartar venda/ })).toBeFocused();
  await shot(manager, 'test-results/contingency-11-manager-discard.png');
  // Esc backs out of the question, not out of the ledger: nothing decided.
  await manager.keyboard.press('Escape');
  await expect(confirm).toBeHidden();
  await expect(ledger).toBeVisible();
  const discardButton = row(discarded.money).getByRole('button', {
    name: 'Descartar',
    exact: true,
  });
  await expect(discardButton).toBeFocused();
  expect(journalState(discarded.phone)).toBe('precisa de atenção');
  // Enter on "Descartar" asks again; Enter on "Descartar venda" discards it.
  await manager.keyboard.press('Enter');
  await expect(confirm.getByRole('button', { name: /^Descartar venda/ })).toBeFocused();
  await manager.keyboard.press('Enter');
  await expect(row(discarded.money)).toContainText('Descartado');
  // The answer leaves before the store's commit (journal/context.ts, settle): poll.
  await expect.poll(() => journalState(discarded.phone)).toBe('descartado');
  await expect(row(discarded.money).getByRole('button')).toHaveCount(0);
  await shot(manager, 'test-results/contingency-12-manager-decided.png');

  // The cashier's ledger, still open, shows both decisions' outcome.
  await expect(cashierRow(resent.money)).toContainText('Lançado', { timeout: 10_000 });
  await expect(cashierRow(discarded.money)).toContainText('Descartado');

  const got = sales.map((s) => sandboxPostings(s.phone));
  console.log(
    `[contingency-ui] refused at delivery: resent one delivered ${got[0]!.length} (${JSON.stringify(got[0])}), discarded one delivered ${got[1]!.length}`,
  );
  expect(got).toEqual([[1270], []]);
  await cashierContext.close();
  await managerContext.close();
});
