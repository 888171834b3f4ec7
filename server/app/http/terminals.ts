/**
 * The app server's own routes for a browser and its terminal: `GET /api/config` (who this
 * browser is; it also enrolls it in sandbox-on-loopback) and `POST /api/terminal/registrar`
 * (a manager's one-time code).
 */
import type { Context } from 'hono';
import { Hono } from 'hono';
import type * as z from 'zod/mini';
import type { Config } from '#contract/api/config';
import type { Access, AccessVars } from './access';
import { fail, messages } from './envelope';

/** The config as the contract defines it (built here, parsed by the browser). */
export type ConfigData = z.input<typeof Config>;

export interface TerminalRoutesDeps {
  access: Access;
  /** This browser's config (see configData in app.ts). */
  config: (c: Context) => Promise<ConfigData>;
}

function methodNotAllowed(c: Context, allow: string): Response {
  c.header('Allow', allow);
  return fail(c, 405, messages.methodNotAllowed);
}

export function terminalRoutes(deps: TerminalRoutesDeps) {
  const app = new Hono<{ Variables: AccessVars }>();
  app.get('/config', async (c) => {
    const data = await deps.config(c);
    return c.json({ success: true, message: 'Configuração do terminal.', data });
  });
  app.all('/config', (c) => methodNotAllowed(c, 'GET, HEAD'));
  app.post('/terminal/registrar', deps.access.sameOriginJson, (c) => deps.access.enroll(c));
  app.all('/terminal/registrar', (c) => methodNotAllowed(c, 'POST'));
  return app;
}
