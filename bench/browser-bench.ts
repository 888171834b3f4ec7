// Counter figures measured in Debian's Chromium (Playwright) against the app server as `npm
// start` runs it:
// - the phone's last digit → customer panel on the first search after a page load (the search
//   leaves by itself at that digit; a build that waits for Enter gets Enter, and the time runs
//   from that key): from its keydown's timestamp to the frame after the panel's balance is in
//   the DOM;
// - keydown → next paint in the amount field, in the search field (the customer panel open;
//   a phone typed but for its last digit, then erased) and in a bare <input> on a page of its
//   own in the same browser, in alternate blocks so that all three meet the same machine: from
//   each keydown's timestamp to the first task after the next animation frame (≈ when that
//   frame was painted), p95. The keys come at a fast typist's pace, at random phases of the
//   display's frame, each block after the focus has settled. The bare <input> is the floor of
//   that measurement: a keydown can wait for the next frame (headless Chromium draws at
//   60 Hz), so even a page that does nothing per key shows the frame's own work and, for a
//   page that has drawn lately, part of a frame's wait;
// - Enter → "lançado": a customer served again and again (Esc, the phone, the amount, Enter),
//   from the Enter keydown on the amount field to the frame after the result ("Pontos
//   lançados") is in the DOM;
// - with `frameClock: 'unthrottled'`, the keys in a browser whose frames are not held to the
//   display's 60 Hz clock (`--disable-frame-rate-limit --disable-gpu-vsync`): the next frame
//   is drawn as soon as the key's work is done, so what is left is that work and the frame's
//   own (style, layout, paint), the part the app controls, beside the same floor.

import { chromium, type Page } from '@playwright/test';
import { quantile } from './stats';
import { CHROMIUM_ARGS } from '../e2e/support/chromium-args';

/** Maria da Silva, seeded in every new sandbox database. */
const PHONE_DIGITS = '11987654321';
/** R$ 25,90: 25 points in establishment 1, so every fourth posting wins a reward. */
const AMOUNT_DIGITS = '2590';
/**
 * A fast typist's pace: a key every KEY_GAP_MS plus a random part of a 60 Hz frame, so that the
 * keys fall at any phase of the display's frame, as a person's do. (Keys at a fixed, faster
 * cadence sample a few phases only, and at 25 keys a second the page never goes idle between
 * them: its figures then measured the cadence as much as the field.)
 */
const KEY_GAP_MS = 80;
const FRAME_MS = 1000 / 60;
/**
 * After the focus moves (another field, another tab): the frame the move itself draws is over
 * before the first key, as it is for a person, who does not type within a millisecond of a
 * click.
 */
const SETTLE_MS = 150;
/** Longest wait for anything the page should show (a broken build fails, never hangs). */
const WAIT_MS = 20_000;

/**
 * What the app server needs for the bench's pace: a customer served every second or two is
 * past the per-terminal burst limit a store runs with, and a 429 is not what is measured.
 */
export const BROWSER_SERVER_ENV = {
  RATE_LIMIT_BURST: '100000/10',
  RATE_LIMIT_SUSTAINED: '100000/600',
};

export interface BrowserRound {
  /** One sample per page load. */
  firstSearchMs: number[];
  /** Every keydown of the amount field, all page loads together. */
  amountKeyToPaintMs: number[];
  amountP95Ms: number;
  /** The same keystrokes in the counter's search field, same page loads. */
  searchKeyToPaintMs: number[];
  searchP95Ms: number;
  /** The same keystrokes and measurement in a bare <input>, in alternate blocks. */
  bareKeyToPaintMs: number[];
  bareP95Ms: number;
  /** Enter on the amount field → the result painted, every posting of every page load. */
  postedMs: number[];
}

// The in-page scripts are strings: the bench runs through tsx, whose helpers (`__name`) do
// not exist in the page.

/** After the frame following `t0`'s event: resolve(now − t0). */
const AFTER_PAINT = `(t0, done) => requestAnimationFrame(() => {
  const ch = new MessageChannel();
  ch.port1.onmessage = () => done(performance.now() - t0);
  ch.port2.postMessage(0);
})`;

