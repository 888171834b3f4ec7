// The kiosk, through the real app server and sandbox, with auto-enrollment off: a kiosk
// terminal (touch, 768 px portrait and 1024 px landscape) and a counter terminal, each its own
// browser context. Every answer the kiosk receives is checked for fields a kiosk may not get.
import type { Browser, BrowserContext, Page } from '@playwright/test';
import Database from 'better-sqlite3';
import { ownServer, terminalContext as ownTerminal } from './support/own-server';
import { forbiddenKeys } from '../server/app/domain/kiosk/view';
import { expect, expectAccessible, test } from './support/fixtures';
import { uniquePhone } from './support/customers';
import { expectInertUntilAdopted, holdAssets } from './support/painted';
import { shot, shotsDir } from './support/shots';

const SHOTS = shotsDir('kiosk');

const server = ownServer('kiosk', {
  // The default's 6 lookups a minute, in a one-hour window: the lookups test below cannot
  // straddle two windows on a slow machine (every test has its own kiosk terminal).
  env: { RATE_LIMIT_KIOSK_LOOKUP: '6/3600' },
  timeoutMs: 90_000,
});

// Two browser contexts, axe on every state and a loaded machine: generous limits.
test.describe.configure({ mode: 'serial', timeout: 150_000 });

/** Every kiosk answer seen, checked as it arrives. */
const seen: { url: string; problems: string[] }[] = [];

/** A terminal of `role` (see `terminalContext`); a kiosk's answers are checked as they arrive. */
async function terminalContext(
  browser: Browser,
  role: 'quiosque' | 'caixa',
  name: string,
  viewport?: { width: number; height: number },
): Promise<{ context: BrowserContext; page: Page; id: number }> {
  const { context, page, id } = await ownTerminal(server, browser, role, name, viewport);
  if (role === 'quiosque') {
    page.on('response', async (res) => {
      if (!res.url().includes('/api/quiosque/')) return;
      const type = res.headers()['content-type'] ?? '';
      if (!type.includes('json')) return;
      const body = await res.json().catch(() => null);
      const text = JSON.stringify(body);
      const problems = forbiddenKeys(body);
      for (const secret of ['52998224725', '11987654321', '1234"', '@']) {
        if (text.includes(secret)) problems.push(`contains ${secret}`);
      }
      seen.push({ url: res.url(), problems });
    });
  }
  return { context, page, id };
}

const keypad = (page: Page) => page.getByRole('group', { name: 'Teclado numérico' });

async function tapDigits(page: Page, digits: string) {
  for (const d of digits) await keypad(page).getByRole('button', { name: d, exact: true }).tap();
}

async function kioskShot(page: Page, name: string) {
  await shot(page, `${SHOTS}/${name}.png`, { fullPage: true });
}

async function openCounterShift(page: Page) {
  await page.goto('/');
  const dialog = page.getByRole('dialog', { name: /abrir turno/i });
  await dialog.getByLabel('Senha do atendente').fill('1234');
  await dialog.getByRole('button', { name: /abrir turno/i }).click();
  await expect(dialog).toBeHidden();
}

async function compras(page: Page, celular: string): Promise<number | null> {
  const res = await page.request.post(`${server.url}/api/v4/estabelecimentos/1/clientes/buscar`, {
    data: { celular },
    headers: { origin: server.url },
  });
  if (res.status() === 404) return null;
  return (await res.json()).data.compras as number;
}

