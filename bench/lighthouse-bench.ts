// Lighthouse performance scores of the counter (/), the rewards page (/premios) and the kiosk
// (/quiosque), mobile (Lighthouse's default: Moto G-class CPU throttling, slow 4G) and desktop,
// against the app server as `npm start` runs it, driving Debian's Chromium.

import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export const PAGES = ['/', '/premios', '/quiosque'] as const;
export type FormFactor = 'mobile' | 'desktop';

export interface LighthouseResult {
  page: string;
  formFactor: FormFactor;
  score: number;
  lcpMs: number;
  fcpMs: number;
  tbtMs: number;
  cls: number;
}

/** One Lighthouse run of one page in a fresh Chromium. */
async function audit(
  baseUrl: string,
  page: string,
  formFactor: FormFactor,
): Promise<LighthouseResult> {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    chromeFlags: CHROMIUM_FLAGS,
    logLevel: 'silent',
  });
  try {
    const result = await lighthouse(
      baseUrl + page,
      { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] },
      formFactor === 'desktop' ? desktopConfig : undefined,
    );
    const lhr = result?.lhr;
    if (lhr === undefined) throw new Error(`lighthouse gave no result for ${page}`);
    const score = lhr.categories.performance?.score;
    if (typeof score !== 'number') {
      throw new Error(
        `lighthouse ${formFactor} ${page}: ${lhr.runtimeError?.message ?? 'no score'}`,
      );
    }
    const value = (id: string): number => lhr.audits[id]?.numericValue ?? Number.NaN;
    return {
      page,
      formFactor,
      score: Math.round(score * 100),
      lcpMs: value('largest-contentful-paint'),
      fcpMs: value('first-contentful-paint'),
      tbtMs: value('total-blocking-time'),
      cls: value('cumulative-layout-shift'),
    };
  } finally {
    chrome.kill();
  }
}

/**
 * One Lighthouse run per page and form factor. A run Lighthouse itself reports as failed
 * (NO_NAVSTART and the like, seen on a loaded machine) is tried again, twice at most.
 */
export async function lighthouseRound(
  baseUrl: string,
  onRetry: (message: string) => void = () => undefined,
): Promise<LighthouseResult[]> {
  const out: LighthouseResult[] = [];
  for (const formFactor of ['mobile', 'desktop'] as const) {
    for (const page of PAGES) {
      for (let attempt = 1; ; attempt++) {
        try {
          out.push(await audit(baseUrl, page, formFactor));
          break;
        } catch (err) {
          const message = err instanceof Error ? err.message : String(err);
          if (attempt >= 3) throw err;
          onRetry(`${message} (attempt ${attempt}, trying again)`);
        }
      }
    }
  }
  return out;
}