/**
 * window.__shown: ms from the last keydown (of `key`, when given) before `selector` is in the
 * DOM to the frame after it; rejects after WAIT_MS.
 */
const armShown = (selector: string, key: string | null) => `(() => {
  const afterPaint = ${AFTER_PAINT};
  window.__shown = new Promise((resolve, reject) => {
    let t0 = -1;
    const onKey = (e) => { if (${key === null ? 'true' : `e.key === ${JSON.stringify(key)}`}) t0 = e.timeStamp; };
    addEventListener('keydown', onKey, { capture: true });
    const timer = setTimeout(() => {
      mo.disconnect();
      reject(new Error('not shown within ${WAIT_MS} ms: ${selector}'));
    }, ${WAIT_MS});
    const mo = new MutationObserver(() => {
      if (t0 >= 0 && document.querySelector(${JSON.stringify(selector)}) !== null) {
        mo.disconnect();
        clearTimeout(timer);
        removeEventListener('keydown', onKey, { capture: true });
        afterPaint(t0, resolve);
      }
    });
    mo.observe(document.body, { childList: true, subtree: true });
  });
})()`;

/** Keys per block: six digits, then six Backspaces, as a cashier correcting an amount. */
const AMOUNT_BLOCK = [...'123456', ...Array<string>(6).fill('Backspace')];
const BLOCK = AMOUNT_BLOCK.length;
/**
 * In the search field, a phone typed but for its last digit, then taken back: every length it
 * goes through is formatted and read (ten digits are read as a phone, by libphonenumber), and
 * none starts a search.
 */
const SEARCH_BLOCK = [...PHONE_DIGITS.slice(0, -1), ...Array<string>(10).fill('Backspace')];

/** The customer panel's balance; the posting's result. */
const BALANCE = '[data-testid="saldo"]';
const POSTED = '#posted-title';

/** window.__keyToPaint: per keydown, ms from its timestamp to the frame after it. */
const ARM_KEY_TO_PAINT = `(() => {
  const afterPaint = ${AFTER_PAINT};
  const samples = [];
  window.__keyToPaint = samples;
  addEventListener('keydown', (e) => afterPaint(e.timeStamp, (ms) => samples.push(ms)),
    { capture: true });
})()`;

/** Frames drawn at the display's 60 Hz (as a tablet does) or as soon as they are ready. */
const FRAME_CLOCK_ARGS = {
  vsync: [],
  unthrottled: ['--disable-frame-rate-limit', '--disable-gpu-vsync'],
} as const;

export interface BrowserOptions {
  loads: number;
  /**
   * Keys per page load in the amount field and the bare <input>, in blocks of BLOCK; the search
   * field gets as many blocks of its own (SEARCH_BLOCK).
   */
  keystrokes: number;
  /** Customers served per page load for Enter → "lançado" (0: none). */
  postings?: number;
  frameClock?: keyof typeof FRAME_CLOCK_ARGS;
}