test('keypad entry shows the balance; no system keyboard; nothing links elsewhere', async ({
  browser,
}) => {
  for (const [label, viewport] of [
    ['portrait', { width: 768, height: 1024 }],
    ['landscape', { width: 1024, height: 768 }],
  ] as const) {
    const { context, page } = await terminalContext(
      browser,
      'quiosque',
      `Quiosque ${label}`,
      viewport,
    );
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Programa de fidelidade' })).toBeVisible();
    await expect(page.getByRole('link')).toHaveCount(0);
    await expectAccessible(page, `welcome ${label}`);
    await kioskShot(page, `welcome-${label}`);
    await page.getByRole('button', { name: 'Consultar meus pontos' }).tap();
    const field = page.getByLabel('Celular com DDD');
    await expect(field).toHaveAttribute('inputmode', 'none');
    await expect(field).toHaveAttribute('readonly', '');
    await tapDigits(page, '1198765432');
    await expect(field).toHaveValue('(11) 98765-432');
    await page.getByRole('button', { name: 'Confirmar' }).tap();
    await expect(page.getByRole('alert')).toContainText('11 números');
    await expectAccessible(page, `phone error ${label}`);
    await kioskShot(page, `phone-error-${label}`);
    await tapDigits(page, '1');
    await page.getByRole('button', { name: 'Confirmar' }).tap();
    await expect(page.getByRole('heading', { name: 'Olá, Maria!' })).toBeVisible();
    await expect(page.getByText('Celular (11) 9••••-4321')).toBeVisible();
    await expect(page.getByText('Seu saldo')).toBeVisible();
    await expect(page.getByText('Prêmios para retirar')).toBeVisible();
    await expect(page.getByRole('link')).toHaveCount(0);
    await expectAccessible(page, `balance ${label}`);
    await kioskShot(page, `balance-${label}`);
    // Touch targets: every button at least 48 × 48.
    for (const b of await page.getByRole('button').all()) {
      const box = (await b.boundingBox())!;
      expect(box.width, await b.innerText()).toBeGreaterThanOrEqual(48);
      expect(box.height, await b.innerText()).toBeGreaterThanOrEqual(48);
    }
    await context.close();
  }
});

test('a kiosk terminal opened at /: the painted button takes no tap before the kiosk code is here', async ({
  browser,
}) => {
  // A kiosk terminal's page at / is the kiosk, whose code is a chunk of its own. Hydrating
  // before it arrived left the kiosk's part of the page unadopted while the page was no longer
  // inert: a tap there had no handler and was lost (a CI run waited 2.5 min for the keypad).
  const { context, page } = await terminalContext(browser, 'quiosque', 'Quiosque raiz');
  const code = await holdAssets(page, '**/assets/quiosque-*.js');
  await page.goto('/', { waitUntil: 'commit' });
  const start = page.getByRole('button', { name: 'Consultar meus pontos' });
  await expect(start).toBeVisible();
  await expect.poll(code.asked).toBeGreaterThan(0);
  await expectInertUntilAdopted(page, start);
  code.release();
  await start.tap();
  await expect(keypad(page)).toBeVisible();
  await expect(page.locator('#root')).not.toHaveAttribute('inert');
  console.log(
    `kiosk at /: chunk asked ${code.asked()} time(s); first tap after it opened the keypad`,
  );
  await context.close();
});

test('unknown phone: consent, then registration; declining registers nothing', async ({
  browser,
}) => {
  const { context, page } = await terminalContext(browser, 'quiosque', 'Quiosque cadastro');
  const counter = await terminalContext(browser, 'caixa', 'Caixa cadastro');
  const phone = uniquePhone();
  await page.goto('/');
  await page.getByRole('button', { name: 'Consultar meus pontos' }).tap();
  await tapDigits(page, phone.digits);
  await page.getByRole('button', { name: 'Confirmar' }).tap();
  await expect(page.getByRole('heading', { name: 'Cadastre-se no programa' })).toBeVisible();
  await expect(page.getByText(/LGPD/)).toBeVisible();
  await expectAccessible(page, 'consent');
  await kioskShot(page, 'consent-portrait');
  await page.getByRole('button', { name: 'Não, obrigado' }).tap();
  await expect(page.getByRole('heading', { name: 'Programa de fidelidade' })).toBeVisible();
  expect(await compras(counter.page, phone.e164)).toBeNull();

  await page.getByRole('button', { name: 'Consultar meus pontos' }).tap();
  await tapDigits(page, phone.digits);
  await page.getByRole('button', { name: 'Confirmar' }).tap();
  await page.getByLabel('Seu nome (opcional)').fill('Beatriz Nunes');
  await page.getByRole('button', { name: 'Aceito e quero me cadastrar' }).tap();
  await expect(page.getByRole('heading', { name: 'Olá, Beatriz!' })).toBeVisible();
  await expect(page.getByText('Nenhum ponto a vencer')).toBeVisible();
  expect(await compras(counter.page, phone.e164)).toBe(0);
  await context.close();
  await counter.context.close();
});

