// Counter figures measured in Debian's Chromium (Playwright) against the app server as `npm
// start` runs it:
// - the phone's last digit → customer panel, the first search after a page load (the search
//   leaves by itself at that digit): from its keydown's timestamp to the frame after the
//   panel's balance is in the DOM;
// - keydown → next paint in the amount field: from each keydown's timestamp to the first
//   task after the next animation frame (≈ when that frame was painted), p95; the same keys
//   in the search field, in alternate blocks on the same page, for comparison;
// - the same keystrokes on a page holding one bare <input> in the same browser: the floor of
//   that measurement. A keydown waits for the next frame (headless Chromium draws at 60 Hz),
//   so even a page that does nothing per key shows up to ~17 ms plus the frame's own work.
// - with `frameClock: 'unthrottled'`, the same in a browser whose frames are not held to the
//   display's 60 Hz clock (`--disable-frame-rate-limit --disable-gpu-vsync`): the next frame
//   is drawn as soon as the key's work is done, so what is left is that work and the frame's
//   own (style, layout, paint), the part the app controls, beside the same floor.

import { chromium, type Page } from '@playwright/test';
import { quantile } from './stats';

const LAUNCH_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Maria da Silva, seeded in every new sandbox database. */
const PHONE_DIGITS = '11987654321';

export interface BrowserRound {
  /** One sample per page load. */
  firstSearchMs: number[];
  /** Every keydown of the amount field, all page loads together. */
  amountKeyToPaintMs: number[];
  amountP95Ms: number;
  /** The same keystrokes in the counter's search field, same page loads, before the search. */
  searchKeyToPaintMs: number[];
  searchP95Ms: number;
  /** The same keystrokes and measurement in a bare <input>, all page loads together. */
  bareKeyToPaintMs: number[];
  bareP95Ms: number;
}

// The in-page scripts are strings: the bench runs through tsx, whose helpers (`__name`) do
// not exist in the page.

/** After the frame following `t0`'s event: resolve(now − t0). */
const AFTER_PAINT = `(t0, done) => requestAnimationFrame(() => {
  const ch = new MessageChannel();
  ch.port1.onmessage = () => done(performance.now() - t0);
  ch.port2.postMessage(0);
})`;

/** window.__firstSearch: ms from the next keydown to the frame after the balance shows. */
const ARM_FIRST_SEARCH = `(() => {
  const afterPaint = ${AFTER_PAINT};
  window.__firstSearch = new Promise((resolve) => {
    let t0 = -1;
    addEventListener('keydown', (e) => { if (t0 < 0) t0 = e.timeStamp; }, { capture: true });
    const mo = new MutationObserver(() => {
      if (t0 >= 0 && document.querySelector('[data-testid="saldo"]') !== null) {
        mo.disconnect();
        afterPaint(t0, resolve);
      }
    });
    mo.observe(document.body, { childList: true, subtree: true });
  });
})()`;

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

export async function browserRound(
  baseUrl: string,
  o: { loads: number; keystrokes: number; frameClock?: keyof typeof FRAME_CLOCK_ARGS },
): Promise<BrowserRound> {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [...LAUNCH_ARGS, ...FRAME_CLOCK_ARGS[o.frameClock ?? 'vsync']],
  });
  const firstSearchMs: number[] = [];
  const amountKeyToPaintMs: number[] = [];
  const searchKeyToPaintMs: number[] = [];
  const bareKeyToPaintMs: number[] = [];
  try {
    for (let load = 0; load < o.loads; load++) {
      const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
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
      await search.pressSequentially(PHONE_DIGITS.slice(0, -1));
      await page.evaluate(ARM_FIRST_SEARCH);
      await search.press(PHONE_DIGITS.slice(-1));
      firstSearchMs.push((await page.evaluate('window.__firstSearch')) as number);

      // The amount field and the search field, in alternate blocks of the same keys on the
      // same page (the customer panel open), so that both meet the same machine.
      const amount = page.getByLabel('Valor da compra');
      await amount.waitFor();
      await search.fill('');
      await page.evaluate(ARM_KEY_TO_PAINT);
      for (let block = 0; block < o.keystrokes / BLOCK; block++) {
        await amount.focus();
        amountKeyToPaintMs.push(...(await typeKeys(page, BLOCK)));
        // Never 11 digits in the search field: no lookup starts.
        await search.focus();
        searchKeyToPaintMs.push(...(await typeKeys(page, BLOCK)));
      }
      // The floor: the same keys in a bare page of the same browser, right after.
      await page.setContent('<label>Valor <input id="bare" inputmode="numeric"></label>');
      await page.locator('#bare').focus();
      await page.evaluate(ARM_KEY_TO_PAINT);
      for (let block = 0; block < o.keystrokes / BLOCK; block++) {
        bareKeyToPaintMs.push(...(await typeKeys(page, BLOCK)));
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
  };
}

/** Keys per block: six digits, then six Backspaces, as a cashier correcting an amount. */
const BLOCK = 12;

/** Types one block into the focused field and returns each keydown's time to the next paint. */
async function typeKeys(page: Page, keys: number): Promise<number[]> {
  const digits = '1234567890';
  for (let i = 0; i < keys; i++) {
    await page.keyboard.press(i % BLOCK < 6 ? (digits[i % 10] ?? '1') : 'Backspace');
    await page.waitForTimeout(40);
  }
  await page.waitForTimeout(100);
  return (await page.evaluate('window.__keyToPaint.splice(0)')) as number[];
}
