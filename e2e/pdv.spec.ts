// The store's PDV at the counter, through the real processes: the app server with
// its embedded sandbox (auto-enrollment off), the PDV played by `npm run pdv` with a token from
// `npm run terminal`, a counter and a kiosk each in its own browser context. Maria
// (+5511987654321, customer 1) is in the sandbox's seed.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import type { Page } from '@playwright/test';
import { root, terminalCli } from '../server/testing/spawn';
import { expect, expectAccessible, test } from './support/fixtures';
import { openCounter } from './support/counter';
import { ownServer, terminalContext } from './support/own-server';
import { shot, shotsDir } from './support/shots';

const SHOTS = shotsDir('pdv');

const server = ownServer('pdv', { timeoutMs: 90_000 });
let counterId = 0;
let token = '';

test.describe.configure({ mode: 'serial', timeout: 120_000 });

/** The counter's screen. */
const LANDSCAPE = { width: 1024, height: 768 };

/** `npm run pdv -- …args` against this server with the PDV's token; its output. */
async function pdvCli(...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(
    path.join(root, 'node_modules', '.bin', 'tsx'),
    ['server/pdv-cli.ts', ...args],
    { cwd: root, env: { ...process.env, PDV_URL: server.url, PDV_TOKEN: token } },
  );
  return stdout;
}

