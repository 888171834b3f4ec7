/**
 * `GET /api/painel/conferencia?dia=AAAA-MM-DD[&fuso=minutos]`: the latest conferência of a day
 * (null: none yet); `POST` (same query): starts it, or answers the one running (202). A
 * manager's terminal only. The query is checked with the contract
 * (contract/api/conferencia.ts, 422 field by field); the work is the domain's
 * (domain/conferencia/), which only reads the service.
 */
import { Hono, type Context } from 'hono';
import { ConferenciaQuery } from '#contract/api/conferencia';
import type { ConferenciaWire } from '#contract/api/conferencia';
import { fail } from './envelope';
import { invalid, validate } from './validate';
import type { ConferenciaService } from '../domain/conferencia/service';
import { readsAsManager } from '../domain/operations';
import type { Role } from '../domain/operations';

export const CONFERENCIA_PATH = '/api/painel/conferencia';

export interface ConferenciaRoutesOptions {
  service: Pick<ConferenciaService, 'request' | 'latest'>;
  /** The role of the request's terminal (null: no terminal identity, as in tests). */
  roleOf: (c: Context) => Role | null;
}

export function conferenciaRoutes(options: ConferenciaRoutesOptions): Hono {
  const app = new Hono();
  const managerOnly = async (c: Context, next: () => Promise<void>) => {
    const role = options.roleOf(c);
    if (role !== null && !readsAsManager(role)) {
      return fail(c, 403, 'Só um gerente vê a conferência.');
    }
    return next();
  };
  /** Starting a run is a store's gerente's (the chain's `rede` reads). */
  const storeManagerOnly = async (c: Context, next: () => Promise<void>) => {
    const role = options.roleOf(c);
    if (role !== null && role !== 'gerente') {
      return fail(c, 403, 'Só o gerente da loja inicia a conferência.');
    }
    return next();
  };
  const check = validate('query', ConferenciaQuery, { message: 'Dia inválido.' });
  app.get(CONFERENCIA_PATH, managerOnly, check, async (c) => {
    const data: ConferenciaWire = await options.service.latest(c.req.valid('query'));
    return c.json({ success: true, message: 'Conferência do dia.', data });
  });
  app.post(CONFERENCIA_PATH, storeManagerOnly, check, async (c) => {
    const result = await options.service.request(c.req.valid('query'));
    if (!result.ok) return invalid(c, { [result.field]: [result.message] });
    const data: ConferenciaWire = result.conferencia;
    const message = result.created
      ? 'Conferência iniciada.'
      : 'A conferência deste dia já está em andamento.';
    return c.json({ success: true, message, data }, 202);
  });
  return app;
}
