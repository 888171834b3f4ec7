/**
 * Vigilância over HTTP, a manager's terminal only (a cashier's, a kiosk's: 403 on every route):
 *
 * - `GET /api/vigilancia/alertas?regra&estado&terminal&dia&celular&pagina`: a page of alerts,
 *   newest first, with the open ones counted by rule;
 * - `GET /api/vigilancia/alertas/{id}`: one alert with its evidence and its shift;
 * - `POST /api/vigilancia/alertas/{id}/decisao` `{ acao, nota }`: acknowledge or dismiss an
 *   open alert, with a note (audited: who, why);
 * - `GET /api/vigilancia/exportar?…`: every alert of the filters for the CSV the browser writes,
 *   recorded in the audit trail as an export first;
 * - `GET|PUT /api/vigilancia/regras`: the rules' switches and thresholds for this store
 *   (a change is audited);
 * - `GET /api/vigilancia/entregas`: the outbound webhook's latest deliveries of this store
 *   (state, attempts, the receiver's last answer).
 */
import { Hono, type Context } from 'hono';
import {
  ALERT_EXPORT_LIMIT,
  AlertQuery,
  DecisionRequest,
  RulesWire,
  VIGILANCIA_PATH,
} from '#contract/api/vigilancia';
import type { AuditTrail } from '../domain/audit';
import type { Vigilancia } from '../domain/vigilancia/service';
import { alertDetail, alertExport, alertPage, type ViewDeps } from '../domain/vigilancia/view';
import { actorOf } from './actor';
import type { AccessVars } from './access';
import { fail } from './envelope';
import { ruleErrors } from '../domain/vigilancia/settings';
import { invalid, validate } from './validate';

export { VIGILANCIA_PATH };

export interface VigilanciaRoutesOptions {
  vigilancia: Vigilancia;
  audit: AuditTrail;
  establishmentId: number;
  terminalNames: ViewDeps['terminalNames'];
}

const roleOf = (c: Context) => (c.get('terminal') as AccessVars['terminal'])?.role ?? null;

export function sentAlertFilters(c: Context): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ['regra', 'estado', 'terminal', 'dia']) {
    const v = c.req.query(name);
    if (v !== undefined && v !== '') out[name] = v;
  }
  if (c.req.query('celular')) out.celular = 'informado';
  return out;
}

export function vigilanciaRoutes(o: VigilanciaRoutesOptions): Hono<{ Variables: AccessVars }> {
  const app = new Hono<{ Variables: AccessVars }>();
  const view: ViewDeps = {
    alerts: o.vigilancia.alerts,
    establishmentId: o.establishmentId,
    terminalNames: o.terminalNames,
  };
  app.use('*', async (c, next) => {
    const role = roleOf(c);
    // The chain's rede reads every store's alerts and rules; deciding and editing: the gerente.
    if (role === 'rede' && c.req.method === 'GET') return next();
    if (role !== 'gerente') return fail(c, 403, 'Só um gerente vê a Vigilância.');
    return next();
  });
  const filters = validate('query', AlertQuery, { message: 'Filtros inválidos.' });

  app.get('/alertas', filters, async (c) => {
    const data = await alertPage(view, c.req.valid('query'));
    return c.json({ success: true, message: 'Alertas da Vigilância.', data });
  });

  app.get('/alertas/:id{[0-9]{1,12}}', async (c) => {
    const data = await alertDetail(view, Number(c.req.param('id')));
    if (data === null) return fail(c, 404, 'Alerta não encontrado.');
    return c.json({ success: true, message: 'Alerta e evidências.', data });
  });

  app.post('/alertas/:id{[0-9]{1,12}}/decisao', validate('json', DecisionRequest), async (c) => {
    const id = Number(c.req.param('id'));
    const body = c.req.valid('json');
    const actor = actorOf(c);
    const state = body.acao === 'reconhecer' ? 'reconhecido' : 'descartado';
    const by =
      actor.terminalName ?? (actor.terminalId === null ? null : `terminal ${actor.terminalId}`);
    const done = await o.vigilancia.alerts.decide(
      o.establishmentId,
      id,
      state,
      body.nota.trim(),
      by,
    );
    if (done === null) {
      const exists = await o.vigilancia.alerts.get(o.establishmentId, id);
      if (exists === null) return fail(c, 404, 'Alerta não encontrado.');
      return fail(c, 409, 'Este alerta já foi decidido.');
    }
    await o.audit.record(actor, 'vigilancia.decisao', {
      alerta: id,
      regra: done.rule,
      decisao: state,
      nota: body.nota.trim(),
    });
    await o.vigilancia.announce(
      state === 'reconhecido' ? 'alerta.reconhecido' : 'alerta.descartado',
      done,
    );
    const data = await alertDetail(view, id);
    const message = state === 'reconhecido' ? 'Alerta reconhecido.' : 'Alerta descartado.';
    return c.json({ success: true, message, data });
  });

  app.get('/exportar', filters, async (c) => {
    const found = await alertExport(view, c.req.valid('query'));
    if (found.kind === 'too-many') {
      const message = `São ${found.total} alertas com estes filtros; a exportação vai até ${ALERT_EXPORT_LIMIT}. Restrinja os filtros.`;
      return c.json({ success: false, message, errors: { dia: [message] }, data: {} }, 422);
    }
    await o.audit.recordOrThrow(actorOf(c), 'exportacao', {
      tipo: 'vigilancia',
      filtros: sentAlertFilters(c),
      linhas: found.total,
    });
    const data = { itens: found.itens, total: found.total };
    return c.json({ success: true, message: 'Alertas da Vigilância.', data });
  });

  app.get('/regras', async (c) => {
    const s = await o.vigilancia.settings.get(o.establishmentId);
    return c.json({
      success: true,
      message: 'Regras da Vigilância.',
      data: { regras: o.vigilancia.settings.toWire(s) },
    });
  });

  app.put('/regras', validate('json', RulesWire), async (c) => {
    const { regras } = c.req.valid('json');
    const errors = ruleErrors(regras);
    if (Object.keys(errors).length > 0) return invalid(c, errors);
    const actor = actorOf(c);
    await o.vigilancia.settings.save(o.establishmentId, regras, actor.terminalName);
    await o.audit.record(actor, 'vigilancia.regras', {
      regras: regras.map((r) => ({ regra: r.codigo, ligada: r.ligada, ...r.parametros })),
    });
    const s = await o.vigilancia.settings.get(o.establishmentId);
    return c.json({
      success: true,
      message: 'Regras salvas.',
      data: { regras: o.vigilancia.settings.toWire(s) },
    });
  });

  app.get('/entregas', async (c) => {
    const data = await o.vigilancia.deliveries();
    return c.json({ success: true, message: 'Entregas do webhook.', data });
  });

  return app;
}