/** The PDV reading its sale, as a receipt printer would. */
async function pdvRead(idVenda: string) {
  const res = await fetch(`${server.url}/api/integracao/vendas/${idVenda}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { venda: Record<string, unknown> } }).data.venda;
}

/** Maria's postings in the sandbox: amount and basket as the service stored them. */
function mariaPostings(): { valor_gasto: number; itens_json: string }[] {
  const db = new Database(server.env.SANDBOX_DB!, { readonly: true });
  try {
    return db
      .prepare('select valor_gasto, itens_json from pontos where cliente_id = 1 order by id')
      .all() as { valor_gasto: number; itens_json: string }[];
  } finally {
    db.close();
  }
}

const notice = (page: Page) => page.getByRole('region', { name: 'Venda do PDV' });

test('a PDV sale: a known phone and one Enter post it once, with the PDV amount and basket', async ({
  browser,
}) => {
  const counter = await terminalContext(server, browser, 'caixa', 'Caixa PDV', LANDSCAPE);
  counterId = counter.id;
  const added = await terminalCli(
    ['add', '--role', 'integracao', '--name', 'PDV 1', '--caixa', String(counterId)],
    server.env,
  );
  token = /^(pdv\.\S+)$/m.exec(added)?.[1] ?? '';
  expect(token, added).not.toBe('');
  const { page } = counter;
  const lancar: string[] = [];
  const pontuar: string[] = [];
  page.on('request', (r) => {
    if (r.method() !== 'POST') return;
    if (r.url().endsWith('/lancar')) lancar.push(r.headers()['idempotency-key'] ?? '');
    if (r.url().endsWith('/fidelidade/pontuar')) pontuar.push(r.url());
  });
  await openCounter(page);
  const before = mariaPostings().length; // the seed's purchases

  const out = await pdvCli(
    'venda',
    '45,90',
    '--itens',
    'Café:2:9,00;Pão de queijo:1:36,90',
    '--id',
    'NFCE-1001',
  );
  expect(out).toMatch(/Venda NFCE-1001 · aguardando · R\$\s45,90 · 3 itens/);
  // The counter shows it within a moment, on top of the search field.
  await expect(notice(page)).toContainText('Venda do PDV · R$ 45,90 · 3 itens');
  await expect(page.getByText('Pontuadas 0 de 1 vendas do PDV')).toBeVisible();
  await shot(page, `${SHOTS}/counter-1024-waiting.png`);
  await expectAccessible(page, 'counter with a PDV sale waiting');

  // The cashier: the phone's digits, then one Enter once the panel shows. Every key counted.
  let keys = 0;
  const search = page.getByLabel(/buscar cliente/i);
  await expect(search).toBeFocused();
  for (const digit of '11987654321') {
    await page.keyboard.press(digit);
    keys += 1;
  }
  const panel = page.getByRole('form', { name: 'Lançar venda do PDV' });
  await expect(panel).toBeVisible();
  await expect(panel).toContainText('R$ 45,90');
  await expect(panel.getByRole('cell', { name: 'Pão de queijo' })).toBeVisible();
  const post = panel.getByRole('button', { name: /^Lançar R\$ 45,90/ });
  await expect(post).toBeFocused();
  await shot(page, `${SHOTS}/counter-1024-panel.png`);
  await expectAccessible(page, 'the PDV sale for Maria');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, `${SHOTS}/counter-390-panel.png`, { fullPage: true });
  await expectAccessible(page, 'the PDV sale for Maria at 390 px');
  await expect(post).toBeFocused();
  await page.keyboard.press('Enter');
  keys += 1;
  await expect(page.getByRole('heading', { name: /Pontos lançados/ })).toBeVisible();
  expect(keys).toBe(12); // 11 digits + one Enter: no amount, no second Enter
  console.log(`keystrokes: ${keys} (11 digits + Enter); lancar requests: ${lancar.length}`);

  // Posted once, through the PDV route, with the PDV's amount and basket.
  expect(lancar).toHaveLength(1);
  expect(pontuar).toHaveLength(0);
  const rows = mariaPostings().slice(before);
  expect(rows).toHaveLength(1);
  expect(rows[0]!.valor_gasto).toBe(4590);
  expect(JSON.parse(rows[0]!.itens_json)).toEqual([
    expect.objectContaining({ descricao: 'Café', qtde: 2, valor: 900 }),
    expect.objectContaining({ descricao: 'Pão de queijo', qtde: 1, valor: 3690 }),
  ]);

  // The PDV reads the points for its receipt; the counter's notice is gone, the rate counts it.
  await expect.poll(async () => (await pdvRead('NFCE-1001')).estado).toBe('lançada');
  const venda = await pdvRead('NFCE-1001');
  expect(venda.pontos).toBeGreaterThan(0);
  expect(venda.cliente).toMatchObject({ primeiro_nome: 'Maria' });
  expect(await pdvCli('estado', 'NFCE-1001')).toContain(
    `Você ganhou ${String(venda.pontos)} pontos`,
  );
  await expect(notice(page)).toBeHidden();
  await expect(page.getByText('Pontuadas 1 de 1 vendas do PDV')).toBeVisible();
  await counter.context.close();
});

test('F7 passes the waiting PDV sale to the paired kiosk, where the customer claims it', async ({
  browser,
}) => {
  const kiosk = await terminalContext(server, browser, 'quiosque', 'Quiosque PDV');
  const counter = await terminalContext(server, browser, 'caixa', 'Caixa F7', LANDSCAPE);
  // The PDV rings up for this counter from now on.
  const added = await terminalCli(
    ['add', '--role', 'integracao', '--name', 'PDV 2', '--caixa', String(counter.id)],
    server.env,
  );
  token = /^(pdv\.\S+)$/m.exec(added)?.[1] ?? '';
  await kiosk.page.goto('/');
  await expect(kiosk.page.getByRole('heading', { name: 'Programa de fidelidade' })).toBeVisible();
  const { page } = counter;
  await openCounter(page);
  await pdvCli('venda', '20,00', '--itens', 'Refrigerante lata:2:20,00', '--id', 'NFCE-2001');
  await pdvCli('venda', '12,50', '--id', 'NFCE-2002');
  await expect(notice(page)).toContainText('Venda do PDV · R$ 20,00 · 2 itens');
  await expect(notice(page)).toContainText('+1 outra');
  const send = page.getByRole('button', { name: /Enviar venda do PDV ao quiosque/ });
  await expect(send).toBeEnabled();

  await page.keyboard.press('F7');
  await expect(page.getByText('Aguardando o cliente no quiosque')).toBeVisible();
  // The next sale moves up.
  await expect(notice(page)).toContainText('Venda do PDV · R$ 12,50');
  await expect(notice(page)).not.toContainText('outra');
  await expect.poll(async () => (await pdvRead('NFCE-2001')).estado).toBe('no quiosque');

  // The customer claims it on the kiosk with their phone.
  const k = kiosk.page;
  await expect(
    k.getByRole('heading', { name: 'Digite seu celular para ganhar seus pontos de R$ 20,00' }),
  ).toBeVisible();
  const keypad = k.getByRole('group', { name: 'Teclado numérico' });
  for (const d of '11987654321') await keypad.getByRole('button', { name: d, exact: true }).tap();
  await k.getByRole('button', { name: 'Confirmar' }).tap();
  await expect(k.getByRole('heading', { name: /Você ganhou \d+ pontos!/ })).toBeVisible();
  await expect
    .poll(async () => (await pdvRead('NFCE-2001')).estado, { timeout: 20_000 })
    .toBe('lançada');
  await expect(page.getByText('Pontos lançados pelo cliente')).toBeVisible();

  await expect(page.getByText('Pontuadas 1 de 2 vendas do PDV')).toBeVisible();
  // 390 px: the notice over the search field still reads whole.
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, `${SHOTS}/counter-390-waiting.png`, { fullPage: true });
  await expectAccessible(page, 'counter at 390 px with a PDV sale waiting');
  await kiosk.context.close();
  await counter.context.close();
});
