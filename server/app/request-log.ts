import type { MiddlewareHandler } from 'hono';
import type { Logger } from 'pino';

/**
 * Path as it may be logged: no query string (callers never pass it), any run of 11 or more
 * digits masked (a CPF or a phone number must never reach a log), and any configured
 * secret masked should one ever appear in a path.
 */
export function loggablePath(pathname: string, secrets: readonly string[] = []): string {
  let path = pathname;
  for (const secret of secrets) {
    if (secret.length >= 4) path = path.split(secret).join('[redacted]');
  }
  return path.replace(/\d{11,}/g, (run) => '*'.repeat(run.length));
}

export type RequestLogVars = {
  /** Why the upstream call failed, for the request's log line: never a message or a body. */
  upstreamError?: string;
};

/**
 * Exactly one log line per request: method, path, status and duration in ms. Headers,
 * query strings and bodies are never logged.
 */
export function requestLog(
  logger: Logger,
  secrets: readonly string[],
): MiddlewareHandler<{ Variables: RequestLogVars }> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const status = c.res.status;
    const line: Record<string, unknown> = {
      method: c.req.method,
      path: loggablePath(new URL(c.req.url).pathname, secrets),
      status,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
    };
    const upstreamError = c.get('upstreamError');
    if (upstreamError !== undefined) line.upstreamError = upstreamError;
    if (c.error) line.error = c.error.name;
    if (status >= 500) logger.error(line, 'request');
    else if (status >= 400) logger.warn(line, 'request');
    else logger.info(line, 'request');
  };
}
