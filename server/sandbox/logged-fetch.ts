import type { Logger } from 'pino';
import type { Sandbox } from './sandbox';

/**
 * The sandbox's fetch with one log line per request: method, path, status, ms. Never
 * headers, bodies or query strings, so no token, password or CPF reaches the log.
 */
export function loggedFetch(sandbox: Pick<Sandbox, 'app'>, log: Logger) {
  return async (req: Request): Promise<Response> => {
    const started = performance.now();
    const path = new URL(req.url).pathname;
    const res = await sandbox.app.fetch(req);
    log.info(
      {
        method: req.method,
        path,
        status: res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
      },
      'request',
    );
    return res;
  };
}
