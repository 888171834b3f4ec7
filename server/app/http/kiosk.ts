/**
 * The kiosk's narrow endpoints (`/api/quiosque/…`). A kiosk (role `quiosque`, or a `gerente`
 * trying the screen) never reaches the service's own routes: it gets only what its screen
 * shows, built here (see view.ts). The counter (caixa, gerente) stages sales for a kiosk,
 * follows them and cancels them. Updates are pushed to both as Server-Sent Events.
 *
 * Kiosk:   POST saldo · POST cadastro (both: a few phone lookups a minute per kiosk) · GET venda · POST venda (fallback, with the password)
 *          POST venda/{id}/resgatar · POST sair · GET eventos
 * Counter: GET terminais · POST vendas · GET vendas/{id} · POST vendas/{id}/cancelar · GET eventos
 */
import { randomUUID } from 'node:crypto';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Logger } from 'pino';
import {
  DESCRICAO_MAX,
  E164_PATTERN,
  NOME_MAX,
  QTDE_MAX,
  SENHA_MAX,
} from '../../../src/api/wire-fields';
import { ITENS_MAX, VALOR_GASTO_MAX, VALOR_GASTO_MIN } from '../../../src/api/wire';
import { hitRate, listTerminals, recordFailure, recordSuccess, refundFailure } from '../../store';
import type { JournalEntry, Role, Store } from '../../store';
import { portugueseDuration } from './access';
import type { AccessVars, createAccess } from './access';
import { fail, messages } from './envelope';
import { backoffMs } from '../domain/journal/backoff';
import { readCustomer } from '../domain/journal/readings';
import type { PostingService } from '../domain/journal/service';
import { kioskSealKeyFrom } from '../domain/journal/sealed';
import { createStagedSales, KIOSK_CHANNEL, saleMessages, saleView } from '../domain/kiosk/sales';
import type { SaleItem, StagedSale, StagedSales } from '../domain/kiosk/sales';
import { ServiceUnavailable } from '../domain/kiosk/service';
import type { KioskService } from '../domain/kiosk/service';
import { kioskCustomer } from '../domain/kiosk/view';

type Vars = { Variables: AccessVars };
type C = Context<Vars>;

export interface KioskRoutesOptions {
  access: ReturnType<typeof createAccess>;
  store: Store;
  service: KioskService;
  postings: PostingService;
  logger?: Logger;
  /** HMAC key / APP_SECRET: seals a staged sale's attendant password in the store. */
  secret: string;
  /** Staged sales (tests pass their own). */
  sales?: StagedSales;
  /** SSE keep-alive interval. Default 15 s. */
  heartbeatMs?: number;
  /**
   * Event streams one terminal may hold open in this process (a screen holds one or two);
   * a new one past it closes the terminal's oldest. Default 4.
   */
  maxStreamsPerTerminal?: number;
}

const KIOSK_ROLES: readonly Role[] = ['quiosque', 'gerente'];
const COUNTER_ROLES: readonly Role[] = ['caixa', 'gerente'];

const text = {
  phone: 'Digite o celular com DDD (11 dígitos).',
  consent: 'Para se cadastrar, aceite o uso dos seus dados.',
  name: `O nome pode ter no máximo ${NOME_MAX} caracteres.`,
  amount: 'Informe o valor da compra (de R$ 0,01 a R$ 100.000,00).',
  password: 'Informe a senha do atendente.',
  passwordWrong: 'Senha do atendente incorreta.',
  kiosk: 'Escolha um quiosque ativo.',
  notFound: 'Venda não encontrada neste terminal.',
  unavailable: messages.unavailable,
  items: 'A soma dos itens deve ser igual ao valor da compra.',
  itemsBad: 'Itens inválidos: cada item tem valor em centavos (inteiro ≥ 0).',
  tooManyLookups: 'Muitas consultas seguidas. Aguarde um minuto.',
} as const;

function invalid(c: C, errors: Record<string, string[]>, data: object = {}): Response {
  const first = Object.values(errors)[0]?.[0] ?? 'Dados inválidos.';
  return c.json({ success: false, message: first, errors, data }, 422);
}

