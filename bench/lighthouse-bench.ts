// Lighthouse performance scores of the counter (/), the rewards page (/premios), the dashboard
// (/painel: the sandbox on loopback enrolls each new browser as a manager, so Lighthouse's
// fresh profile sees it) and the kiosk (/quiosque), mobile (Lighthouse's default: Moto G-class
// CPU throttling, slow 4G) and desktop, against the app server as `npm start` runs it, driving
// Debian's Chromium.

import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { CHROMIUM_ARGS } from '../e2e/support/chromium-args';

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_FLAGS = ['--headless=new', ...CHROMIUM_ARGS];

export const PAGES = ['/', '/premios', '/painel', '/quiosque'] as const;
/** The pages whose mobile figures are compared with the previous release's. */
export const COMPARED_PAGES = ['/', '/premios', '/painel'] as const;
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
 * One Lighthouse run of one page. A run Lighthouse itself reports as failed (NO_NAVSTART and
 * the like, seen on a loaded machine) is tried again, twice at most.
 */
export async function auditPage(
  baseUrl: string,
  page: string,
  formFactor: FormFactor,
  onRetry: (message: string) => void = () => undefined,
): Promise<LighthouseResult> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await audit(baseUrl, page, formFactor);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (attempt >= 3) throw err;
      onRetry(`${message} (attempt ${attempt}, trying again)`);
    }
  }
}

/** What a `variantRelay` keeps of the pages it relays; what is false is taken away. */
export interface PageVariant {
  /** The HTML keeps its module scripts and module preloads (false: no JavaScript runs). */
  scripts: boolean;
  /** The HTML answer keeps its `Cross-Origin-Opener-Policy` header. */
  coop: boolean;
}

/**
 * A relay in front of the app server that passes every answer through as it is, except the
 * HTML's, which loses what `keep` does not keep: its module scripts and module preloads, or a
 * painted page's code list and loader (the
 * header the server paints, the stylesheet and the page's config stay), and/or its
 * `Cross-Origin-Opener-Policy` header. Without scripts, the page's mobile score is what this
 * machine gives a page that only paints the server's HTML: the ceiling of the real page's
 * score in the same run. Without COOP, the browser keeps the renderer it navigated from
 * (about:blank in Lighthouse) instead of starting a new one for the page's own browsing
 * context group, whose start Lighthouse counts as blocking time.
 */
export async function variantRelay(
  baseUrl: string,
  keep: PageVariant,
): Promise<{ url: string; close: () => Promise<void> }> {
  const upstream = new URL(baseUrl);
  const relay = createServer((req, res) => {
    const headers = { ...req.headers };
    const html = (req.headers.accept ?? '').includes('text/html');
    const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    if (html) delete headers['accept-encoding']; // the HTML is rewritten as text, then gzipped
    const out = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: req.url,
        method: req.method,
        headers,
      },
      (answer) => {
        const type = String(answer.headers['content-type'] ?? '');
        if (!type.includes('text/html')) {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          return;
        }
        let body = '';
        answer.setEncoding('utf8');
        answer.on('data', (chunk: string) => (body += chunk));
        answer.on('end', () => {
          const page = keep.scripts
            ? body
            : body
                .replace(/<script type="module"[^>]*><\/script>/g, '')
                .replace(/<link rel="modulepreload"[^>]*>/g, '')
                // A painted page's code list and the inline loader that starts it.
                .replace(/<script id="app-code"[^>]*>.*?<\/script>/g, '')
                .replace(/<script>.*?<\/script>/g, '');
          const {
            'content-length': _length,
            'content-encoding': _encoding,
            'cross-origin-opener-policy': coop,
            ...rest
          } = answer.headers;
          const kept =
            keep.coop && coop !== undefined
              ? { ...rest, 'cross-origin-opener-policy': coop }
              : rest;
          res.writeHead(
            answer.statusCode ?? 502,
            gzip ? { ...kept, 'content-encoding': 'gzip' } : kept,
          );
          res.end(gzip ? gzipSync(page) : page);
        });
      },
    );
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const { port } = relay.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        relay.closeAllConnections();
        relay.close(() => resolve());
      }),
  };
}

/** The variants of `/` the bench measures beside the real page, labelled as it prints them. */
export const VARIANTS: ReadonlyArray<{ label: string; keep: PageVariant }> = [
  { label: 'without COOP', keep: { scripts: true, coop: false } },
  { label: 'without JavaScript', keep: { scripts: false, coop: true } },
  { label: 'without JavaScript or COOP', keep: { scripts: false, coop: false } },
];

/** One mobile run of `/` through a `variantRelay`. */
export async function variantAudit(baseUrl: string, keep: PageVariant): Promise<LighthouseResult> {
  const relay = await variantRelay(baseUrl, keep);
  try {
    return await audit(relay.url, '/', 'mobile');
  } finally {
    await relay.close();
  }
}
