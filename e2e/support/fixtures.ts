import {
  test as base,
  expect,
  type APIRequestContext,
  type Locator,
  type Page,
  type Request,
} from '@playwright/test';
import type { AxeResults } from 'axe-core';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpfCheckDigits } from '#contract/wire';

export const PORT_1 = process.env.E2E_PORT_1 ?? '';
export const PORT_2 = process.env.E2E_PORT_2 ?? '';
export const BASE_1 = `http://127.0.0.1:${PORT_1}`;
export const BASE_2 = `http://127.0.0.1:${PORT_2}`;

/** A valid Brazilian mobile no test has used: +55 11 9XXXX-XXXX. */
export function uniquePhone(): { e164: string; digits: string } {
  const rest = String(Math.floor(Math.random() * 1e8)).padStart(8, '0');
  const local = `9${(1 + Math.floor(Math.random() * 9)).toString()}${rest.slice(1)}`;
  return { e164: `+5511${local}`, digits: `11${local}` };
}

/** A CPF with valid check digits, random. */
export function uniqueCpf(): string {
  const d = Array.from({ length: 9 }, () => Math.floor(Math.random() * 10));
  if (d.every((x) => x === d[0])) d[0] = (d[0]! + 1) % 10;
  const nine = d.join('');
  return nine + cpfCheckDigits(nine);
}

/**
 * A request context is a terminal once GET /api/config has enrolled it (sandbox on loopback;
 * its cookie jar keeps the credential, as a browser's does).
 */
async function asTerminal(request: APIRequestContext, baseURL = ''): Promise<void> {
  expect((await request.get(`${baseURL}/api/config`)).ok()).toBe(true);
}

/** Reads a customer straight from the service through the app server (no UI). */
export async function fetchCustomer(
  request: APIRequestContext,
  key: { celular: string } | { cpf: string } | { id_cliente: number },
  establishment = 1,
  baseURL?: string,
) {
  const url = `${baseURL ?? ''}/api/v4/estabelecimentos/${establishment}/clientes/buscar`;
  await asTerminal(request, baseURL);
  // The app server takes a POST only with its own Origin (as a browser sends it).
  const res = await request.post(url, { data: key, headers: { origin: baseURL ?? BASE_1 } });
  if (res.status() === 404) return null;
  expect(res.status()).toBe(200);
  return (await res.json()).data as {
    id_cliente: number;
    nome: string;
    compras: number;
    ultima_compra: string | null;
    carteira: { saldo: number; saldo_carencia: number };
  };
}

/** The main navigation's links on a gerente's terminal, in order. */
export const MANAGER_LINKS = [
  'Caixa',
  'Prêmios',
  'Painel',
  'Auditoria',
  'Vigilância',
  'Terminais',
  'Quiosque',
];

/** The counter's amount field, post button and the heading of a posting's answer. */
export const amount = (page: Page) => page.getByLabel('Valor da compra');
export const postButton = (page: Page) => page.getByRole('button', { name: /^Lançar/ });
export const posted = (page: Page) => page.getByRole('heading', { name: /Pontos lançados/ });

/**
 * Registers a customer of establishment 1 straight through the service (the proxy), for test
 * setup: a phone no other test uses unless one is given. Returns the phone.
 */
export async function newCustomer(
  page: Page,
  fields: { nome: string } & Record<string, unknown>,
  phone: { e164: string; digits: string } = uniquePhone(),
) {
  await asTerminal(page.request);
  const res = await page.request.post('/api/v4/estabelecimentos/1/clientes/cadastrar', {
    data: { celular: phone.e164, ...fields },
    headers: { origin: BASE_1 },
  });
  expect(res.status()).toBe(201);
  return phone;
}

/** Every pontuar request the page sends, in order. */
export function recordPostings(page: Page): Request[] {
  const sent: Request[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/fidelidade/pontuar')) sent.push(r);
  });
  return sent;
}

/** Opens the shift the counter asks for, with the demo attendant password. */
export async function openShift(page: Page, password = '1234') {
  const shift = page.getByRole('dialog', { name: /abrir turno/i });
  await shift.getByLabel('Senha do atendente').fill(password);
  await shift.getByRole('button', { name: /abrir turno/i }).click();
  await expect(shift).toBeHidden();
}

/** Posts `cents` for the customer at `phone`; the answer stays on the counter. */
export async function postSaleShown(page: Page, phone: string, cents: string) {
  await search(page, phone);
  await amount(page).pressSequentially(cents);
  await postButton(page).click();
  await expect(posted(page)).toBeVisible();
}

/** Posts `cents` for the customer at `phone` and goes back to an empty counter. */
export async function postSale(page: Page, phone: string, cents: string) {
  await postSaleShown(page, phone, cents);
  await page.keyboard.press('Escape');
}

/** Opens the counter and the shift with the attendant password. */
export async function openCounter(page: Page, password = '1234') {
  await page.goto('/');
  await openShift(page, password);
  await expect(page.getByLabel(/buscar cliente/i)).toBeFocused();
}

/** Opens the counter's "Lançamentos do turno": the dialog. */
export async function openLedger(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Lançamentos do turno' }).click();
  const dialog = page.getByRole('dialog', { name: 'Lançamentos do turno' });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** Types in the search field and presses Enter. */
export async function search(page: Page, text: string) {
  const field = page.getByLabel(/buscar cliente/i);
  await field.fill('');
  await field.pressSequentially(text);
  await field.press('Enter');
}

const axeSource = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

/**
 * axe-core in the page: no serious or critical violation. Every rule runs, on the page as it
 * is. axe is injected once per page and asked for violations only; @axe-core/playwright did the
 * same checks but opened a second page for every call and gathered every passing node too:
 * 1.9 s a call against 0.27 s here, on a counter with a customer open.
 */
export async function expectAccessible(page: Page, state: string) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(() =>
    (window as unknown as { axe: { run: (c: Document, o: object) => Promise<AxeResults> } }).axe
      .run(document, { resultTypes: ['violations'] })
      .then((r) => r.violations),
  );
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help} @ ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    );
  expect(serious, `axe on "${state}"`).toEqual([]);
}

/**
 * The API request fixture is a terminal too: in sandbox mode on loopback, GET /api/config
 * enrolls it automatically (its cookie jar keeps the credential), as a browser is.
 */
/**
 * Holds the page's requests for `glob` (the app's code) until `release()`; `asked` counts
 * them. Set before the page loads.
 */
export async function holdAssets(
  page: Page,
  glob: string,
): Promise<{ release: () => void; asked: () => number }> {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let asked = 0;
  await page.route(glob, async (route) => {
    asked += 1;
    await held;
    await route.continue();
  });
  return { release, asked: () => asked };
}

/**
 * What a tap or click on `target` does before the app has adopted the painted page: nothing.
 * The page is `inert` (so Playwright's trial click finds no target to hit).
 */
export async function expectInertUntilAdopted(page: Page, target: Locator): Promise<void> {
  await expect(page.locator('#root')).toHaveAttribute('inert', '');
  await expect(target.click({ trial: true, timeout: 2_000 })).rejects.toThrow();
}

export const test = base.extend({
  request: async ({ request }, use) => {
    await asTerminal(request);
    await use(request);
  },
});
export { expect };
