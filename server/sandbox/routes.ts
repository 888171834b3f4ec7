// The sandbox's HTTP surface: thin routes. Each one authorises, reads the moment, parses and
// validates, calls one store operation and answers in the envelope.
//
// Order of checks: 401 tokens → 404 establishment → 403 token of another establishment →
// 400 x-sandbox-now → 400/413 body → 422 validation → the operation.

import { timingSafeEqual, createHash } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { fail, invalid, ok, readJsonObject } from './http';
import { localDate, parseInstant } from '#contract/rules/time';
import {
  firstError,
  validateBuscar,
  validateCadastrar,
  validatePontuar,
  validateResgatar,
} from '#contract/rules/validation';
import { validateRewardQuery } from '#contract/rules/reward-query';
import type { Establishment, Store } from './store';

export const BASE = '/api/v4/estabelecimentos/:id';
export const NOW_HEADER = 'x-sandbox-now';

const MESSAGES = {
  unauthorized: 'Acesso não autorizado. Confira o app-token e o access-token.',
  forbidden: 'Este access-token não dá acesso a este estabelecimento.',
  establishmentNotFound: 'Estabelecimento não encontrado',
  customerNotFound: 'Cliente não encontrado',
  routeNotFound: 'Endereço não encontrado.',
  methodNotAllowed: 'Método não permitido para este endereço.',
  badNow: `Cabeçalho ${NOW_HEADER} inválido. Use data e hora ISO 8601 com fuso, entre 1970 e 2999, por exemplo 2026-11-23T09:00:00-03:00.`,
  internal: 'Erro interno do serviço. Tente novamente em instantes.',
  busy: 'O serviço está ocupado. Tente novamente em instantes.',
  posted: 'Pontos lançados com sucesso.',
  created: 'Cliente cadastrado com sucesso.',
  exists: 'Cliente já cadastrado.',
  found: 'Cliente encontrado.',
  rewards: 'Recompensas listadas com sucesso.',
  handedOver: 'Prêmio resgatado com sucesso.',
  nothingToHandOver: 'O cliente não tem este prêmio para resgatar',
} as const;

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();
const sameSecret = (a: string, b: string): boolean => timingSafeEqual(digest(a), digest(b));
/** A token pair's lookup key: its digest, so lookup time tells nothing about the tokens. */
const tokenKey = (appToken: string, accessToken: string): string =>
  createHash('sha256').update(`${appToken}\n${accessToken}`, 'utf8').digest('base64');
const ESTABLISHMENTS_TTL_MS = 5_000;

interface Guarded {
  est: Establishment;
  nowMs: number;
}

/**
 * The routes' first check: tokens, establishment and the request's moment, as a function
 * of the request that answers a Response when any check fails.
 */
function createGuard(store: Store, now: () => Date): (c: Context) => Guarded | Response {
  /**
   * The establishments (only the seed writes them), read again after ESTABLISHMENTS_TTL_MS,
   * keyed by id and by the SHA-256 of their token pair: a request's tokens are hashed once
   * and looked up, instead of two comparisons per establishment.
   */
  let known: {
    readAt: number;
    byId: Map<number, Establishment>;
    byTokens: Map<string, Establishment>;
  } | null = null;
  function establishments(): NonNullable<typeof known> {
    const nowMs = Date.now();
    if (known === null || nowMs - known.readAt > ESTABLISHMENTS_TTL_MS) {
      const all = store.establishments();
      known = {
        readAt: nowMs,
        byId: new Map(all.map((e) => [e.id, e])),
        byTokens: new Map(all.map((e) => [tokenKey(e.appToken, e.accessToken), e])),
      };
    }
    return known;
  }

  /** Tokens, establishment and the request's moment; a Response when any check fails. */
  function guard(c: Context): Guarded | Response {
    const appToken = c.req.header('app-token');
    const accessToken = c.req.header('access-token');
    const ests = establishments();
    const owner =
      appToken !== undefined && accessToken !== undefined
        ? ests.byTokens.get(tokenKey(appToken, accessToken))
        : undefined;
    if (!owner) return fail(401, MESSAGES.unauthorized, {});

    const idText = c.req.param('id') ?? '';
    const id = /^[1-9]\d{0,15}$/.test(idText) ? Number(idText) : NaN;
    const est = Number.isSafeInteger(id) ? (ests.byId.get(id) ?? null) : null;
    if (!est) return fail(404, MESSAGES.establishmentNotFound);
    if (est.id !== owner.id) return fail(403, MESSAGES.forbidden);

    const header = c.req.header(NOW_HEADER);
    let nowMs: number;
    if (header === undefined || header.trim() === '') {
      nowMs = now().getTime();
    } else {
      const parsed = parseInstant(header);
      if (parsed === null) return fail(400, MESSAGES.badNow);
      nowMs = parsed;
    }
    return { est, nowMs };
  }
  return guard;
}

