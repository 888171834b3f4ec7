/**
 * The app server, composed: the domain's services over the store and the upstream client,
 * and the http areas mounted in the order their middleware needs. The one place (with
 * server/main.ts) that sees every layer.
 */
import { Hono } from 'hono';
import type { Context } from 'hono';
import pino from 'pino';
import type { Logger } from 'pino';
import type { AppServerOptions } from './options';
import { showsKiosk } from '#contract/wire';
import { createLimits, DEFAULT_LIMITS } from './domain/access/limits';
import type { AuditTrail } from './domain/audit';
import { kioskService } from './domain/kiosk/service';
import { createLifecycle } from './domain/ops/lifecycle';
import { createAccess } from './http/access';
import { AUDIT_PATH, auditRoutes } from './http/audit';
import type { Access, AccessVars } from './http/access';
import { fail, messages } from './http/envelope';
import { compressJson } from './http/compress';
import { PDV_RATE_DEFAULT } from './domain/integracao/access';
import { bearerOnlyHere, mountIntegracao } from './http/integracao';
import { conferenciaRoutes, CONFERENCIA_PATH } from './http/conferencia';
import { mountKioskRoutes } from './http/kiosk';
import { operationRoutes, requestMetrics } from './http/operations';
import { pageRenderer } from './http/page-render';
import { painelRoutes, PAINEL_PATH } from './http/painel';
import { postingRoutes } from './http/postings';
import { requestLog } from './http/request-log';
import { securityHeaders, setResponseHeaders } from './http/security';
import { createStaticHandler } from './http/static';
import { terminalRoutes } from './http/terminals';
import { mountTerminais } from './http/terminais';
import { VIGILANCIA_PATH, vigilanciaRoutes } from './http/vigilancia';
import { ownStoreOnly, REDE_PATH, redeRoutes } from './http/rede';
import { painelDeps, storeParts } from './store-parts';
import { guardServiceRoutes, mountForwarding } from './service-routes';
import { createVigilancia } from './domain/vigilancia/service';
import type { Vigilancia } from './domain/vigilancia/service';
import type { ConfigData } from './http/terminals';
import { clientOf } from './upstream/client';

export type AppServer = Hono<{ Variables: AccessVars }>;

export function createAppServer(options: AppServerOptions): AppServer {
  const logger = options.logger ?? pino();
  const app = new Hono<{ Variables: AccessVars }>();
  const client = clientOf(options);
  const { scope, terminals, audit } = storeParts(options, logger);
  const access = createAccess({
    audit,
    terminals,
    limits: createLimits({
      store: options.store,
      limits: { ...DEFAULT_LIMITS, ...options.limits },
      journaledInStore: options.postings?.journalsIn(options.store) ?? false,
    }),
    publicOrigin: options.publicOrigin,
    autoEnroll: options.autoEnroll,
    trustedProxies: options.trustedProxies,
  });

  const lifecycle = options.lifecycle ?? createLifecycle();
  const metrics = options.metrics ?? null;
  if (metrics !== null) app.use(requestMetrics(metrics));
  // Health and metrics: before the log (a balancer probes every few seconds) and the host guard.
  app.route(
    '/',
    operationRoutes({
      store: options.store,
      lifecycle,
      postings: options.postings ?? null,
      metrics,
      metricsToken: options.metricsToken ?? null,
      trustedProxies: options.trustedProxies,
    }),
  );
  app.use(requestLog(logger, [options.appToken, options.accessToken]));
  app.use(securityHeaders({ https: options.publicOrigin?.startsWith('https://') ?? false }));
  app.use(access.hostGuard);
  app.use('/api/*', async (c, next) => {
    await next();
    setResponseHeaders(c, (h) => h.set('Cache-Control', 'no-store'));
  });
  app.use('/api/*', compressJson());
  // A request naming another store (X-Loja, ?loja=): refused (a rede's is routed to that store).
  app.use('/api/*', ownStoreOnly(options.establishmentId));
  // An integration token (the PDV's) reaches /api/integracao/vendas only.
  app.use('/api/*', bearerOnlyHere({ store: options.store }));

  /** This browser's config (auto-enrolls it in sandbox-on-loopback, like GET /api/config). */
  const configData = async (c: Context): Promise<ConfigData> => ({
    establishmentId: options.establishmentId,
    establishmentName: options.establishmentName,
    mode: options.mode,
    terminal: await access.configTerminal(c),
    enrollment: options.autoEnroll ? 'auto' : 'code',
    entregaPremios: options.postings?.handoverAvailable() ?? false,
  });
  app.route('/api', terminalRoutes({ access, config: configData }));

  guardServiceRoutes(app, access, options.establishmentId);
  if (options.postings) {
    // Mounted here, after the access checks above and before the proxy below: a sub-app's
    // routes take their place in this app's order when mounted.
    app.route(
      '/',
      postingRoutes({
        service: options.postings,
        establishmentId: options.establishmentId,
        maxBodyBytes: options.maxBodyBytes ?? 1024 * 1024,
        viewerOf: (c) => {
          const t = (c.get('terminal') as AccessVars['terminal']) ?? null;
          return t === null ? null : { terminalId: String(t.id), role: t.role };
        },
        terminalNames: () => terminals.names(),
        audit,
      }),
    );
  }

  mountManagerRoutes(app, access, options, { scope, terminals, audit, logger });

  const vigilancia = mountVigilancia(app, access, options, audit, terminals, logger);

  if (options.postings) {
    // The kiosk's narrow endpoints (never the service's own routes) and staged sales.
    const kiosk = mountKioskRoutes(app, {
      access,
      store: options.store,
      service: kioskService({ client }),
      postings: options.postings,
      secret: options.secret,
      logger,
      onDrain: lifecycle.onDrain,
      streamOpened: metrics?.streamOpened,
      audit,
      scope,
    });
    // The store's PDV: its sales, posted through the journal or waiting at the counter.
    mountIntegracao(app, {
      access,
      store: options.store,
      postings: options.postings,
      service: kiosk.service,
      kiosk,
      secret: options.secret,
      password: options.pdvPassword ?? null,
      ...(options.pdvExpiryMs === undefined ? {} : { expiryMs: options.pdvExpiryMs }),
      rate: options.pdvRate ?? PDV_RATE_DEFAULT,
      sweepGate: options.sweepGate ?? null,
      logger,
      audit,
      publicOrigin: options.publicOrigin,
      scope,
      onPostedCancel: (sale) => vigilancia.recordPostedCancel(sale),
    });
  }

  mountForwarding(app, client, options);
  mountPages(app, options, configData, logger);

  app.notFound((c) => c.text('Not Found\n', 404));
  app.onError((_err, c) => {
    if (isApiPath(c.req.url)) return fail(c, 500, messages.internal);
    return c.text('Internal Server Error\n', 500);
  });
  return app;
}

