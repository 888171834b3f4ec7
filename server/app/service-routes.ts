/**
 * The service's operations at the app server: the guards every service route passes, and
 * what is forwarded upstream once the journal's and the kiosk's routes had their turn.
 */
import type { Hono } from 'hono';
import { createForwarder } from './domain/forward';
import type { LookupToken, PostingService } from './domain/journal/service';
import type { Access, AccessVars } from './http/access';
import { fail, messages } from './http/envelope';
import { createProxyHandler, PROXY_PREFIX } from './http/proxy';
import type { Circuit } from './upstream/circuit';
import type { UpstreamClient } from './upstream/client';

/** The app server's options forwarding reads (see AppServerOptions). */
interface ForwardingOptions {
  mode: 'sandbox' | 'live';
  upstreamTimeoutMs?: number;
  maxBodyBytes?: number;
  maxResponseBytes?: number;
  postings?: PostingService;
  circuit?: Pick<Circuit, 'isOpen'> | null;
}

/**
 * Every service route, the journal's pontuar included: one of the operations with its method,
 * same origin and JSON, an enrolled terminal whose role allows it, its limits. The postings'
 * state and ledger: any enrolled terminal that may post (never the kiosk).
 */
export function guardServiceRoutes(
  app: Hono<{ Variables: AccessVars }>,
  access: Access,
  establishmentId: number,
): void {
  app.use(
    `${PROXY_PREFIX}*`,
    access.routeOperation(establishmentId),
    access.sameOriginJson,
    access.requireTerminal,
    access.postingsInFlight,
    access.passwordLocked,
    access.rateLimit,
    access.passwordLockout,
  );
  for (const path of ['/api/lancamentos', '/api/lancamentos/*', '/api/contingencia']) {
    app.use(
      path,
      access.sameOriginJson,
      access.requireTerminal,
      access.staffOnly,
      access.rateLimit,
    );
  }
}

/** The service's operations forwarded upstream (after the journal's and the kiosk's routes). */
export function mountForwarding(
  app: Hono<{ Variables: AccessVars }>,
  client: UpstreamClient,
  options: ForwardingOptions,
): void {
  // Without the journal no reward is handed over (never forwarded unjournaled).
  app.post(`${PROXY_PREFIX}*`, async (c, next) => {
    if (c.get('operation')?.name !== 'resgatar-premio') return next();
    const data = { entrega_indisponivel: true };
    return c.json({ success: false, message: messages.notFound, data }, 404);
  });
  // Contingency: while the service is unreachable a read fails at once (the counter then says
  // the balance cannot be read now) instead of waiting for its timeout.
  app.use(`${PROXY_PREFIX}*`, async (c, next) => {
    if (options.circuit?.isOpen()) return fail(c, 503, messages.contingency);
    return next();
  });
  const postings = options.postings;
  app.all(
    `${PROXY_PREFIX}*`,
    createProxyHandler({
      forwarder: createForwarder(client, options.mode),
      // A counter's lookups, kept by the journal: a posting's snapshot, a posting's points.
      lookups: postings
        ? {
            started(c, body) {
              const t = (c.get('terminal' as never) as AccessVars['terminal']) ?? null;
              if (t === null || (t.role !== 'caixa' && t.role !== 'gerente')) {
                return Promise.resolve(null);
              }
              return postings.lookupStarted(String(t.id), body);
            },
            answered: (token, status, text) =>
              void postings.lookupAnswered(token as LookupToken, status, text),
          }
        : null,
      upstreamTimeoutMs: options.upstreamTimeoutMs ?? 10_000,
      maxBodyBytes: options.maxBodyBytes ?? 1024 * 1024,
      maxResponseBytes: options.maxResponseBytes ?? 8 * 1024 * 1024,
    }),
  );
  app.all('/api/*', (c) => fail(c, 404, messages.notFound));
}