test('a staged sale is claimed once: double tap, reload and a second kiosk post nothing more', async ({
  browser,
}) => {
  const kiosk = await terminalContext(browser, 'quiosque', 'Quiosque balcão');
  const second = await terminalContext(browser, 'quiosque', 'Quiosque 2');
  const counter = await terminalContext(browser, 'caixa', 'Caixa 1', { width: 1366, height: 768 });
  await kiosk.page.goto('/');
  await expect(kiosk.page.getByRole('heading', { name: 'Programa de fidelidade' })).toBeVisible();
  await openCounterShift(counter.page);
  const panel = counter.page.getByRole('region', { name: 'Cliente pontua no quiosque' });
  await panel.getByLabel('Quiosque', { exact: true }).selectOption({ label: 'Quiosque balcão' });
  await panel.getByLabel('Valor para o quiosque').pressSequentially('4590');
  await counter.page.keyboard.press('F7');
  await expect(panel.getByText('Aguardando o cliente no quiosque')).toBeVisible();
  await kioskShot(counter.page, 'counter-waiting');

  const heading = kiosk.page.getByRole('heading', {
    name: 'Digite seu celular para ganhar seus pontos de R$ 45,90',
  });
  await expect(heading).toBeVisible();
  await expectAccessible(kiosk.page, 'claim prompt');
  await kioskShot(kiosk.page, 'claim-portrait');
  const phone = uniquePhone();
  await tapDigits(kiosk.page, phone.digits);
  await kiosk.page.getByRole('button', { name: 'Confirmar' }).tap();
  await expect(kiosk.page.getByRole('heading', { name: 'Cadastre-se no programa' })).toBeVisible();
  const accept = kiosk.page.getByRole('button', { name: 'Aceito: cadastrar e ganhar pontos' });
  // A double tap: the second lands on a disabled button or the next screen.
  const box = (await accept.boundingBox())!;
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
  await Promise.all([kiosk.page.touchscreen.tap(x, y), kiosk.page.touchscreen.tap(x, y)]);
  await expect(kiosk.page.getByRole('heading', { name: 'Você ganhou 45 pontos!' })).toBeVisible();
  await expectAccessible(kiosk.page, 'claim result');
  await kioskShot(kiosk.page, 'claim-result-portrait');
  await expect(panel.getByText('Pontos lançados pelo cliente')).toBeVisible();
  await expect(panel).toContainText('45 pontos');
  await kioskShot(counter.page, 'counter-result');

  // A reload shows no open sale; a second kiosk cannot claim it.
  await kiosk.page.reload();
  await expect(kiosk.page.getByRole('heading', { name: 'Programa de fidelidade' })).toBeVisible();
  const open = await second.page.request.get(`${server.url}/api/quiosque/venda`);
  expect((await open.json()).data.venda).toBeNull();
  expect(await compras(counter.page, phone.e164)).toBe(1);
  console.log(
    `kiosk e2e: one staged sale, double tap + reload + second kiosk → sandbox purchases: ${await compras(counter.page, phone.e164)}`,
  );
  await kiosk.context.close();
  await second.context.close();
  await counter.context.close();
});

test('cancel from the counter: the kiosk says so and goes back to welcome', async ({ browser }) => {
  const kiosk = await terminalContext(browser, 'quiosque', 'Quiosque cancela');
  const counter = await terminalContext(browser, 'caixa', 'Caixa 2', { width: 1366, height: 768 });
  await kiosk.page.goto('/');
  await openCounterShift(counter.page);
  const panel = counter.page.getByRole('region', { name: 'Cliente pontua no quiosque' });
  await panel.getByLabel('Quiosque', { exact: true }).selectOption({ label: 'Quiosque cancela' });
  await panel.getByLabel('Valor para o quiosque').pressSequentially('1000');
  await panel.getByRole('button', { name: /Enviar ao quiosque/ }).click();
  await expect(
    kiosk.page.getByRole('heading', { name: /ganhar seus pontos de R\$ 10,00/ }),
  ).toBeVisible();
  await panel.getByRole('button', { name: 'Cancelar envio' }).click();
  await expect(panel.getByText('Venda cancelada')).toBeVisible();
  await expect(kiosk.page.getByText('O caixa cancelou esta venda.')).toBeVisible();
  await expectAccessible(kiosk.page, 'cancelled');
  await kioskShot(kiosk.page, 'cancelled-portrait');
  await kiosk.context.close();
  await counter.context.close();
});

/**
 * A kiosk terminal showing Maria's balance, its clock paused 29 s after the tap that asked for
 * it (a second before the idle question); `lookups`, the balance requests it sent. The idle
 * wait starts at that tap (the last touch). The page's clock runs in real time until the pause,
 * so it is counted from the tap, however long the answer took: on a loaded machine a lookup of
 * over a second made 29 s after the answer already idle. Paused, the countdown moves only by
 * runFor (which fires every tick it passes).
 */