/**
 * A manager's screens: the dashboard and its conferência, the audit trail, the chain's view
 * and the terminals (an enrolled terminal; the routes refuse the roles they do not serve).
 */
function mountManagerRoutes(
  app: AppServer,
  access: Access,
  options: AppServerOptions,
  { scope, terminals, audit, logger }: ReturnType<typeof storeParts> & { logger: Logger },
): void {
  // The manager's dashboard: an enrolled manager's terminal (the routes refuse other roles).
  for (const path of [PAINEL_PATH, CONFERENCIA_PATH]) {
    app.use(path, access.sameOriginJson, access.requireTerminal, access.rateLimit);
  }
  const roleOf = (c: Context) => (c.get('terminal') as AccessVars['terminal'])?.role ?? null;
  if (options.conferencia) {
    app.route('/', conferenciaRoutes({ service: options.conferencia, roleOf }));
  }
  app.route(
    '/',
    painelRoutes({
      deps: painelDeps(options, { scope, terminals }),
      roleOf,
    }),
  );

  // The audit trail: a manager reads it; caixa and gerente record the exports they write. The
  // chain's view (its stores, their roll-up): a `rede` terminal's.
  for (const path of [AUDIT_PATH, `${AUDIT_PATH}/*`, `${REDE_PATH}/*`]) {
    app.use(path, access.sameOriginJson, access.requireTerminal, access.rateLimit);
  }
  app.route('/', auditRoutes(audit));
  app.route(
    '/',
    redeRoutes({
      network: options.chain?.network ?? null,
      self: options,
      roleOf,
      lists: {
        store: options.store,
        defaultId: options.chain?.defaultId ?? options.establishmentId,
      },
    }),
  );
  mountTerminais(app, access, {
    admin: {
      store: options.store,
      secret: options.secret,
      defaultId: options.chain?.defaultId ?? options.establishmentId,
      log: logger,
    },
    establishmentId: options.establishmentId,
    establishmentName: options.establishmentName,
    chainStores: options.chain?.network ? () => options.chain!.network!.stores() : null,
  });
}

/** Vigilância: a manager's alerts and rules (every other role: 403); the instance in use. */
function mountVigilancia(
  app: AppServer,
  access: Access,
  options: AppServerOptions,
  audit: AuditTrail,
  terminals: ReturnType<typeof storeParts>['terminals'],
  logger: Logger,
): Vigilancia {
  const vigilancia =
    options.vigilancia ??
    createVigilancia({
      store: options.store,
      establishmentId: options.establishmentId,
      log: logger,
    });
  app.use(`${VIGILANCIA_PATH}/*`, access.sameOriginJson, access.requireTerminal, access.rateLimit);
  app.route(
    VIGILANCIA_PATH,
    vigilanciaRoutes({
      vigilancia,
      audit,
      establishmentId: options.establishmentId,
      terminalNames: () => terminals.names(),
    }),
  );
  return vigilancia;
}

/**
 * The page carries the config, so the SPA paints without waiting for GET /api/config, and its
 * first view rendered from it, painted before the SPA's code has even arrived. The lazy
 * routes' pages preload their chunk.
 */
function mountPages(
  app: AppServer,
  options: AppServerOptions,
  configData: (c: Context) => Promise<ConfigData>,
  logger: Logger,
): void {
  app.all(
    '*',
    createStaticHandler(options.distDir, {
      pageData: configData,
      pageMarkup: pageRenderer(options.distDir, logger),
      routeModules: {
        '/premios': 'src/app/routes/premios.tsx',
        '/painel': 'src/app/routes/painel.tsx',
        '/auditoria': 'src/app/routes/auditoria.tsx',
        '/vigilancia': 'src/app/routes/vigilancia.tsx',
        '/terminais': 'src/app/routes/terminais.tsx',
        '/quiosque': 'src/app/routes/quiosque.tsx',
      },
      // The SPA's rule: a kiosk-only terminal's `/` is the kiosk.
      routeOf: (data, pathname) =>
        data.terminal !== null && showsKiosk(data.terminal.navigation, pathname)
          ? '/quiosque'
          : pathname,
    }),
  );
}

function isApiPath(url: string): boolean {
  const { pathname } = new URL(url);
  return pathname === '/api' || pathname.startsWith('/api/');
}
