// A spec's own app server with the embedded sandbox and auto-enrollment off (as in live mode):
// a fresh database in a temporary folder, started before the spec's tests and stopped after.
// Browsers become terminals with codes from `npm run terminal`, as a manager enrolls them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { newCode, startServer } from '../../server/testing/spawn';
import { amount, postButton, posted, search } from './fixtures';

export interface OwnServer {
  /** The environment the server and the terminal CLI run with (APP_DB, SANDBOX_DB, …). */
  env: Record<string, string>;
  url: string;
}

/** Registers the spec's beforeAll/afterAll; the server's fields are set once it listens. */
export function ownServer(name: string): OwnServer {
  const own: OwnServer = { env: {}, url: '' };
  let dir = '';
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  test.beforeAll(async () => {
    test.setTimeout(60_000);
    dir = mkdtempSync(path.join(tmpdir(), `e2e-${name}-`));
    own.env = {
      APP_DB: path.join(dir, 'app.db'),
      SANDBOX_DB: path.join(dir, 'sandbox.db'),
      SANDBOX_AUTO_ENROLL: '0',
    };
    server = await startServer(own.env);
    own.url = server.url;
  });
  test.afterAll(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return own;
}

export const enrollHeading = (page: Page) =>
  page.getByRole('heading', { name: 'Este terminal não está registrado' });

/** Opens the app in `page` and enrolls it with a new code of `role`; the terminal's id. */
export async function enrollAs(
  own: OwnServer,
  page: Page,
  role: string,
  name: string,
): Promise<number> {
  const { id, code } = await newCode(own.env, role, name);
  await page.goto(own.url);
  await expect(enrollHeading(page)).toBeVisible();
  await page.getByLabel('Código de registro').fill(code.toLowerCase());
  await page.getByRole('button', { name: 'Registrar terminal' }).click();
  await expect(page.getByTestId('terminal')).toContainText(name);
  return id;
}

/**
 * A fresh browser context enrolled with a new code of `role` (a viewport `width` wide, 900
 * high; the default viewport when absent): its page and terminal id.
 */
export async function enrolledTerminal(
  own: OwnServer,
  browser: Browser,
  role: string,
  name: string,
  width?: number,
): Promise<{ page: Page; id: string }> {
  const context = await browser.newContext(
    width === undefined ? {} : { viewport: { width, height: 900 } },
  );
  const page = await context.newPage();
  const id = await enrollAs(own, page, role, name);
  return { page, id: String(id) };
}

/** Opens the shift the counter asks for, with the demo attendant password. */
export async function openShift(page: Page, password = '1234') {
  const shift = page.getByRole('dialog', { name: /abrir turno/i });
  await shift.getByLabel('Senha do atendente').fill(password);
  await shift.getByRole('button', { name: /abrir turno/i }).click();
  await expect(shift).toBeHidden();
}

/** Posts `cents` for the customer at `phone` and goes back to an empty counter. */
export async function postSale(page: Page, phone: string, cents: string) {
  await search(page, phone);
  await amount(page).pressSequentially(cents);
  await postButton(page).click();
  await expect(posted(page)).toBeVisible();
  await page.keyboard.press('Escape');
}

/** `YYYY-MM-DD` of `at` in São Paulo. */
export const saoPauloDay = (at: Date) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(at);
/** `DD/MM/YYYY` of `YYYY-MM-DD`. */
export const brDay = (iso: string) => iso.split('-').reverse().join('/');
