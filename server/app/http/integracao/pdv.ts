/**
 * The PDV's endpoints (`/api/integracao/vendas…`), for a program, not a browser: a bearer
 * token (`Authorization: Bearer pdv.…`) of an `integracao` terminal, no cookie, no `Origin`.
 *
 * - `POST vendas`: a sale (`id_venda` is the idempotency key: the same body again answers the
 *   same sale, 200; another body is a 409); 201 when new.
 * - `GET vendas/{id_venda}[?aguardar=segundos]`: the sale, once it changes or ends (≤ 20 s).
 * - `POST vendas/{id_venda}/cancelar`: voids a sale not yet posted (409 once it is).
 */
import { Hono } from 'hono';
import type { MiddlewareHandler } from 'hono';
import { PdvSaleAnswer, PdvSaleRequest, PdvWaitQuery } from '#contract/api/integracao';
import { countPdvRequest, identifyPdv } from '../../domain/integracao/access';
import type { PdvDeps } from '../../domain/integracao/deps';
import { pdvView } from '../../domain/integracao/deps';
import { cancelPdvSale, pdvSale, receiveSale, waitSale } from '../../domain/integracao/sales';
import { fail } from '../envelope';
import { me, ok, refuse, tooMany } from '../kiosk/respond';
import type { Vars } from '../kiosk/respond';
import { validate } from '../validate';

export const pdvText = {
  noToken: 'Informe o token de integração: Authorization: Bearer <token>.',
  badToken: 'Token de integração inválido ou revogado.',
  tooMany: 'Muitas requisições deste PDV. Aguarde alguns segundos.',
  notFound: 'Venda não encontrada para este PDV.',
  conflict: 'Este id_venda já foi usado por outra venda (com outro conteúdo).',
  notCancellable: 'Esta venda não pode mais ser cancelada.',
} as const;

/** The PDV's bearer token (401 without a valid one), then its own rate limit. */
export function pdvAuth(
  deps: PdvDeps,
  rate: { limit: number; windowMs: number },
): MiddlewareHandler<Vars> {
  return async (c, next) => {
    const header = c.req.header('authorization');
    const pdv = await identifyPdv(deps.store, header, deps.scope);
    if (pdv === null) {
      c.header('WWW-Authenticate', 'Bearer');
      return fail(c, 401, header === undefined ? pdvText.noToken : pdvText.badToken);
    }
    const counted = await countPdvRequest(deps.store, pdv, rate);
    if (!counted.allowed) return tooMany(c, counted.retryAfterMs, pdvText.tooMany);
    c.set('terminal', pdv);
    return next();
  };
}

export function pdvRoutes(deps: PdvDeps): Hono<Vars> {
  const app = new Hono<Vars>();

  app.post('/vendas', validate('json', PdvSaleRequest), async (c) => {
    const body = c.req.valid('json');
    const got = await receiveSale(deps, me(c), body);
    const venda = pdvView(got.sale);
    if (got.kind === 'conflict') return refuse(c, PdvSaleAnswer, 409, pdvText.conflict, { venda });
    const message = got.kind === 'created' ? 'Venda recebida.' : 'Venda já recebida.';
    return ok(c, PdvSaleAnswer, message, { venda }, got.kind === 'created' ? 201 : 200);
  });

  app.get('/vendas/:idVenda', validate('query', PdvWaitQuery), async (c) => {
    let s = await pdvSale(deps, me(c), c.req.param('idVenda'));
    if (s === null) return fail(c, 404, pdvText.notFound);
    const seconds = c.req.valid('query').aguardar ?? 0;
    if (seconds > 0) s = await waitSale(deps, s, seconds * 1000);
    return ok(c, PdvSaleAnswer, 'Venda do PDV.', { venda: pdvView(s) });
  });

  app.post('/vendas/:idVenda/cancelar', async (c) => {
    const s = await pdvSale(deps, me(c), c.req.param('idVenda'));
    if (s === null) return fail(c, 404, pdvText.notFound);
    const done = await cancelPdvSale(deps, s);
    const venda = pdvView(done.sale);
    if (!done.ok) return refuse(c, PdvSaleAnswer, 409, pdvText.notCancellable, { venda });
    return ok(c, PdvSaleAnswer, 'Venda cancelada.', { venda });
  });

  return app;
}