async function idleWithMaria(browser: Browser, name: string) {
  const { context, page } = await terminalContext(browser, 'quiosque', name);
  await page.clock.install();
  await page.goto('/');
  await page.getByRole('button', { name: 'Consultar meus pontos' }).tap();
  await tapDigits(page, '11987654321');
  const lookups: string[] = [];
  page.on('request', (r) => r.url().endsWith('/api/quiosque/saldo') && lookups.push(r.url()));
  const tappedAt = await page.evaluate(() => Date.now());
  await page.getByRole('button', { name: 'Confirmar' }).tap();
  await expect(page.getByRole('heading', { name: 'Olá, Maria!' })).toBeVisible();
  await page.clock.pauseAt(tappedAt + 29_000);
  return { context, page, lookups };
}

test('30 s idle: a visible countdown, then welcome with the customer’s data gone', async ({
  browser,
}) => {
  const { context, page, lookups } = await idleWithMaria(browser, 'Quiosque ocioso');
  await expect(page.getByRole('alertdialog')).toBeHidden();
  await page.clock.runFor(1_500);
  const dialog = page.getByRole('alertdialog', { name: 'Ainda está aí?' });
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId('countdown')).toHaveText('10');
  await page.clock.runFor(3_000);
  await expect(page.getByTestId('countdown')).toHaveText('7');
  await page.clock.resume(); // axe waits on timers of its own
  await expectAccessible(page, 'idle countdown');
  await kioskShot(page, 'idle-portrait');
  await page.clock.runFor(8_000);
  await expect(page.getByRole('heading', { name: 'Programa de fidelidade' })).toBeVisible();
  await expect(page.getByText('Maria')).toHaveCount(0);
  // The cache is empty: the same phone asks the server again.
  await page.getByRole('button', { name: 'Consultar meus pontos' }).tap();
  await tapDigits(page, '11987654321');
  await page.getByRole('button', { name: 'Confirmar' }).tap();
  await expect(page.getByRole('heading', { name: 'Olá, Maria!' })).toBeVisible();
  expect(lookups).toHaveLength(2);
  await context.close();
});

test('leaving kiosk mode needs the attendant password; the kiosk can stage a sale itself', async ({
  browser,
}) => {
  const { context, page } = await terminalContext(browser, 'quiosque', 'Quiosque saída');
  await page.goto('/');
  await page.getByRole('button', { name: 'Atendente' }).tap();
  await expect(page.getByRole('heading', { name: 'Área do atendente' })).toBeVisible();
  await tapDigits(page, '9999');
  await page.getByRole('button', { name: 'Sair do modo quiosque' }).tap();
  await expect(page.getByRole('alert')).toContainText('Senha do atendente incorreta');
  await expectAccessible(page, 'staff wrong password');
  await kioskShot(page, 'staff-portrait');
  // Fallback staging: amount and password on the kiosk.
  await page.getByLabel('Valor da venda (para lançar aqui)').tap();
  await tapDigits(page, '2590');
  await page.getByLabel('Senha do atendente').tap();
  await tapDigits(page, '1234');
  await page.getByRole('button', { name: /Enviar R\$ 25,90 para o cliente/ }).tap();
  await expect(
    page.getByRole('heading', { name: 'Digite seu celular para ganhar seus pontos de R$ 25,90' }),
  ).toBeVisible();
  await tapDigits(page, '11987654321');
  await page.getByRole('button', { name: 'Confirmar' }).tap();
  await expect(page.getByRole('heading', { name: 'Você ganhou 25 pontos!' })).toBeVisible();
  await page.getByRole('button', { name: 'Concluir' }).tap();

  await page.getByRole('button', { name: 'Atendente' }).tap();
  await tapDigits(page, '1234');
  await page.getByRole('button', { name: 'Sair do modo quiosque' }).tap();
  await expect(page.getByRole('heading', { name: 'Modo quiosque encerrado' })).toBeVisible();
  await expectAccessible(page, 'exited');
  await context.close();
});

/** How many times the store's audit trail recorded this kiosk leaving kiosk mode. */
function kioskExits(kioskId: number): number {
  const db = new Database(server.env.APP_DB!, { readonly: true });
  try {
    const row = db
      .prepare(
        "select count(*) as n from audit_log where action = 'quiosque.saida' and terminal_id = ?",
      )
      .get(kioskId) as { n: number };
    return row.n;
  } finally {
    db.close();
  }
}

