/**
 * The kiosk terminal's own endpoints (role `quiosque`, or a `gerente` trying the screen):
 * POST saldo · POST cadastro (both: a few phone lookups a minute per kiosk) · GET venda ·
 * POST venda (fallback, with the attendant password) · POST venda/{id}/resgatar · POST sair.
 */
import { Hono } from 'hono';
import {
  BalanceAnswer,
  BalanceRequest,
  ClaimRequest,
  ExitAnswer,
  ExitRequest,
  KIOSK_MESSAGES,
  KioskSaleAnswer,
  RegisterRequest,
  StageHereRequest,
} from '#contract/api/kiosk';
import { KIOSK_ROLES } from '../../domain/kiosk/access';
import { claimSale } from '../../domain/kiosk/claim';
import { lookupBalance, registerAtKiosk } from '../../domain/kiosk/customer';
import type { KioskDeps } from '../../domain/kiosk/deps';
import { checkAttendantPassword } from '../../domain/kiosk/password';
import { saleMessages, saleView } from '../../domain/kiosk/sales';
import { stageSale } from '../../domain/kiosk/stage';
import { fail } from '../envelope';
import { actorOf } from '../actor';
import { invalid, validate } from '../validate';
import { me, ok, passwordRefusal, refuse, requireRole, text, tooMany } from './respond';
import type { C, Vars } from './respond';

/** The answer to a lookup the domain could not make (limit, service down, data refused). */
function lookupRefusal(
  c: C,
  outcome:
    | { kind: 'limited'; retryAfterMs: number }
    | { kind: 'unavailable' }
    | { kind: 'refused'; message: string | null },
): Response {
  if (outcome.kind === 'limited') {
    return tooMany(c, outcome.retryAfterMs, KIOSK_MESSAGES.tooManyLookups);
  }
  if (outcome.kind === 'refused') {
    return invalid(c, { nome: [outcome.message ?? KIOSK_MESSAGES.name] });
  }
  return fail(c, 503, text.unavailable);
}

export function customerRoutes(deps: KioskDeps): Hono<Vars> {
  const app = new Hono<Vars>();
  // Per route: a `use('*')` here would reach the counter's routes mounted beside these.
  const kiosk = requireRole(KIOSK_ROLES);

  app.post('/saldo', kiosk, validate('json', BalanceRequest), async (c) => {
    const { celular } = c.req.valid('json');
    const found = await lookupBalance(deps, me(c).id, celular);
    if (found.kind !== 'found') return lookupRefusal(c, found);
    const { cliente } = found;
    return ok(c, BalanceAnswer, cliente ? 'Saldo do cliente.' : 'Celular não cadastrado.', {
      cadastrado: cliente !== null,
      cliente,
    });
  });

  app.post('/cadastro', kiosk, validate('json', RegisterRequest), async (c) => {
    const { celular, nome } = c.req.valid('json');
    const done = await registerAtKiosk(deps, me(c).id, { celular, nome: nome ?? undefined });
    if (done.kind !== 'registered') return lookupRefusal(c, done);
    const { cliente } = done;
    return ok(c, BalanceAnswer, 'Cadastro feito.', { cadastrado: cliente !== null, cliente }, 201);
  });

  app.get('/venda', kiosk, async (c) => {
    const s = await deps.sales.openFor(me(c).id);
    return ok(c, KioskSaleAnswer, s ? 'Venda aguardando o cliente.' : 'Nenhuma venda aguardando.', {
      venda: s ? saleView(s) : null,
    });
  });

  // Fallback with no counter paired: the cashier stages the sale on the kiosk itself.
  app.post('/venda', kiosk, validate('json', StageHereRequest), async (c) => {
    const sale = c.req.valid('json');
    const staged = await stageSale(deps, {
      terminalId: me(c).id,
      kioskId: me(c).id,
      counterId: null,
      valorGasto: sale.valor_gasto,
      itens: sale.itens ?? null,
      senha: sale.senha_atendente,
    });
    if (staged.ok) {
      return ok(
        c,
        KioskSaleAnswer,
        'Venda pronta para o cliente.',
        { venda: saleView(staged.sale) },
        201,
      );
    }
    if (staged.reason === 'busy') return fail(c, 409, saleMessages.busyKiosk);
    return passwordRefusal(c, staged, deps.audit, 'quiosque/venda');
  });

  app.post('/venda/:id/resgatar', kiosk, validate('json', ClaimRequest), async (c) => {
    const body = c.req.valid('json');
    const claimed = await claimSale(deps, {
      kioskId: me(c).id,
      saleId: c.req.param('id'),
      celular: body.celular,
      nome: body.nome ?? undefined,
      consent: body.consentimento === true,
    });
    switch (claimed.kind) {
      case 'not-found':
        return fail(c, 404, text.notFound);
      case 'taken':
        return refuse(c, KioskSaleAnswer, 409, claimed.sale.message ?? saleMessages.taken, {
          venda: saleView(claimed.sale),
        });
      case 'unavailable':
        return fail(c, 503, text.unavailable);
      case 'needs-consent':
        return invalid(c, { consentimento: [KIOSK_MESSAGES.consent] }, { cadastrado: false });
      case 'done':
        return ok(c, KioskSaleAnswer, claimed.sale.message ?? 'Venda registrada.', {
          venda: saleView(claimed.sale),
        });
    }
  });

  app.post('/sair', kiosk, validate('json', ExitRequest), async (c) => {
    const { senha_atendente } = c.req.valid('json');
    const verdict = await checkAttendantPassword(deps, me(c).id, senha_atendente);
    if (!verdict.ok) return passwordRefusal(c, verdict, deps.audit, 'quiosque/sair');
    await deps.audit?.record(actorOf(c), 'quiosque.saida', {
      quiosque: { id: me(c).id, nome: me(c).name },
    });
    return ok(c, ExitAnswer, 'Modo quiosque encerrado.', { ok: true });
  });

  return app;
}
