import { Hono } from 'hono';
import pino from 'pino';
import type { Logger } from 'pino';
import { fail, messages } from './envelope';
import { mountPostingRoutes } from './postings/routes';
import type { PostingService } from './postings/postings';
import { createProxyHandler, PROXY_PREFIX } from './proxy';
import type { Upstream } from './proxy';
import { requestLog } from './request-log';
import type { RequestLogVars } from './request-log';
import { securityHeaders } from './security';
import { createStaticHandler } from './static';

export type { Upstream } from './proxy';

export interface AppServerOptions {
  mode: 'sandbox' | 'live';
  /** live: global fetch; sandbox: the in-process sandbox app. */
  upstream: Upstream;
  /** e.g. https://api.example.com (live) or http://sandbox.internal (embedded). */
  upstreamBaseUrl: string;
  appToken: string;
  accessToken: string;
  establishmentId: number;
  establishmentName: string | null;
  /** The built SPA (vite build output); may be missing, then pages answer 503. */
  distDir: string;
  /** Default 10 000. */
  upstreamTimeoutMs?: number;
  /** Largest request body relayed upstream. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Largest upstream answer relayed to the browser. Default 8 MiB. */
  maxResponseBytes?: number;
  logger?: Logger;
  /** The postings journal: when given, `pontuar` goes through it (Idempotency-Key required). */
  postings?: PostingService;
}

export interface ConfigData {
  establishmentId: number;
  establishmentName: string | null;
  mode: 'sandbox' | 'live';
}

export type AppServer = Hono<{ Variables: RequestLogVars }>;

export function createAppServer(o: AppServerOptions): AppServer {
  const logger = o.logger ?? pino();
  const app = new Hono<{ Variables: RequestLogVars }>();

  app.use(requestLog(logger, [o.appToken, o.accessToken]));
  app.use(securityHeaders);

  const config: ConfigData = {
    establishmentId: o.establishmentId,
    establishmentName: o.establishmentName,
    mode: o.mode,
  };
  app.get('/api/config', (c) =>
    c.json({ success: true, message: 'Configuração do terminal.', data: config }, 200, {
      'Cache-Control': 'no-store',
    }),
  );
  app.all('/api/config', (c) => {
    c.header('Allow', 'GET, HEAD');
    return fail(c, 405, messages.methodNotAllowed);
  });

  if (o.postings) {
    mountPostingRoutes(app, {
      service: o.postings,
      establishmentId: o.establishmentId,
      maxBodyBytes: o.maxBodyBytes ?? 1024 * 1024,
    });
  }

  app.all(
    `${PROXY_PREFIX}*`,
    createProxyHandler({
      mode: o.mode,
      upstream: o.upstream,
      upstreamBaseUrl: o.upstreamBaseUrl,
      appToken: o.appToken,
      accessToken: o.accessToken,
      establishmentId: o.establishmentId,
      upstreamTimeoutMs: o.upstreamTimeoutMs ?? 10_000,
      maxBodyBytes: o.maxBodyBytes ?? 1024 * 1024,
      maxResponseBytes: o.maxResponseBytes ?? 8 * 1024 * 1024,
    }),
  );
  app.all('/api/*', (c) => fail(c, 404, messages.notFound));
  app.all('*', createStaticHandler(o.distDir));

  app.notFound((c) => c.text('Not Found\n', 404));
  app.onError((_err, c) => {
    if (isApiPath(c.req.url)) return fail(c, 500, messages.internal);
    return c.text('Internal Server Error\n', 500);
  });
  return app;
}

function isApiPath(url: string): boolean {
  const { pathname } = new URL(url);
  return pathname === '/api' || pathname.startsWith('/api/');
}
