import { Hono } from 'hono';
import type { Context } from 'hono';
import pino from 'pino';
import type { Logger } from 'pino';
import { showsKiosk } from '../../src/api/wire';
import { listTerminals } from '../store';
import type { Store } from '../store';
import { createAccess } from './http/access';
import type { AccessLimits, AccessVars } from './http/access';
import { fail, messages } from './http/envelope';
import { mountKioskRoutes } from './http/kiosk';
import { kioskService } from './domain/kiosk/service';
import { postingRoutes } from './http/postings';
import type { PostingService } from './domain/journal/service';
import type { Circuit } from './domain/circuit';
import { createProxyHandler, PROXY_PREFIX } from './http/proxy';
import type { Upstream } from './http/proxy';
import { requestLog } from './http/request-log';
import { securityHeaders, setResponseHeaders } from './http/security';
import { pageRenderer } from './http/page-render';
import { createStaticHandler } from './http/static';

export type { Upstream } from './http/proxy';

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
  /** The app server's own store (terminals, limits). */
  store: Store;
  /** HMAC key of the terminal credentials (APP_SECRET). */
  secret: string;
  /** PUBLIC_ORIGIN, or null: loopback names only. */
  publicOrigin: string | null;
  /** Sandbox on loopback: /api/config enrolls a browser as gerente without a code. */
  autoEnroll: boolean;
  /** Rate limits and the password lockout (defaults in access.ts). */
  limits?: Partial<AccessLimits>;
  /** TRUSTED_PROXIES: whose `X-Forwarded-For` names the client (canonical addresses). */
  trustedProxies?: readonly string[];
  /** Whether the upstream is reachable: while open, service reads answer 503 at once. */
  circuit?: Pick<Circuit, 'isOpen'> | null;
}

export interface ConfigData {
  establishmentId: number;
  establishmentName: string | null;
  mode: 'sandbox' | 'live';
  /** This browser's terminal, or null when it is not enrolled. */
  terminal: {
    id: number;
    name: string;
    role: 'caixa' | 'gerente' | 'quiosque';
    navigation: { caixa: boolean; premios: boolean; quiosque: boolean };
  } | null;
  /** 'auto': sandbox on loopback enrolls browsers itself; 'code': a manager's code is needed. */
  enrollment: 'auto' | 'code';
}

export type AppServer = Hono<{ Variables: AccessVars }>;

export function createAppServer(o: AppServerOptions): AppServer {
  const logger = o.logger ?? pino();
  const app = new Hono<{ Variables: AccessVars }>();
  const access = createAccess({
    store: o.store,
    secret: o.secret,
    publicOrigin: o.publicOrigin,
    autoEnroll: o.autoEnroll,
    limits: o.limits,
    trustedProxies: o.trustedProxies,
    journaledInStore: o.postings?.journalsIn(o.store) ?? false,
  });

  app.use(requestLog(logger, [o.appToken, o.accessToken]));
  app.use(securityHeaders({ https: o.publicOrigin?.startsWith('https://') ?? false }));
  app.use(access.hostGuard);
  app.use('/api/*', async (c, next) => {
    await next();
    setResponseHeaders(c, (h) => h.set('Cache-Control', 'no-store'));
  });

  /** This browser's config (auto-enrolls it in sandbox-on-loopback, like GET /api/config). */
  const configData = async (c: Context): Promise<ConfigData> => ({
    establishmentId: o.establishmentId,
    establishmentName: o.establishmentName,
    mode: o.mode,
    terminal: await access.configTerminal(c),
    enrollment: o.autoEnroll ? 'auto' : 'code',
  });

  app.get('/api/config', async (c) => {
    const data = await configData(c);
    return c.json({ success: true, message: 'Configuração do terminal.', data });
  });
  app.all('/api/config', (c) => {
    c.header('Allow', 'GET, HEAD');
    return fail(c, 405, messages.methodNotAllowed);
  });

  app.post('/api/terminal/registrar', access.sameOriginJson, (c) => access.enroll(c));
  app.all('/api/terminal/registrar', (c) => {
    c.header('Allow', 'POST');
    return fail(c, 405, messages.methodNotAllowed);
  });

  // Every service route, the journal's pontuar included: one of the four operations with its
  // method, same origin and JSON, an enrolled terminal whose role allows it, its limits.
  app.use(
    `${PROXY_PREFIX}*`,
    access.routeOperation(o.establishmentId),
    access.sameOriginJson,
    access.requireTerminal,
    access.postingsInFlight,
    access.passwordLocked,
    access.rateLimit,
    access.passwordLockout,
  );
  // The postings' state and ledger: any enrolled terminal that may post (never the kiosk).
  for (const path of ['/api/lancamentos', '/api/lancamentos/*', '/api/contingencia']) {
    app.use(
      path,
      access.sameOriginJson,
      access.requireTerminal,
      access.staffOnly,
      access.rateLimit,
    );
  }
  if (o.postings) {
    // Mounted here, after the access checks above and before the proxy below: a sub-app's
    // routes take their place in this app's order when mounted.
    app.route(
      '/',
      postingRoutes({
        service: o.postings,
        establishmentId: o.establishmentId,
        maxBodyBytes: o.maxBodyBytes ?? 1024 * 1024,
        viewerOf: (c) => {
          const t = (c.get('terminal') as AccessVars['terminal']) ?? null;
          return t === null ? null : { terminalId: String(t.id), role: t.role };
        },
        terminalNames: async () =>
          new Map((await listTerminals(o.store)).map((t) => [String(t.id), t.name])),
      }),
    );
  }

  if (o.postings) {
    // The kiosk's narrow endpoints (never the service's own routes) and staged sales.
    mountKioskRoutes(app, {
      access,
      store: o.store,
      service: kioskService(o),
      postings: o.postings,
      secret: o.secret,
      logger,
    });
  }

  // Contingency: while the service is unreachable a read fails at once (the counter then says
  // the balance cannot be read now) instead of waiting for its timeout.
  app.use(`${PROXY_PREFIX}*`, async (c, next) => {
    if (o.circuit?.isOpen()) return fail(c, 503, messages.contingency);
    return next();
  });
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
  // The page carries the config, so the SPA paints without waiting for GET /api/config, and
  // its first view rendered from it, painted before the SPA's code has even arrived.
  // The lazy routes' pages preload their chunk.
  app.all(
    '*',
    createStaticHandler(o.distDir, {
      pageData: configData,
      pageMarkup: pageRenderer(o.distDir, logger),
      routeModules: {
        '/premios': 'src/app/routes/premios.tsx',
        '/quiosque': 'src/app/routes/quiosque.tsx',
      },
      // The SPA's rule: a kiosk-only terminal's `/` is the kiosk.
      routeOf: (data, pathname) =>
        data.terminal !== null && showsKiosk(data.terminal.navigation, pathname)
          ? '/quiosque'
          : pathname,
    }),
  );

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
