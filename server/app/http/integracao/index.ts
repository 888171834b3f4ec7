/**
 * The integration API (`/api/integracao/…`): the PDV's endpoints (pdv.ts, bearer token), the
 * counter's (counter.ts, the enrolled browser's cookie), and the OpenAPI document. An
 * integration token reaches nothing else: `bearerOnlyHere` answers 403 to it anywhere else
 * under /api (401 when the token is not valid).
 */
import { Hono } from 'hono';
import type { MiddlewareHandler } from 'hono';
import { identifyPdv } from '../../domain/integracao/access';
import { createPdvDeps } from '../../domain/integracao/deps';
import type { AuditTrail } from '../../domain/audit';
import type { PdvDeps, PdvSetup } from '../../domain/integracao/deps';
import { startPdvSweeper } from '../../domain/integracao/settle';
import type { createAccess } from '../access';
import { fail } from '../envelope';
import type { Vars } from '../kiosk/respond';
import { counterPdvRoutes } from './counter';
import { openApiDocument } from './openapi';
import { pdvAuth, pdvRoutes, pdvText } from './pdv';

const PREFIX = '/api/integracao';

/** The PDV's own paths (a bearer token is expected there). */
const isPdvPath = (pathname: string) =>
  pathname === `${PREFIX}/vendas` || pathname.startsWith(`${PREFIX}/vendas/`);

/** Every /api request bearing an integration token outside the PDV's paths: 403 (401 when not valid). */
export function bearerOnlyHere(deps: Pick<PdvDeps, 'store'>): MiddlewareHandler {
  return async (c, next) => {
    const header = c.req.header('authorization');
    // Only an integration token's shape (`pdv.<id>.<secret>`) is ours; any other Authorization
    // is no credential here (the proxy drops it) and the terminal's cookie decides as always.
    if (header === undefined || !/^Bearer\s+pdv\./i.test(header)) return next();
    const { pathname } = new URL(c.req.url);
    if (isPdvPath(pathname) || pathname === `${PREFIX}/openapi.json`) return next();
    const pdv = await identifyPdv(deps.store, header);
    if (pdv === null) return fail(c, 401, pdvText.badToken);
    return fail(c, 403, 'O token de integração só alcança /api/integracao/vendas.');
  };
}

export interface IntegracaoOptions extends PdvSetup {
  access: ReturnType<typeof createAccess>;
  rate: { limit: number; windowMs: number };
  /** Where a password lockout started at the counter's PDV routes is recorded. */
  audit?: AuditTrail | null;
  /** PUBLIC_ORIGIN: the document's `servers` (else the origin it was asked at). */
  publicOrigin?: string | null;
}

/** Mounts the integration API; answers the function that stops its sweeper. */
export function mountIntegracao(app: Hono<Vars>, options: IntegracaoOptions): () => void {
  const { access, rate, audit, publicOrigin = null, ...setup } = options;
  const deps = createPdvDeps(setup);
  const routes = new Hono<Vars>();
  routes.get('/openapi.json', (c) =>
    c.json(openApiDocument(publicOrigin ?? new URL(c.req.url).origin)),
  );
  routes.use('/vendas', pdvAuth(deps, rate));
  routes.use('/vendas/*', pdvAuth(deps, rate));
  routes.route('/', pdvRoutes(deps));
  routes.route('/balcao', counterPdvRoutes(deps, access, audit));
  app.route(PREFIX, routes);
  return startPdvSweeper(deps);
}
