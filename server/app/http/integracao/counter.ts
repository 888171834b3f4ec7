/**
 * The counter's endpoints for the PDV's sales (`/api/integracao/balcao/…`), for the enrolled
 * browser of a `caixa` (its own PDV's sales) or a `gerente` (every counter's):
 *
 * - `GET vendas[?de=ISO&ate=ISO&terminal=id]`: the sales waiting, the period's counts
 *   ("Pontuadas 14 de 20 vendas do PDV") and its unidentified sales;
 * - `POST vendas/{id}/lancar` with `Idempotency-Key` and `{ cliente, senha_atendente }`: posts
 *   the sale's amount and basket for that customer; answered as `pontuar` is;
 * - `POST vendas/{id}/quiosque` with `{ quiosque, senha_atendente }` (F7): the customer claims
 *   it at that kiosk.
 */
import { Hono } from 'hono';
import type { MiddlewareHandler } from 'hono';
import {
  PdvCounterAnswer,
  PdvListQuery,
  PdvPostRequest,
  PdvSaleAnswer,
  PdvToKioskAnswer,
  PdvToKioskRequest,
} from '#contract/api/integracao';
import { KIOSK_MESSAGES } from '#contract/api/kiosk';
import {
  counterOverview,
  counterPdvSale,
  periodOf,
  postAtCounter,
  summarise,
  toKiosk,
} from '../../domain/integracao/counter';
import type { PdvDeps } from '../../domain/integracao/deps';
import type { AuditTrail } from '../../domain/audit';
import { pdvView } from '../../domain/integracao/deps';
import { activeKiosk, COUNTER_ROLES } from '../../domain/kiosk/access';
import { saleMessages, saleView } from '../../domain/kiosk/sales';
import { postingMessages } from '../../domain/journal/messages';
import { operationAt } from '../../domain/operations';
import type { createAccess } from '../access';
import { fail } from '../envelope';
import { submitted } from '../postings';
import { invalid, validate } from '../validate';
import { me, ok, passwordRefusal, refuse, requireRole } from '../kiosk/respond';
import type { Vars } from '../kiosk/respond';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NOT_FOUND = 'Venda do PDV não encontrada neste terminal.';
const TAKEN = 'Esta venda do PDV já está sendo lançada, no quiosque ou encerrada.';

/** The counter's posting counts as a `pontuar` for the password lockout and the in-flight cap. */
const asPosting: MiddlewareHandler<Vars> = async (c, next) => {
  c.set('operation', operationAt('fidelidade/pontuar')!);
  return next();
};

export function counterPdvRoutes(
  deps: PdvDeps,
  access: ReturnType<typeof createAccess>,
  audit?: AuditTrail | null,
): Hono<Vars> {
  const app = new Hono<Vars>();
  app.use('*', access.sameOriginJson, access.requireTerminal, requireRole(COUNTER_ROLES));
  app.use('*', access.rateLimit);

  app.get('/vendas', validate('query', PdvListQuery), async (c) => {
    const q = c.req.valid('query');
    const viewer = me(c);
    let counterId: number | null = q.terminal === undefined ? null : Number(q.terminal);
    if (viewer.role !== 'gerente') {
      if (counterId !== null && counterId !== viewer.id) {
        return fail(c, 403, 'Este terminal vê só as próprias vendas do PDV.');
      }
      counterId = viewer.id;
    }
    const period = periodOf(deps.store.now(), q.de, q.ate);
    const { waiting, period: rows } = await counterOverview(deps, { counterId, ...period });
    return ok(c, PdvCounterAnswer, 'Vendas do PDV.', {
      aguardando: waiting.map(pdvView),
      resumo: summarise(rows),
      nao_identificadas: rows.filter((r) => r.state === 'não identificada').map(pdvView),
    });
  });

  app.post(
    '/vendas/:id/lancar',
    asPosting,
    access.postingsInFlight,
    access.passwordLocked,
    access.passwordLockout,
    validate('json', PdvPostRequest),
    async (c) => {
      const key = c.req.header('idempotency-key')?.trim();
      if (key === undefined || key === '' || !UUID.test(key)) {
        c.set('noVerdict', true);
        return fail(c, 422, key ? postingMessages.badKey : postingMessages.noKey);
      }
      const s = await counterPdvSale(deps, me(c), c.req.param('id'));
      if (s === null) {
        c.set('noVerdict', true);
        return fail(c, 404, NOT_FOUND);
      }
      const body = c.req.valid('json');
      const done = await postAtCounter(deps, s, {
        key,
        terminalId: me(c).id,
        cliente: body.cliente,
        senha: body.senha_atendente,
      });
      if (done.kind === 'busy') {
        c.set('noVerdict', true);
        return refuse(c, PdvSaleAnswer, 409, TAKEN, { venda: pdvView(done.sale) });
      }
      const viewer = { terminalId: String(me(c).id), role: me(c).role };
      return submitted(c as unknown as Parameters<typeof submitted>[0], done.result, viewer);
    },
  );

  app.post('/vendas/:id/quiosque', validate('json', PdvToKioskRequest), async (c) => {
    const body = c.req.valid('json');
    const kiosk = await activeKiosk(deps.kiosk, body.quiosque);
    if (kiosk === null) return invalid(c, { quiosque: [KIOSK_MESSAGES.kiosk] });
    const s = await counterPdvSale(deps, me(c), c.req.param('id'));
    if (s === null) return fail(c, 404, NOT_FOUND);
    const done = await toKiosk(deps, s, {
      terminalId: me(c).id,
      kioskId: kiosk.id,
      senha: body.senha_atendente,
    });
    if (done.kind === 'busy') {
      return refuse(c, PdvSaleAnswer, 409, TAKEN, { venda: pdvView(done.sale) });
    }
    if (done.kind === 'refused') {
      if (done.outcome.reason === 'busy') return fail(c, 409, saleMessages.busyKiosk);
      return passwordRefusal(c, done.outcome, audit, 'integracao/balcao/quiosque');
    }
    return ok(c, PdvToKioskAnswer, `Venda enviada ao quiosque ${kiosk.nome}.`, {
      venda: pdvView(done.sale),
      venda_quiosque: saleView(done.staged),
    });
  });

  return app;
}
