/**
 * The audit trail over HTTP: who a request's actor is (its terminal and request id, for the
 * routes that record an action), and a manager's routes:
 *
 * - `GET /api/auditoria?de&ate&acao&terminal&pagina[&fuso]`: a page of the trail, newest first;
 * - `GET /api/auditoria/exportar?…`: every entry of the filters for the CSV the browser writes
 *   (at most AUDIT_EXPORT_LIMIT); recorded here as an export, with its filters and rows;
 * - `POST /api/auditoria/exportacoes` `{ tipo, filtros, linhas }`: an export the browser writes
 *   from data it has read already (the shift ledger, the rewards list), recorded before the
 *   browser writes the file (any terminal that may export: caixa and gerente).
 *
 * Nothing here changes or deletes an entry: there is no such route, and the store refuses it.
 */
import { Hono, type Context } from 'hono';
import {
  AuditExportQuery,
  AuditQuery,
  AUDIT_EXPORT_LIMIT,
  ExportRecord,
} from '#contract/api/auditoria';
import type { AuditTrail } from '../domain/audit';
import { readsAsManager } from '../domain/operations';
import { actorOf } from './actor';
import type { AccessVars } from './access';
import { fail } from './envelope';
import { validate } from './validate';

export const AUDIT_PATH = '/api/auditoria';

const roleOf = (c: Context) => (c.get('terminal') as AccessVars['terminal'])?.role ?? null;

/** The filters as an entry records them: as sent, the absent ones left out. */
export function sentFilters(c: Context): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ['de', 'ate', 'acao', 'terminal']) {
    const v = c.req.query(name);
    if (v !== undefined && v !== '') out[name] = v;
  }
  return out;
}

export function auditRoutes(audit: AuditTrail): Hono<{ Variables: AccessVars }> {
  const app = new Hono<{ Variables: AccessVars }>();
  const managerOnly = async (c: Context, next: () => Promise<void>) => {
    const role = roleOf(c);
    if (role !== null && !readsAsManager(role)) {
      return fail(c, 403, 'Só um gerente vê a auditoria.');
    }
    return next();
  };

  app.get(
    AUDIT_PATH,
    managerOnly,
    validate('query', AuditQuery, { message: 'Filtros inválidos.' }),
    async (c) => {
      const data = await audit.page(c.req.valid('query'));
      return c.json({ success: true, message: 'Registros de auditoria.', data });
    },
  );

  app.get(
    `${AUDIT_PATH}/exportar`,
    managerOnly,
    validate('query', AuditExportQuery, { message: 'Filtros inválidos.' }),
    async (c) => {
      const found = await audit.all(c.req.valid('query'));
      if (found.kind === 'too-many') {
        const message = `São ${found.total} registros com estes filtros; a exportação vai até ${AUDIT_EXPORT_LIMIT}. Restrinja o período.`;
        return c.json({ success: false, message, errors: { de: [message] }, data: {} }, 422);
      }
      await audit.recordOrThrow(actorOf(c), 'exportacao', {
        tipo: 'auditoria',
        filtros: sentFilters(c),
        linhas: found.data.total,
      });
      return c.json({ success: true, message: 'Registros de auditoria.', data: found.data });
    },
  );

  app.post(`${AUDIT_PATH}/exportacoes`, validate('json', ExportRecord), async (c) => {
    const role = roleOf(c);
    const body = c.req.valid('json');
    if (role === 'quiosque' || (body.tipo === 'premios' && role === 'caixa')) {
      return fail(c, 403, 'O perfil deste terminal não exporta estes dados.');
    }
    await audit.recordOrThrow(actorOf(c), 'exportacao', { ...body });
    return c.json({ success: true, message: 'Exportação registrada.', data: {} }, 201);
  });

  return app;
}
