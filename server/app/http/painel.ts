/**
 * `GET /api/painel?de=AAAA-MM-DD&ate=AAAA-MM-DD[&fuso=minutos]`: the manager's dashboard of a
 * period (at most 92 local days). A manager's terminal only (a cashier's or a kiosk's: 403);
 * the query is checked with the contract (contract/api/painel.ts, 422 field by field),
 * the figures come from the domain (domain/painel.ts).
 */
import { Hono, type Context } from 'hono';
import { PainelQuery, type PainelWire } from '#contract/api/painel';
import { fail } from './envelope';
import { validate } from './validate';
import { painel, type PainelDeps } from '../domain/painel';
import { readsAsManager } from '../domain/operations';
import type { Role } from '../domain/operations';

export const PAINEL_PATH = '/api/painel';

export interface PainelRoutesOptions {
  deps: PainelDeps;
  /** The role of the request's terminal (null: no terminal identity, as in tests). */
  roleOf: (c: Context) => Role | null;
}

export function painelRoutes(options: PainelRoutesOptions): Hono {
  const app = new Hono();
  app.get(
    PAINEL_PATH,
    async (c, next) => {
      const role = options.roleOf(c);
      if (role !== null && !readsAsManager(role)) {
        return fail(c, 403, 'Só um gerente vê o painel.');
      }
      return next();
    },
    validate('query', PainelQuery, { message: 'Período inválido.' }),
    async (c) => {
      const data: PainelWire = await painel(options.deps, c.req.valid('query'));
      c.header('Cache-Control', 'no-store');
      return c.json({ success: true, message: 'Painel do período.', data });
    },
  );
  return app;
}