/** The message of the service's refusal, for the customer at the kiosk. */
function refusalMessage(body: string): string {
  try {
    const m = (JSON.parse(body) as { message?: unknown } | null)?.message;
    if (typeof m === 'string' && m !== '') return m;
  } catch {
    // not the service's envelope
  }
  return 'Não lançado. Chame o caixa.';
}

function ok(c: C, message: string, data: object, status: ContentfulStatusCode = 200): Response {
  return c.json({ success: true, message, data }, status);
}

async function jsonBody(c: C): Promise<Record<string, unknown> | Response> {
  try {
    const body: unknown = await c.req.json();
    if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
      return body as Record<string, unknown>;
    }
  } catch {
    // answered below
  }
  return fail(c, 400, messages.badJson);
}

function phoneOf(body: Record<string, unknown>): string | null {
  const v = body.celular;
  return typeof v === 'string' && E164_PATTERN.test(v) && v.startsWith('+55') && v.length === 14
    ? v
    : null;
}

function nameOf(body: Record<string, unknown>): string | undefined | false {
  const v = body.nome;
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') return false;
  const t = v.trim().replace(/\s+/g, ' ');
  if ([...t].length > NOME_MAX) return false;
  return t === '' ? undefined : t;
}

function passwordOf(body: Record<string, unknown>): string | null {
  const v = body.senha_atendente;
  return typeof v === 'string' && v !== '' && [...v].length <= SENHA_MAX ? v : null;
}

/** valor_gasto and an optional basket whose line totals add up to it. */
function saleOf(
  body: Record<string, unknown>,
):
  | { ok: true; valor: number; itens: SaleItem[] | null }
  | { ok: false; errors: Record<string, string[]> } {
  const valor = body.valor_gasto;
  if (
    typeof valor !== 'number' ||
    !Number.isSafeInteger(valor) ||
    valor < VALOR_GASTO_MIN ||
    valor > VALOR_GASTO_MAX
  ) {
    return { ok: false, errors: { valor_gasto: [text.amount] } };
  }
  if (body.itens === undefined || body.itens === null) return { ok: true, valor, itens: null };
  if (!Array.isArray(body.itens) || body.itens.length > ITENS_MAX) {
    return { ok: false, errors: { itens: [text.itemsBad] } };
  }
  const itens: SaleItem[] = [];
  for (const raw of body.itens as unknown[]) {
    const i = (raw ?? {}) as Record<string, unknown>;
    const v = i.valor;
    const q = i.qtde;
    const d = i.descricao;
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0)
      return { ok: false, errors: { itens: [text.itemsBad] } };
    if (
      q !== undefined &&
      (typeof q !== 'number' || !Number.isSafeInteger(q) || q < 1 || q > QTDE_MAX)
    )
      return { ok: false, errors: { itens: [text.itemsBad] } };
    if (d !== undefined && (typeof d !== 'string' || [...d].length > DESCRICAO_MAX))
      return { ok: false, errors: { itens: [text.itemsBad] } };
    itens.push({
      ...(typeof d === 'string' ? { descricao: d } : {}),
      ...(typeof q === 'number' ? { qtde: q } : {}),
      valor: v,
    });
  }
  if (itens.reduce((s, i) => s + i.valor, 0) !== valor) {
    return { ok: false, errors: { itens: [text.items] } };
  }
  return { ok: true, valor, itens: itens.length === 0 ? null : itens };
}

const role =
  (roles: readonly Role[]): MiddlewareHandler<Vars> =>
  async (c, next) => {
    const t = c.get('terminal');
    if (t === undefined || !roles.includes(t.role)) return fail(c, 403, messages.roleForbidden);
    return next();
  };

