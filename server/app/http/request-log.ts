import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { Logger } from 'pino';
import { setResponseHeaders } from './security';

/** A client's own `x-request-id` is kept when it is short and plain; otherwise a new one. */
const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{8,64}$/;

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

/**
 * An error that ended a request, as it may be logged: its name, message and stack (a 500 must
 * say why), masked like paths (a message may quote a phone number or a CPF; never a secret).
 */
function loggableError(
  err: Error,
  secrets: readonly string[] = [],
): { name: string; message: string; stack?: string } {
  const mask = (text: string) => loggablePath(text, secrets);
  return {
    name: err.name,
    message: mask(err.message),
    ...(err.stack === undefined ? {} : { stack: mask(err.stack) }),
  };
}

export type RequestLogVars = {
  /** Why the upstream call failed, for the request's log line: never a message or a body. */
  upstreamError?: string;
  /** Echoed as `x-request-id` and written in the log line. */
  requestId?: string;
  /** The enrolled terminal that made the request, once known. */
  terminal?: { id: number };
};

/**
 * Exactly one log line per request: request id, method, path, status, duration in ms, the
 * terminal and, when a handler threw, the error (see `loggableError`). Headers, query strings
 * and bodies are never logged.
 */
export function requestLog(
  logger: Logger,
  secrets: readonly string[],
): MiddlewareHandler<{ Variables: RequestLogVars }> {
  return async (c, next) => {
    const started = performance.now();
    const given = c.req.header('x-request-id');
    const requestId = given !== undefined && CLIENT_REQUEST_ID.test(given) ? given : randomUUID();
    c.set('requestId', requestId);
    await next();
    setResponseHeaders(c, (h) => h.set('x-request-id', requestId));
    const status = c.res.status;
    const line: Record<string, unknown> = {
      requestId,
      method: c.req.method,
      path: loggablePath(new URL(c.req.url).pathname, secrets),
      status,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
    };
    const terminal = c.get('terminal');
    if (terminal !== undefined) line.terminal = terminal.id;
    const upstreamError = c.get('upstreamError');
    if (upstreamError !== undefined) line.upstreamError = upstreamError;
    if (c.error) line.error = loggableError(c.error, secrets);
    if (status >= 500) logger.error(line, 'request');
    else if (status >= 400) logger.warn(line, 'request');
    else logger.info(line, 'request');
  };
}
