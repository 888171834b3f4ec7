/**
 * The chain's view over HTTP (docs/operations/chain.md): `GET /api/rede/lojas` and `GET
 * /api/rede/painel` for a `rede` terminal only (every other role: 403), and the store a
 * request names (`X-Loja` header or `loja` query): another store than this app's is refused
 * (403, before any route or the service). The dispatcher (app/chain.ts) brings a `rede`
 * terminal's request naming a store to that store's app, so here it always names this one.
 */
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { AUDIT_EXPORT_LIMIT, AuditExportQuery, AuditQuery } from '#contract/api/auditoria';
import { PainelQuery } from '#contract/api/painel';
import { ALERT_EXPORT_LIMIT, AlertQuery } from '#contract/api/vigilancia';
import { STORE_HEADER } from '#contract/api/rede';
import type { RedeLojas, RedePainelWire } from '#contract/api/rede';
import { redeLojas, redePainel } from '../domain/rede';
import type { ChainNetwork } from '../domain/rede';
import type { Role } from '../domain/operations';
import { dayText } from '../domain/painel';
import {
  chainAlertExport,
  chainAlertPage,
  chainAuditExport,
  chainAuditPage,
  recordChainExport,
  type ChainListsDeps,
} from '../domain/rede-lists';
import { actorOf } from './actor';
import { sentFilters } from './audit';
import { fail, messages } from './envelope';
import { sentAlertFilters } from './vigilancia';
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
  /** The shared store and the default store, for the lists of every store. */
  lists: Omit<ChainListsDeps, 'storeIds'>;
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
  mountChainLists(app, {
    ...o.lists,
    storeIds: async () =>
      network === null ? [o.self.establishmentId] : (await network.stores()).map((s) => s.id),
  });
  return app;
}

/**
 * "Todas as lojas" of the lists the app's database holds: `GET /api/rede/auditoria[/exportar]`
 * and `GET /api/rede/vigilancia/alertas|exportar`, the same filters and pages as one store's,
 * each item naming its store. An export is recorded in each exported store's trail.
 */
function mountChainLists(app: Hono, deps: ChainListsDeps): void {
  const tooMany = (c: Context, total: number, limit: number, what: string, field: string) => {
    const message = `São ${total} ${what} com estes filtros; a exportação vai até ${limit}. Restrinja os filtros.`;
    return c.json({ success: false, message, errors: { [field]: [message] }, data: {} }, 422);
  };
  const auditQuery = validate('query', AuditQuery, { message: 'Filtros inválidos.' });
  app.get(`${REDE_PATH}/auditoria`, auditQuery, async (c) => {
    const data = await chainAuditPage(deps, c.req.valid('query'));
    return c.json({ success: true, message: 'Registros de auditoria da rede.', data });
  });
  const auditExport = validate('query', AuditExportQuery, { message: 'Filtros inválidos.' });
  app.get(`${REDE_PATH}/auditoria/exportar`, auditExport, async (c) => {
    const found = await chainAuditExport(deps, c.req.valid('query'));
    if (found.kind === 'too-many') {
      return tooMany(c, found.total, AUDIT_EXPORT_LIMIT, 'registros', 'de');
    }
    const lojas = found.itens.map((e) => e.loja);
    await recordChainExport(deps, actorOf(c), 'auditoria', sentFilters(c), lojas);
    const data = { itens: found.itens, total: found.total };
    return c.json({ success: true, message: 'Registros de auditoria da rede.', data });
  });
  const alertQuery = validate('query', AlertQuery, { message: 'Filtros inválidos.' });
  app.get(`${REDE_PATH}/vigilancia/alertas`, alertQuery, async (c) => {
    const data = await chainAlertPage(deps, c.req.valid('query'));
    return c.json({ success: true, message: 'Alertas da Vigilância da rede.', data });
  });
  app.get(`${REDE_PATH}/vigilancia/exportar`, alertQuery, async (c) => {
    const found = await chainAlertExport(deps, c.req.valid('query'));
    if (found.kind === 'too-many')
      return tooMany(c, found.total, ALERT_EXPORT_LIMIT, 'alertas', 'dia');
    const lojas = found.itens.map((a) => a.loja);
    await recordChainExport(deps, actorOf(c), 'vigilancia', sentAlertFilters(c), lojas);
    const data = { itens: found.itens, total: found.total };
    return c.json({ success: true, message: 'Alertas da Vigilância da rede.', data });
  });
}
