/**
 * The chain's view over HTTP (docs/operations/chain.md): `GET /api/rede/lojas` and `GET
 * /api/rede/painel` for a `rede` terminal only (every other role: 403), and the store a
 * request names (`X-Loja` header or `loja` query): another store than this app's is refused
 * (403, before any route or the service). The dispatcher (app/chain.ts) brings a `rede`
 * terminal's request naming a store to that store's app, so here it always names this one.
 */
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { PainelQuery } from '#contract/api/painel';
import { STORE_HEADER } from '#contract/api/rede';
import type { RedeLojas, RedePainelWire } from '#contract/api/rede';
import { redeLojas, redePainel } from '../domain/rede';
import type { ChainNetwork } from '../domain/rede';
import type { Role } from '../domain/operations';
import { dayText } from '../domain/painel';
import { fail, messages } from './envelope';
import { validate } from './validate';

export const REDE_PATH = '/api/rede';

/**
 * The store a request names (the header, else the query's `loja`): null when none, 'bad' when
 * it is no establishment id or the two disagree.
 */
export function chosenStore(req: Request): number | null | 'bad' {
  const header = req.headers.get(STORE_HEADER);
  const query = new URL(req.url).searchParams.getAll('loja');
  const named = [...(header === null ? [] : [header]), ...query].map((v) => v.trim());
  if (named.length === 0) return null;
  if (named.some((v) => !/^[1-9]\d{0,11}$/.test(v)) || new Set(named).size > 1) return 'bad';
  return Number(named[0]);
}

/** A request naming another store than this app's: 403, the service not called. */
export function ownStoreOnly(establishmentId: number): MiddlewareHandler {
  return async (c, next) => {
    const chosen = chosenStore(c.req.raw);
    if (chosen === 'bad') return fail(c, 400, 'Loja inválida.');
    if (chosen !== null && chosen !== establishmentId) return fail(c, 403, messages.forbidden);
    return next();
  };
}

export interface RedeRoutesOptions {
  /** The chain's stores (null: a deployment without the chain's dispatcher: this store only). */
  network: ChainNetwork | null;
  /** This store, for a deployment without the dispatcher. */
  self: { establishmentId: number; establishmentName: string | null };
  roleOf: (c: Context) => Role | null;
}

export function redeRoutes(o: RedeRoutesOptions): Hono {
  const app = new Hono();
  const network: ChainNetwork | null = o.network;
  app.use(`${REDE_PATH}/*`, async (c, next) => {
    if (o.roleOf(c) !== 'rede') return fail(c, 403, 'Só a rede vê as lojas.');
    return next();
  });
  app.get(`${REDE_PATH}/lojas`, async (c) => {
    const id = o.self.establishmentId;
    const data: RedeLojas =
      network === null
        ? { lojas: [{ id, nome: o.self.establishmentName ?? `Loja ${id}`, padrao: true }] }
        : await redeLojas(network);
    return c.json({ success: true, message: 'Lojas da rede.', data });
  });
  app.get(
    `${REDE_PATH}/painel`,
    validate('query', PainelQuery, { message: 'Período inválido.' }),
    async (c) => {
      if (network === null) return fail(c, 404, messages.notFound);
      const period = c.req.valid('query');
      const data: RedePainelWire = {
        de: dayText(period.de),
        ate: dayText(period.ate),
        ...(await redePainel(network, period)),
      };
      return c.json({ success: true, message: 'Resumo da rede.', data });
    },
  );
  return app;
}