test('with a keyboard, leaving kiosk mode is a confirmation: the password has the focus, Esc goes back, Enter leaves', async ({
  browser,
}) => {
  const { context, page, id } = await terminalContext(browser, 'quiosque', 'Quiosque teclado');
  await page.goto('/');
  await page.getByRole('button', { name: 'Atendente' }).tap();
  await expect(page.getByRole('heading', { name: 'Área do atendente' })).toBeVisible();
  const password = page.getByLabel('Senha do atendente');
  await expect(password).toBeFocused();
  // Esc goes back, nothing done: still in kiosk mode, no exit recorded.
  await page.keyboard.type('1234');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('heading', { name: 'Programa de fidelidade' })).toBeVisible();
  expect(kioskExits(id)).toBe(0);
  await expect(page.getByRole('button', { name: 'Atendente' })).toBeVisible();
  // Enter leaves, once, as the audit trail counts it.
  await page.getByRole('button', { name: 'Atendente' }).tap();
  await expect(password).toBeFocused();
  await page.keyboard.type('1234');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Modo quiosque encerrado' })).toBeVisible();
  expect(kioskExits(id)).toBe(1);
  console.log(`kiosk keyboard e2e: Esc recorded no exit, Enter recorded ${kioskExits(id)}`);
  await context.close();
});

test('the idle question has "Continuar" focused: Enter or Esc keeps the customer on screen', async ({
  browser,
}) => {
  const { context, page, lookups } = await idleWithMaria(browser, 'Quiosque ocioso 2');
  const balance = page.getByRole('heading', { name: 'Olá, Maria!' });
  const dialog = page.getByRole('alertdialog', { name: 'Ainda está aí?' });
  for (const [key, wait] of [
    ['Enter', 1_500],
    ['Escape', 19_500],
  ] as const) {
    await page.clock.runFor(wait);
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Continuar' })).toBeFocused();
    await page.keyboard.press(key);
    await expect(dialog).toBeHidden();
    // Past where the countdown would have ended: the customer is still there.
    await page.clock.runFor(12_000);
    await expect(balance).toBeVisible();
    await expect(dialog).toBeHidden();
  }
  expect(lookups).toHaveLength(1);
  await context.close();
});

test('offline boot shows "Sem conexão" and recovers by itself', async ({ browser }) => {
  const { context, page } = await terminalContext(browser, 'quiosque', 'Quiosque rede');
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Programa de fidelidade' })).toBeVisible();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, {
    timeout: 15_000,
  });
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Sem conexão' })).toBeVisible({ timeout: 15_000 });
  await expectAccessible(page, 'offline');
  await kioskShot(page, 'offline-portrait');
  await context.setOffline(false);
  await expect(page.getByRole('heading', { name: 'Programa de fidelidade' })).toBeVisible({
    timeout: 15_000,
  });
  await context.close();
});

test('a kiosk answers only a handful of phone lookups a minute, and says so in Portuguese', async ({
  browser,
}) => {
  const { context, page } = await terminalContext(browser, 'quiosque', 'Quiosque consultas');
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Programa de fidelidade' })).toBeVisible();
  // Someone scripting the kiosk's own endpoint (its cookie, its origin) to walk phone numbers.
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) {
    const res = await page.request.post(`${server.url}/api/quiosque/saldo`, {
      data: { celular: uniquePhone().e164 },
      headers: { origin: server.url },
    });
    statuses.push(res.status());
  }
  expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
  // The next customer at the screen is told to wait.
  await page.getByRole('button', { name: 'Consultar meus pontos' }).tap();
  await tapDigits(page, '11987654321');
  await page.getByRole('button', { name: 'Confirmar' }).tap();
  await expect(page.getByRole('alert')).toHaveText('Muitas consultas seguidas. Aguarde um minuto.');
  await expect(page.getByLabel('Celular com DDD')).toHaveValue('(11) 98765-4321');
  await expect(page.getByText('Maria')).toHaveCount(0);
  await expectAccessible(page, 'lookups limited');
  await kioskShot(page, 'lookups-limited');
  console.log(
    `kiosk lookups e2e: ${statuses.length} scripted lookups → ${statuses.join(',')}; the 7th, on the screen, refused with the Portuguese message`,
  );
  await context.close();
});

test('every answer a kiosk received carried only allowed fields', () => {
  const bad = seen.filter((s) => s.problems.length > 0);
  console.log(
    `kiosk e2e: ${seen.length} kiosk answers inspected, ${bad.length} with a forbidden field`,
  );
  expect(seen.length).toBeGreaterThan(10);
  expect(bad).toEqual([]);
});
