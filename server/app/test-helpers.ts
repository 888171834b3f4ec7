import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { createAppServer } from './app';
import type { AppServerOptions, Upstream } from './app';

export const APP_TOKEN = 'app-token-SECRET-7f3a';
export const ACCESS_TOKEN = 'access-token-SECRET-91bc';

/** A fake upstream that records each request it receives (with its body read). */
export function recordingUpstream(
  answer: (req: Request) => Response | Promise<Response> = () =>
    Response.json({ success: true, message: 'ok', data: {} }),
) {
  const received: { url: string; method: string; headers: Headers; body: string }[] = [];
  const upstream: Upstream = {
    async fetch(req) {
      received.push({
        url: req.url,
        method: req.method,
        headers: new Headers(req.headers),
        body: await req.clone().text(),
      });
      return answer(req);
    },
  };
  return { upstream, received };
}

/** A logger writing into an array, one entry per JSON line. */
export function capturedLogger() {
  const lines: string[] = [];
  const logger = pino({ level: 'info' }, { write: (s: string) => void lines.push(s) });
  return { logger, lines };
}

export function makeApp(overrides: Partial<AppServerOptions> = {}) {
  const log = capturedLogger();
  const rec = recordingUpstream();
  const app = createAppServer({
    mode: 'live',
    upstream: rec.upstream,
    upstreamBaseUrl: 'https://api.example.com',
    appToken: APP_TOKEN,
    accessToken: ACCESS_TOKEN,
    establishmentId: 1,
    establishmentName: 'Loja Demo',
    distDir: '/nonexistent/dist',
    logger: log.logger,
    ...overrides,
  });
  return { app, received: rec.received, lines: log.lines };
}

export const INDEX_HTML = '<!doctype html><html><body><div id="root"></div></body></html>';
export const SECRET_OUTSIDE = 'TOP-SECRET-OUTSIDE-DIST';

/** A temporary project with a built dist/ and a secret file next to it. */
export function tempDist() {
  const base = mkdtempSync(path.join(tmpdir(), 'app-server-test-'));
  const dist = path.join(base, 'dist');
  mkdirSync(path.join(dist, 'assets'), { recursive: true });
  writeFileSync(path.join(dist, 'index.html'), INDEX_HTML);
  writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log("app");');
  writeFileSync(path.join(dist, 'assets', 'index-abc123.css'), 'body{margin:0}');
  writeFileSync(
    path.join(dist, 'assets', 'logo-abc123.svg'),
    '<svg xmlns="http://www.w3.org/2000/svg"/>',
  );
  writeFileSync(
    path.join(dist, 'assets', 'font-abc123.woff2'),
    Buffer.from([0x77, 0x4f, 0x46, 0x32]),
  );
  writeFileSync(path.join(dist, 'manifest.webmanifest'), '{"name":"PDV"}');
  writeFileSync(path.join(dist, 'favicon.ico'), Buffer.from([0, 0, 1, 0]));
  writeFileSync(path.join(base, 'secret.txt'), SECRET_OUTSIDE);
  return { base, dist, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}