export async function browserRound(baseUrl: string, o: BrowserOptions): Promise<BrowserRound> {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [...CHROMIUM_ARGS, ...FRAME_CLOCK_ARGS[o.frameClock ?? 'vsync']],
  });
  const firstSearchMs: number[] = [];
  const amountKeyToPaintMs: number[] = [];
  const searchKeyToPaintMs: number[] = [];
  const bareKeyToPaintMs: number[] = [];
  const postedMs: number[] = [];
  try {
    for (let load = 0; load < o.loads; load++) {
      const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
      context.setDefaultTimeout(WAIT_MS);
      const page = await context.newPage();
      await page.goto(baseUrl + '/', { waitUntil: 'networkidle' });
      // A new browser context: the shift opens first, with the attendant's password.
      const dialog = page.getByRole('dialog', { name: /abrir turno/i });
      await dialog.getByLabel('Senha do atendente').fill('1234');
      await dialog.getByRole('button', { name: /abrir turno/i }).click();
      await dialog.waitFor({ state: 'hidden' });
      const search = page.getByLabel(/buscar cliente/i);
      await search.waitFor();
      // The idle prefetch of the counter's lazy parts has had its chance.
      await page.waitForTimeout(1_500);
      firstSearchMs.push(await searchPhone(page));

      // The amount field, the search field and a bare <input> on a page of its own, in
      // alternate blocks of the same keys, so that all three meet the same machine.
      const amount = page.getByLabel('Valor da compra');
      await amount.waitFor();
      await search.fill('');
      await page.evaluate(ARM_KEY_TO_PAINT);
      const bare = await context.newPage();
      await bare.setContent('<label>Valor <input id="bare" inputmode="numeric"></label>');
      await bare.locator('#bare').focus();
      await bare.evaluate(ARM_KEY_TO_PAINT);
      for (let block = 0; block < o.keystrokes / BLOCK; block++) {
        await page.bringToFront();
        await amount.focus();
        await page.waitForTimeout(SETTLE_MS);
        amountKeyToPaintMs.push(...(await typeKeys(page, AMOUNT_BLOCK)));
        await search.focus();
        await page.waitForTimeout(SETTLE_MS);
        searchKeyToPaintMs.push(...(await typeKeys(page, SEARCH_BLOCK)));
        await bare.bringToFront();
        await bare.waitForTimeout(SETTLE_MS);
        bareKeyToPaintMs.push(...(await typeKeys(bare, AMOUNT_BLOCK)));
      }
      await bare.close();
      await page.bringToFront();

      // Customers served: the phone (the panel), the amount, Enter → the result; Esc.
      if ((o.postings ?? 0) > 0) {
        await search.fill('');
        await searchPhone(page);
      }
      for (let i = 0; i < (o.postings ?? 0); i++) {
        await amount.focus();
        await page.keyboard.type(AMOUNT_DIGITS, { delay: 30 });
        await page.evaluate(armShown(POSTED, 'Enter'));
        await page.keyboard.press('Enter');
        postedMs.push((await page.evaluate('window.__shown')) as number);
        await page.keyboard.press('Escape');
        await page.locator(POSTED).waitFor({ state: 'detached' });
        await searchPhone(page);
      }
      await context.close();
    }
  } finally {
    await browser.close();
  }
  const p95 = (xs: number[]) =>
    quantile(
      [...xs].sort((a, b) => a - b),
      0.95,
    );
  return {
    firstSearchMs,
    amountKeyToPaintMs,
    amountP95Ms: p95(amountKeyToPaintMs),
    searchKeyToPaintMs,
    searchP95Ms: p95(searchKeyToPaintMs),
    bareKeyToPaintMs,
    bareP95Ms: p95(bareKeyToPaintMs),
    postedMs,
  };
}

/**
 * Types Maria's phone into the (empty, focused) search field; returns the ms from the key that
 * started the search (the last digit, or Enter in a build that waits for it) to the frame
 * after her balance shows. The amount field has the focus after it.
 */
async function searchPhone(page: Page): Promise<number> {
  const search = page.getByLabel(/buscar cliente/i);
  await search.focus();
  await search.pressSequentially(PHONE_DIGITS.slice(0, -1));
  await page.evaluate(armShown(BALANCE, null));
  await search.press(PHONE_DIGITS.slice(-1));
  const byItself = await page
    .locator(BALANCE)
    .waitFor({ timeout: 1_000 })
    .then(() => true)
    .catch(() => false);
  if (!byItself) await search.press('Enter');
  const ms = (await page.evaluate('window.__shown')) as number;
  await page.getByLabel('Valor da compra').waitFor();
  return ms;
}

/** Types `keys` into the focused field and returns each keydown's time to the next paint. */
async function typeKeys(page: Page, keys: readonly string[]): Promise<number[]> {
  for (const key of keys) {
    await page.keyboard.press(key);
    await page.waitForTimeout(KEY_GAP_MS + Math.random() * FRAME_MS);
  }
  await page.waitForTimeout(100);
  return (await page.evaluate('window.__keyToPaint.splice(0)')) as number[];
}
