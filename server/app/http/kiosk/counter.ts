/**
 * The counter's side of the kiosk (roles `caixa`, `gerente`): GET terminais · POST vendas ·
 * GET vendas/{id} · POST vendas/{id}/cancelar. A counter stages a sale for an active kiosk,
 * follows it and cancels it while no customer has claimed it.
 */
import { Hono } from 'hono';
import * as z from 'zod/mini';
import {
  CounterSaleAnswer,
  KIOSK_MESSAGES,
  KiosksAnswer,
  StageForKioskRequest,
} from '#contract/api/kiosk';
import { activeKiosk, activeKiosks, COUNTER_ROLES } from '../../domain/kiosk/access';
import type { KioskDeps } from '../../domain/kiosk/deps';
import { saleMessages, saleView } from '../../domain/kiosk/sales';
import { cancelSale, counterSale, stageSale } from '../../domain/kiosk/stage';
import { fail } from '../envelope';
import { actorOf } from '../actor';
import { invalid, validate } from '../validate';
import { me, ok, passwordRefusal, refuse, requireRole, text } from './respond';
import type { Vars } from './respond';

/** The contract's request, and its `quiosque` one of the active kiosks (reported with the rest). */
const stageForActiveKiosk = (deps: KioskDeps) =>
  StageForKioskRequest.check(
    z.refine(async (sale) => (await activeKiosk(deps, sale.quiosque)) !== null, {
      message: KIOSK_MESSAGES.kiosk,
      path: ['quiosque'],
      when: (payload) => !payload.issues.some((i) => i.path?.[0] === 'quiosque'),
    }),
  );

export function counterRoutes(deps: KioskDeps): Hono<Vars> {
  const app = new Hono<Vars>();
  const counter = requireRole(COUNTER_ROLES);

  app.get('/terminais', counter, async (c) =>
    ok(c, KiosksAnswer, 'Quiosques ativos.', { quiosques: await activeKiosks(deps) }),
  );

  app.post('/vendas', counter, validate('json', stageForActiveKiosk(deps)), async (c) => {
    const sale = c.req.valid('json');
    const target = await activeKiosk(deps, sale.quiosque);
    if (target === null) return invalid(c, { quiosque: [KIOSK_MESSAGES.kiosk] });
    const staged = await stageSale(deps, {
      terminalId: me(c).id,
      kioskId: target.id,
      counterId: me(c).id,
      valorGasto: sale.valor_gasto,
      itens: sale.itens ?? null,
      senha: sale.senha_atendente,
    });
    if (staged.ok) {
      const venda = saleView(staged.sale);
      return ok(c, CounterSaleAnswer, `Venda enviada ao quiosque ${target.nome}.`, { venda }, 201);
    }
    if (staged.reason === 'busy') return fail(c, 409, saleMessages.busyKiosk);
    return passwordRefusal(c, staged, deps.audit, 'quiosque/vendas');
  });

  app.get('/vendas/:id', counter, async (c) => {
    const s = await counterSale(deps, me(c).id, c.req.param('id'));
    if (s === null) return fail(c, 404, text.notFound);
    return ok(c, CounterSaleAnswer, 'Venda enviada ao quiosque.', { venda: saleView(s) });
  });

  app.post('/vendas/:id/cancelar', counter, async (c) => {
    const s = await counterSale(deps, me(c).id, c.req.param('id'));
    if (s === null) return fail(c, 404, text.notFound);
    const cancelled = await cancelSale(deps, s);
    if (!cancelled.ok) {
      return refuse(c, CounterSaleAnswer, 409, cancelled.message, {
        venda: saleView(cancelled.sale),
      });
    }
    const venda = saleView(cancelled.sale);
    await deps.audit?.record(actorOf(c), 'quiosque.venda_cancelada', {
      venda: cancelled.sale.id,
      quiosque: cancelled.sale.kiosk_id,
      valor_gasto: cancelled.sale.amount,
    });
    return ok(c, CounterSaleAnswer, 'Venda cancelada.', { venda });
  });

  return app;
}