export function mountKioskRoutes(app: Hono<Vars>, o: KioskRoutesOptions): StagedSales {
  const { access, store, service } = o;
  const sales = o.sales ?? createStagedSales(store, { sealKey: kioskSealKeyFrom(o.secret) });
  const sweeper = setInterval(() => {
    sales
      .sweep()
      .catch((err: unknown) => o.logger?.warn({ err: String(err) }, 'kiosk sales sweep failed'));
  }, 1_000);
  sweeper.unref?.();
  const base = '/api/quiosque';
  const kiosk = role(KIOSK_ROLES);
  const counter = role(COUNTER_ROLES);

  app.use(`${base}/*`, access.sameOriginJson, access.requireTerminal, access.rateLimit);
  const me = (c: C) => c.get('terminal')!;

  /** The kiosk's view of a customer, or null when the service has none with this phone. */
  async function lookup(celular: string) {
    return (await read(celular))?.view ?? null;
  }

  /** The view and the points of the customer's newest credit (a posting's own points). */
  async function read(celular: string) {
    const data = await service.find(celular);
    if (data === null) return null;
    const id = typeof data.id_cliente === 'number' ? data.id_cliente : null;
    const rewards = id === null ? [] : await service.pendingRewards(id);
    return { view: kioskCustomer(data, rewards), lastCredit: readCustomer(data).ultimo_credito };
  }

  /** Checks the attendant password with the terminal's lockout; null when accepted. */
  async function passwordRefusal(c: C, senha: string): Promise<Response | null> {
    const key = `senha:terminal:${me(c).id}`;
    const reserved = await recordFailure(store, key, access.limits.password);
    const locked = (until: number) => {
      const left = until - store.now();
      c.header('Retry-After', String(Math.max(1, Math.ceil(left / 1000))));
      return fail(c, 429, messages.passwordLocked(portugueseDuration(left)));
    };
    if (!reserved.counted) return locked(reserved.lockedUntil!);
    let verdict: 'ok' | 'wrong';
    try {
      verdict = await service.checkPassword(senha);
    } catch {
      await refundFailure(store, key);
      return fail(c, 503, text.unavailable);
    }
    if (verdict === 'ok') {
      await recordSuccess(store, key);
      return null;
    }
    if (reserved.lockedUntil !== null) return locked(reserved.lockedUntil);
    return invalid(c, { senha_atendente: [text.passwordWrong] });
  }

  /**
   * A kiosk's phone lookups (balance, registration) are few per minute, counted per terminal
   * in the store (shared by replicas): a kiosk cannot be used to enumerate customers. Only a
   * well-formed phone counts (a mistyped one never reaches the service).
   */
  async function lookupRefusal(c: C): Promise<Response | null> {
    const rate = await hitRate(store, [
      { key: `quiosque-consulta:${me(c).id}`, ...access.limits.kioskLookup },
    ]);
    if (rate.allowed) return null;
    c.header('Retry-After', String(Math.max(1, Math.ceil(rate.retryAfterMs / 1000))));
    o.logger?.warn({ terminal: me(c).id }, 'kiosk phone lookups over the limit');
    return fail(c, 429, text.tooManyLookups);
  }

  const unavailable = (c: C, err: unknown) => {
    if (err instanceof ServiceUnavailable) return fail(c, 503, text.unavailable);
    throw err;
  };

  // --- kiosk ---------------------------------------------------------------------------

  app.post(`${base}/saldo`, kiosk, async (c) => {
    const body = await jsonBody(c);
    if (body instanceof Response) return body;
    const celular = phoneOf(body);
    if (celular === null) return invalid(c, { celular: [text.phone] });
    const limited = await lookupRefusal(c);
    if (limited) return limited;
    try {
      const cliente = await lookup(celular);
      return ok(c, cliente ? 'Saldo do cliente.' : 'Celular não cadastrado.', {
        cadastrado: cliente !== null,
        cliente,
      });
    } catch (err) {
      return unavailable(c, err);
    }
  });

  app.post(`${base}/cadastro`, kiosk, async (c) => {
    const body = await jsonBody(c);
    if (body instanceof Response) return body;
    const errors: Record<string, string[]> = {};
    const celular = phoneOf(body);
    if (celular === null) errors.celular = [text.phone];
    const nome = nameOf(body);
    if (nome === false) errors.nome = [text.name];
    if (body.consentimento !== true) errors.consentimento = [text.consent];
    if (Object.keys(errors).length > 0) return invalid(c, errors);
    const limited = await lookupRefusal(c);
    if (limited) return limited;
    try {
      const done = await service.register({
        celular: celular!,
        ...(nome ? { nome } : {}),
      });
      if (!done.ok) {
        if (done.status === 422)
          return invalid(c, { nome: [String(done.body?.message ?? text.name)] });
        return fail(c, 503, text.unavailable);
      }
      o.logger?.info(
        { terminal: me(c).id, consent: 'lgpd-kiosk' },
        'kiosk registration with consent',
      );
      const cliente = await lookup(celular!);
      return ok(c, 'Cadastro feito.', { cadastrado: cliente !== null, cliente }, 201);
    } catch (err) {
      return unavailable(c, err);
    }
  });

  app.get(`${base}/venda`, kiosk, async (c) => {
    const s = await sales.openFor(me(c).id);
    return ok(c, s ? 'Venda aguardando o cliente.' : 'Nenhuma venda aguardando.', {
      venda: s ? saleView(s) : null,
    });
  });

  // Fallback with no counter paired: the cashier stages the sale on the kiosk itself.
  app.post(`${base}/venda`, kiosk, async (c) => {
    const body = await jsonBody(c);
    if (body instanceof Response) return body;
    const sale = saleOf(body);
    const senha = passwordOf(body);
    const errors = sale.ok ? {} : { ...sale.errors };
    if (senha === null) Object.assign(errors, { senha_atendente: [text.password] });
    if (!sale.ok || senha === null) return invalid(c, errors);
    const refused = await passwordRefusal(c, senha);
    if (refused) return refused;
    const staged = await sales.stage({
      kioskId: me(c).id,
      counterId: null,
      valorGasto: sale.valor,
      itens: sale.itens,
      password: senha,
    });
    if (!staged.ok) return fail(c, 409, saleMessages.busyKiosk);
    return ok(c, 'Venda pronta para o cliente.', { venda: saleView(staged.sale) }, 201);
  });

  app.post(`${base}/venda/:id/resgatar`, kiosk, async (c) => {
    const s = await sales.get(c.req.param('id'));
    if (s === null || s.kiosk_id !== me(c).id) return fail(c, 404, text.notFound);
    const taken = (now: StagedSale) =>
      c.json(
        {
          success: false,
          message: now.message ?? saleMessages.taken,
          data: { venda: saleView(now) },
        },
        409,
      );
    if (s.state !== 'aguardando') return taken(s);
    const body = await jsonBody(c);
    if (body instanceof Response) return body;
    const celular = phoneOf(body);
    const nome = nameOf(body);
    if (celular === null) return invalid(c, { celular: [text.phone] });
    if (nome === false) return invalid(c, { nome: [text.name] });
    let existing: Record<string, unknown> | null;
    try {
      existing = await service.find(celular);
    } catch (err) {
      return unavailable(c, err);
    }
    if (existing === null && body.consentimento !== true) {
      return invalid(c, { consentimento: [text.consent] }, { cadastrado: false });
    }
    const claimed = await sales.beginClaim(s);
    if (claimed === null) return taken((await sales.get(s.id)) ?? s);
    if (existing === null) {
      o.logger?.info(
        { terminal: me(c).id, consent: 'lgpd-kiosk' },
        'kiosk registration with consent',
      );
    }
    const done = await post(
      claimed.sale,
      claimed.password,
      celular,
      existing === null ? nome : undefined,
    );
    return ok(c, done.message ?? 'Venda registrada.', { venda: saleView(done) });
  });

  /** Posts a claimed sale through the journal (its id is the Idempotency-Key) and follows it. */
  async function post(
    s: StagedSale,
    password: string,
    celular: string,
    nome?: string,
  ): Promise<StagedSale> {
    let result: Awaited<ReturnType<PostingService['submit']>>;
    try {
      result = await o.postings.submit({
        key: s.id,
        terminalId: String(s.counter_id ?? s.kiosk_id),
        requestId: randomUUID(),
        body: {
          valor_gasto: s.amount,
          senha_atendente: password,
          cliente: { celular, ...(nome ? { nome } : {}) },
          ...(s.items === null ? {} : { itens: JSON.parse(s.items) as SaleItem[] }),
        },
      });
    } catch (err) {
      o.logger?.error({ sale: s.id, err: String(err) }, 'kiosk posting failed');
      return sales.settle(s, {
        state: 'desconhecido',
        message: 'Não foi possível confirmar o lançamento. Chame o caixa.',
      });
    }
    if (result.kind === 'invalid' || result.kind === 'full') {
      return sales.settle(s, { state: 'recusado', message: result.message });
    }
    if (result.kind === 'refused') {
      return sales.settle(s, { state: 'recusado', message: refusalMessage(result.body) });
    }
    return follow(s, result.entry, celular);
  }

  async function follow(s: StagedSale, entry: JournalEntry, celular: string): Promise<StagedSale> {
    if (entry.state === 'lançado' || entry.state === 'recusado') {
      return settleFrom(s, entry, celular);
    }
    // Not settled yet (lost answer being verified): keep following in the background.
    const checking = await sales.settle(s, {
      state: 'lançando',
      message: 'Conferindo o lançamento…',
    });
    void (async () => {
      const until = store.now() + 15 * 60_000;
      let e = entry;
      for (
        let turn = 1;
        (e.state === 'enviando' || e.state === 'verificando' || e.state === 'desconhecido') &&
        store.now() < until;
        turn += 1
      ) {
        const next = await o.postings.wait(s.id).catch(() => null);
        if (next !== null) e = next;
        // Not decided yet (or not readable): asked again later, less often each time.
        if (next === null || e.state === 'desconhecido') {
          await new Promise((r) => setTimeout(r, backoffMs(turn, 2_000, 30_000)));
        }
      }
      await settleFrom(s, e, celular);
    })().catch((err: unknown) =>
      o.logger?.error({ sale: s.id, err: String(err) }, 'kiosk follow failed'),
    );
    return checking;
  }

  async function settleFrom(
    s: StagedSale,
    entry: JournalEntry,
    celular: string,
  ): Promise<StagedSale> {
    if (entry.state === 'lançado') {
      // The answer's balance delta misses points a reward consumed: the new credit tells.
      const after = await read(celular).catch(() => null);
      return sales.settle(s, {
        state: 'lançado',
        pontos: after?.lastCredit ?? entry.points,
        cliente: after?.view ?? null,
        message: 'Pontos lançados.',
      });
    } else if (entry.state === 'recusado') {
      return sales.settle(s, {
        state: 'recusado',
        message: entry.reason ?? 'Não lançado. Chame o caixa.',
      });
    } else if (entry.body !== null && entry.state === 'aguardando envio') {
      // Contingency: kept by the journal, delivered when the service returns.
      return sales.settle(s, {
        state: 'desconhecido',
        message:
          'Serviço indisponível: a compra foi guardada e será lançada quando o serviço voltar.',
      });
    } else {
      return sales.settle(s, {
        state: 'desconhecido',
        message: saleMessages.unknown,
      });
    }
  }

  app.post(`${base}/sair`, kiosk, async (c) => {
    const body = await jsonBody(c);
    if (body instanceof Response) return body;
    const senha = passwordOf(body);
    if (senha === null) return invalid(c, { senha_atendente: [text.password] });
    const refused = await passwordRefusal(c, senha);
    if (refused) return refused;
    return ok(c, 'Modo quiosque encerrado.', { ok: true });
  });

  // --- counter -------------------------------------------------------------------------

  app.get(`${base}/terminais`, counter, async (c) => {
    const kiosks = (await listTerminals(store))
      .filter((t) => t.role === 'quiosque' && t.status === 'ativo')
      .map((t) => ({ id: t.id, nome: t.name }));
    return ok(c, 'Quiosques ativos.', { quiosques: kiosks });
  });

  app.post(`${base}/vendas`, counter, async (c) => {
    const body = await jsonBody(c);
    if (body instanceof Response) return body;
    const sale = saleOf(body);
    const senha = passwordOf(body);
    const errors: Record<string, string[]> = sale.ok ? {} : { ...sale.errors };
    if (senha === null) errors.senha_atendente = [text.password];
    const kioskId = body.quiosque;
    const target =
      typeof kioskId === 'number'
        ? (await listTerminals(store)).find(
            (t) => t.id === kioskId && t.role === 'quiosque' && t.status === 'ativo',
          )
        : undefined;
    if (target === undefined) errors.quiosque = [text.kiosk];
    if (!sale.ok || senha === null || target === undefined) return invalid(c, errors);
    const refused = await passwordRefusal(c, senha);
    if (refused) return refused;
    const staged = await sales.stage({
      kioskId: target.id,
      counterId: me(c).id,
      valorGasto: sale.valor,
      itens: sale.itens,
      password: senha,
    });
    if (!staged.ok) return fail(c, 409, saleMessages.busyKiosk);
    return ok(
      c,
      `Venda enviada ao quiosque ${target.name}.`,
      { venda: saleView(staged.sale) },
      201,
    );
  });

  const counterSale = async (c: C) => {
    const s = await sales.get(c.req.param('id') ?? '');
    return s !== null && s.counter_id === me(c).id ? s : null;
  };

  app.get(`${base}/vendas/:id`, counter, async (c) => {
    const s = await counterSale(c);
    if (s === null) return fail(c, 404, text.notFound);
    return ok(c, 'Venda enviada ao quiosque.', { venda: saleView(s) });
  });

  app.post(`${base}/vendas/:id/cancelar`, counter, async (c) => {
    const s = await counterSale(c);
    if (s === null) return fail(c, 404, text.notFound);
    const cancelled = await sales.cancel(s);
    if (cancelled === null) {
      const now = (await sales.get(s.id)) ?? s;
      return c.json(
        {
          success: false,
          message:
            now.state === 'expirado' ? saleMessages.expired : 'O cliente já usou esta venda.',
          data: { venda: saleView(now) },
        },
        409,
      );
    }
    return ok(c, 'Venda cancelada.', { venda: saleView(cancelled) });
  });

  // --- both: live updates ---------------------------------------------------------------

  // Each terminal's open streams in this process, oldest first, by the function that closes
  // one. Per process: with replicas a terminal holds at most this many on each.
  const streams = new Map<number, (() => void)[]>();
  const maxStreams = Math.max(1, o.maxStreamsPerTerminal ?? 4);

  app.get(`${base}/eventos`, (c) => {
    const id = me(c).id;
    const isKiosk = KIOSK_ROLES.includes(me(c).role);
    return streamSSE(c, async (stream) => {
      let closed = false;
      const pending: string[] = [];
      let wake: (() => void) | null = null;
      let replaced = false;
      const end = () => {
        closed = true;
        wake?.();
      };
      const replace = () => {
        replaced = true;
        end();
      };
      const unlisten = await store.listen(KIOSK_CHANNEL, (payload) => {
        try {
          const msg = JSON.parse(payload) as { to: number[]; venda: unknown };
          if (!msg.to.includes(id)) return;
          pending.push(JSON.stringify(msg.venda));
          wake?.();
        } catch {
          // not ours
        }
      });
      stream.onAbort(end);
      const mine = streams.get(id) ?? [];
      streams.set(id, mine);
      mine.push(replace);
      while (mine.length > maxStreams) mine.shift()!();
      try {
        const open = isKiosk ? await sales.openFor(id) : null;
        await stream.writeSSE({
          event: 'pronto',
          data: JSON.stringify({ venda: open ? saleView(open) : null }),
        });
        while (!closed) {
          while (pending.length > 0 && !closed) {
            await stream.writeSSE({ event: 'venda', data: pending.shift()! });
          }
          if (closed) break;
          const beat = await new Promise<boolean>((resolve) => {
            const t = setTimeout(() => resolve(true), o.heartbeatMs ?? 15_000);
            wake = () => {
              clearTimeout(t);
              resolve(false);
            };
          });
          wake = null;
          if (beat && !closed) await stream.write(': keep-alive\n\n');
        }
        // Closed for a newer stream of this terminal: its EventSource waits before it
        // reconnects (and would then close the oldest in turn).
        if (replaced) await stream.writeSSE({ event: 'substituido', data: '{}', retry: 30_000 });
      } finally {
        const at = mine.indexOf(replace);
        if (at >= 0) mine.splice(at, 1);
        if (mine.length === 0 && streams.get(id) === mine) streams.delete(id);
        await unlisten();
      }
    });
  });

  return sales;
}
