/**
 * What a load balancer, a monitor and Prometheus ask: GET /healthz (the process answers),
 * GET /readyz (ready to serve: 503 while draining or without the store) and GET /metrics
 * (from loopback, or with METRICS_TOKEN as a bearer token). None needs a terminal; none reveals
 * configuration. Mounted before the host guard, so a balancer may probe by address.
 */
import { timingSafeEqual } from 'node:crypto';
import { Hono } from 'hono';
import type { Context, MiddlewareHandler } from 'hono';
import { forwardedClient, isLoopbackHost } from '../domain/access/address';
import { readiness } from '../domain/ops/health';
import type { ReadinessDeps } from '../domain/ops/health';
import { routeOf } from '../domain/ops/metrics';
import type { Metrics } from '../domain/ops/metrics';

export interface OperationsOptions extends ReadinessDeps {
  metrics: Metrics | null;
  /** METRICS_TOKEN, or null: /metrics from loopback only. */
  metricsToken: string | null;
  /** TRUSTED_PROXIES: a proxy on loopback does not make every client local. */
  trustedProxies?: readonly string[];
}

/** Counts and times every request (by route label, never its full path). */
export function requestMetrics(metrics: Metrics): MiddlewareHandler {
  return async (c, next) => {
    const start = performance.now();
    try {
      await next();
    } finally {
      const route = routeOf(new URL(c.req.url).pathname);
      metrics.request(route, c.req.method, c.res.status, (performance.now() - start) / 1000);
    }
  };
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function mayReadMetrics(c: Context, options: OperationsOptions): boolean {
  const auth = c.req.header('authorization') ?? '';
  const bearer = /^Bearer\s+(\S+)$/i.exec(auth)?.[1];
  if (options.metricsToken !== null && bearer !== undefined) {
    return sameToken(bearer, options.metricsToken);
  }
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  const peer = env?.incoming?.socket?.remoteAddress;
  if (peer === undefined) return false;
  const client = forwardedClient(
    peer,
    c.req.header('x-forwarded-for'),
    new Set(options.trustedProxies ?? []),
  );
  return isLoopbackHost(client);
}

export function operationRoutes(options: OperationsOptions): Hono {
  const app = new Hono();
  // Only these paths: a sub-app mounted at '/' would put a '*' middleware on every route.
  app.get('/healthz', (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json({ status: 'ok' });
  });
  app.get('/readyz', async (c) => {
    c.header('Cache-Control', 'no-store');
    const r = await readiness(options);
    return c.json({ status: r.ready ? 'ready' : 'unready', ...r }, r.ready ? 200 : 503);
  });
  app.get('/metrics', async (c) => {
    c.header('Cache-Control', 'no-store');
    if (options.metrics === null) return c.text('Not Found\n', 404);
    if (!mayReadMetrics(c, options)) {
      c.header('WWW-Authenticate', 'Bearer');
      return c.text('Forbidden: /metrics answers loopback or the METRICS_TOKEN\n', 403);
    }
    const body = await options.metrics.text();
    return c.body(body, 200, { 'Content-Type': options.metrics.contentType });
  });
  return app;
}