export function createRoutes(
  store: Store,
  opts: { now: () => Date; onError?: ((err: unknown) => void) | undefined },
): Hono {
  const app = new Hono();

  const guard = createGuard(store, opts.now);

  app.post(`${BASE}/fidelidade/pontuar`, async (c) => {
    const g = guard(c);
    if (g instanceof Response) return g;
    const read = await readJsonObject(c.req.raw);
    if (!read.ok) return read.response;
    const v = validatePontuar(read.body, {
      today: localDate(g.nowMs),
      checkPassword: (senha) => sameSecret(senha, g.est.senhaAtendente),
    });
    if (!v.ok) return invalid(firstError(v.errors), v.errors);
    const r = store.postPoints(g.est, v.value, g.nowMs);
    return ok(MESSAGES.posted, {
      id_cliente: r.id_cliente,
      id_ponto: r.id_ponto,
      saldo_atual: r.saldo_atual,
      saldo_carencia: r.saldo_carencia,
    });
  });

  // decisions.md, "Handing a reward over". Checks after the body: 422 fields and password →
  // 404 customer → 422 on id_premio when nothing of that reward is pending. An id_premio that
  // is no reward of this establishment is "never won" (422 with the same message): the answer
  // tells nothing about another establishment's rewards.
  app.post(`${BASE}/fidelidade/resgatar-premio`, async (c) => {
    const g = guard(c);
    if (g instanceof Response) return g;
    const read = await readJsonObject(c.req.raw);
    if (!read.ok) return read.response;
    const v = validateResgatar(read.body, {
      checkPassword: (senha) => sameSecret(senha, g.est.senhaAtendente),
    });
    if (!v.ok) return invalid(firstError(v.errors), v.errors);
    const r = store.handOverReward(g.est.id, v.value, g.nowMs);
    if (r.outcome === 'customer_not_found') return fail(404, MESSAGES.customerNotFound);
    if (r.outcome === 'none_pending') {
      return invalid(MESSAGES.nothingToHandOver, { id_premio: [MESSAGES.nothingToHandOver] });
    }
    return ok(MESSAGES.handedOver, {
      id_cliente: r.id_cliente,
      id_premio_cliente: r.id_premio_cliente,
    });
  });

  app.post(`${BASE}/clientes/cadastrar`, async (c) => {
    const g = guard(c);
    if (g instanceof Response) return g;
    const read = await readJsonObject(c.req.raw);
    if (!read.ok) return read.response;
    const v = validateCadastrar(read.body, localDate(g.nowMs));
    if (!v.ok) return invalid(firstError(v.errors), v.errors);
    const r = store.registerCustomer(g.est.id, v.value, g.nowMs);
    if (!r.created) return fail(409, MESSAGES.exists, { id_cliente: r.id });
    return ok(MESSAGES.created, store.customer(r.id, g.nowMs, { historico: false }), 201);
  });

  app.post(`${BASE}/clientes/buscar`, async (c) => {
    const g = guard(c);
    if (g instanceof Response) return g;
    const read = await readJsonObject(c.req.raw);
    if (!read.ok) return read.response;
    const v = validateBuscar(read.body);
    if (!v.ok) return invalid(firstError(v.errors), v.errors);
    const id = store.findCustomerId(g.est.id, v.value);
    const customer = id === null ? null : store.customer(id, g.nowMs, { historico: true });
    if (!customer) return fail(404, MESSAGES.customerNotFound);
    return ok(MESSAGES.found, customer);
  });

  app.get(`${BASE}/recompensas`, (c) => {
    const g = guard(c);
    if (g instanceof Response) return g;
    const url = new URL(c.req.url);
    // Like the live (Laravel/PHP) service, a repeated parameter counts by its last value.
    const v = validateRewardQuery((name) => url.searchParams.getAll(name).at(-1));
    if (!v.ok) return invalid(firstError(v.errors), v.errors);
    const q = v.value;
    const { total, records } = store.listRewards(g.est.id, q, g.nowMs);
    const lastPage = Math.max(1, Math.ceil(total / q.itens_por_pagina));
    const pageUrl = (page: number): string => {
      const params = new URLSearchParams(url.searchParams);
      params.set('page', String(page));
      return `${url.origin}${url.pathname}?${params.toString()}`;
    };
    const from = records.length > 0 ? (q.page - 1) * q.itens_por_pagina + 1 : null;
    return ok(MESSAGES.rewards, {
      current_page: q.page,
      data: records,
      first_page_url: pageUrl(1),
      last_page_url: pageUrl(lastPage),
      next_page_url: q.page < lastPage ? pageUrl(q.page + 1) : null,
      prev_page_url: q.page > 1 ? pageUrl(q.page - 1) : null,
      from,
      to: from === null ? null : from + records.length - 1,
      per_page: q.itens_por_pagina,
      last_page: lastPage,
      total,
    });
  });

  const methods: Record<string, string> = {
    [`${BASE}/fidelidade/pontuar`]: 'POST',
    [`${BASE}/fidelidade/resgatar-premio`]: 'POST',
    [`${BASE}/clientes/cadastrar`]: 'POST',
    [`${BASE}/clientes/buscar`]: 'POST',
    [`${BASE}/recompensas`]: 'GET, HEAD',
  };
  for (const [path, allow] of Object.entries(methods)) {
    app.all(path, () => {
      const res = fail(405, MESSAGES.methodNotAllowed);
      res.headers.set('allow', allow);
      return res;
    });
  }

  app.notFound(() => fail(404, MESSAGES.routeNotFound));

  app.onError((err) => {
    opts.onError?.(err);
    const code = (err as { code?: unknown }).code;
    if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') return fail(503, MESSAGES.busy);
    return fail(500, MESSAGES.internal);
  });

  return app;
}
