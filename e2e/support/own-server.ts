// A spec's own servers, started before its tests and stopped after them, each in a fresh
// temporary folder: `ownServer`, the app server with the embedded sandbox (auto-enrollment off,
// as in live mode, unless asked: browsers become terminals with codes from `npm run terminal`,
// as a manager enrolls them); `ownRelayedApp`, the fault tests' three processes (the sandbox
// alone, the fault relay in front of it, the app server in live mode pointed at the relay).
// No spec starts a server by hand.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import type { Role } from '../../server/store';
import type { RunningProcess } from '../../server/testing/processes';
import type { Relay } from '../../server/testing/relay';
import { startRelayedApp, type RelayedApp } from '../../server/testing/relayed-app';
import { enroll, newCode, startServer } from '../../server/testing/spawn';
import { openShift } from './counter';
import { shotsDir } from './shots';

export interface OwnServer {
  /** The environment the server and the terminal CLI run with (APP_DB, SANDBOX_DB, …). */
  env: Record<string, string>;
  url: string;
}

export interface OwnServerOptions {
  /** More environment for the server (and the CLI). */
  env?: Record<string, string>;
  /** Browsers on loopback enrolled automatically as the sandbox does by default (off here). */
  autoEnroll?: boolean;
  /** How long starting may take (ms). */
  timeoutMs?: number;
}

/** Registers the spec's beforeAll/afterAll; the server's fields are set once it listens. */
export function ownServer(name: string, options: OwnServerOptions = {}): OwnServer {
  const own: OwnServer = { env: {}, url: '' };
  let dir = '';
  let server: RunningProcess | undefined;
  test.beforeAll(async () => {
    test.setTimeout(options.timeoutMs ?? 60_000);
    dir = mkdtempSync(path.join(tmpdir(), `e2e-${name}-`));
    own.env = {
      APP_DB: path.join(dir, 'app.db'),
      SANDBOX_DB: path.join(dir, 'sandbox.db'),
      ...(options.autoEnroll ? {} : { SANDBOX_AUTO_ENROLL: '0' }),
      ...options.env,
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

/**
 * The top of a spec whose tests run in order on one server of its own (a manager's screen:
 * each test reads what the ones before it posted): the server, and `shots`, the folder its
 * screenshots go to (`/tmp/shots-<name>` unless `options.shots` names it).
 */
export function serialSpec(
  name: string,
  options: OwnServerOptions & { shots?: string } = {},
): { server: OwnServer; shots: string } {
  test.describe.configure({ mode: 'serial' });
  return { server: ownServer(name, options), shots: shotsDir(options.shots ?? name) };
}

/** The processes of `ownRelayedApp`, set once they listen. */
export interface OwnRelayedApp {
  readonly sandbox: RunningProcess;
  readonly relay: Relay;
  /** The app server now (a new one after `restartApp`). */
  readonly app: RunningProcess;
  readonly appDb: string;
  readonly sandboxDb: string;
  /** A terminal of `role` enrolled in the app server's store: its signed credential. */
  credential(role: Role, name: string): Promise<string>;
  /** Starts the app server again on the same store and relay (after a stop or a kill -9). */
  restartApp(): Promise<RunningProcess>;
}

/** Registers the spec's beforeAll/afterAll around `startRelayedApp` (no terminal enrolled). */
export function ownRelayedApp(name: string, env: Record<string, string> = {}): OwnRelayedApp {
  let run: RelayedApp | undefined;
  const current = () => {
    if (run === undefined) throw new Error(`${name}: the relayed app has not started`);
    return run;
  };
  test.beforeAll(async () => {
    test.setTimeout(60_000);
    run = await startRelayedApp(name, env, { terminals: false });
  });
  test.afterAll(async () => {
    await run?.stop();
  });
  return {
    get sandbox() {
      return current().sandbox;
    },
    get relay() {
      return current().relay;
    },
    get app() {
      return current().app;
    },
    get appDb() {
      return current().appDb;
    },
    get sandboxDb() {
      return current().sandboxDb;
    },
    credential: (role, terminal) => current().credential(role, terminal),
    restartApp: () => current().restartApp(),
  };
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

/**
 * A fresh browser context that is a terminal of `role` enrolled with a new code through the
 * API (its cookie set, no enrollment screen): a touch screen for a kiosk, São Paulo's locale and
 * time zone, `viewport` (768 × 1024, a kiosk's portrait, unless given).
 */
export async function terminalContext(
  own: OwnServer,
  browser: Browser,
  role: 'quiosque' | 'caixa',
  name: string,
  viewport = { width: 768, height: 1024 },
): Promise<{ context: BrowserContext; page: Page; id: number }> {
  const { id, code } = await newCode(own.env, role, name);
  const cookie = await enroll(own.url, code);
  const [cname, cvalue] = cookie.split('=') as [string, string];
  const context = await browser.newContext({
    baseURL: own.url,
    viewport,
    hasTouch: role === 'quiosque',
    isMobile: false,
    locale: 'pt-BR',
    timezoneId: 'America/Sao_Paulo',
  });
  await context.addCookies([{ name: cname, value: cvalue, url: own.url }]);
  return { context, page: await context.newPage(), id };
}

/** `enrolledTerminal`, its shift opened with the demo attendant password. */
export async function shiftTerminal(
  ...terminal: Parameters<typeof enrolledTerminal>
): Promise<{ page: Page; id: string }> {
  const { page, id } = await enrolledTerminal(...terminal);
  await openShift(page);
  return { page, id };
}

/** `YYYY-MM-DD` of `at` in São Paulo. */
export const saoPauloDay = (at: Date) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(at);
/** `DD/MM/YYYY` of `YYYY-MM-DD`. */
export const brDay = (iso: string) => iso.split('-').reverse().join('/');
