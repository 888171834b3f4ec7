/**
 * The "Terminais" screen's routes, a manager's terminal only (a cashier's, a kiosk's: 403 on
 * every route); a store's `gerente` reaches its own store's terminals only (another store's
 * id, or terminal: 403), the chain's `rede` every store the deployment serves:
 *
 * - `GET /api/terminais?loja`: the store's terminals, the stores it may manage, the roles it
 *   may create;
 * - `POST /api/terminais` `{ nome, papel, loja? }` (Idempotency-Key: the same request again
 *   gives the same code): a new terminal and its one-time enrollment code;
 * - `POST /api/terminais/{id}/revogar`: refused from its next request on (never itself);
 * - `PUT /api/terminais/{id}/quiosque` `{ quiosque }`: a counter's customer display.
 *
 * The changes are domain/access/terminal-admin.ts's, the same `npm run terminal` makes, each
 * audited in the terminal's store.
 */
import { Hono, type Context } from 'hono';
import {
  CreateTerminalRequest,
  PairRequest,
  TERMINAIS_PATH,
  TerminalListQuery,
} from '#contract/api/terminais';
import type { Manager, TerminalAdminDeps } from '../domain/access/terminal-admin';
import {
  createEnrollment,
  creatableBy,
  inStore,
  managesTerminals,
  pairDisplayAs,
  revokeAs,
  servedStores,
  storeAllowed,
  storeOfTerminal,
  storeTerminals,
  terminalById,
  terminalItem,
} from '../domain/access/terminal-admin';
import { actorOf } from './actor';
import type { Access, AccessVars } from './access';
import { fail, messages } from './envelope';
import { invalid, validate } from './validate';

export { TERMINAIS_PATH };

export interface TerminaisRoutesOptions {
  admin: TerminalAdminDeps;
  /** This app's store (a gerente's own). */
  establishmentId: number;
  /** Its name (the selector's), and the default store's when this is it. */
  establishmentName: string | null;
  /** A chain's stores with their names (the rede's selector); absent: read from the store. */
  chainStores?: (() => Promise<{ id: number; nome: string | null }[]>) | null;
}

/** An idempotency key as the postings take it: a UUID. */
const KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ID = ':id{[1-9][0-9]{0,11}}';

const refusals = {
  role: 'Só um gerente ou a rede gerenciam terminais.',
  store: messages.forbidden,
  notFound: 'Terminal não encontrado.',
  self: 'Este terminal não pode revogar a si mesmo.',
  rede: 'Só a rede pode criar ou revogar um terminal da rede.',
} as const;

function managerOf(c: Context, establishmentId: number): Manager {
  const t = c.get('terminal') as NonNullable<AccessVars['terminal']>;
  return { id: t.id, role: t.role, establishmentId };
}

export function terminaisRoutes(o: TerminaisRoutesOptions): Hono<{ Variables: AccessVars }> {
  const app = new Hono<{ Variables: AccessVars }>();
  const { admin } = o;
  const manager = (c: Context) => managerOf(c, o.establishmentId);
  app.use('*', async (c, next) => {
    const role = (c.get('terminal') as AccessVars['terminal'])?.role ?? null;
    if (role === null || !managesTerminals(role)) return fail(c, 403, refusals.role);
    return next();
  });

  /** Terminal `:id` when the asking manager may change it; else the refusal. */
  const target = async (c: Context) => {
    const t = await terminalById(admin.store, Number(c.req.param('id')));
    if (t === null) return fail(c, 404, refusals.notFound);
    const store = storeOfTerminal(admin, t) ?? o.establishmentId;
    const m = manager(c);
    if (!(await storeAllowed(admin, m, store)) || !inStore(admin, t, store)) {
      return fail(c, 403, refusals.store);
    }
    if (t.role === 'rede' && m.role !== 'rede') return fail(c, 403, refusals.rede);
    return t;
  };

  app.get(
    '/',
    validate('query', TerminalListQuery, { message: 'Filtros inválidos.' }),
    async (c) => {
      const m = manager(c);
      const loja = c.req.valid('query').loja ?? o.establishmentId;
      if (!(await storeAllowed(admin, m, loja))) return fail(c, 403, refusals.store);
      const own = {
        id: o.establishmentId,
        nome: o.establishmentName ?? `Loja ${o.establishmentId}`,
      };
      const named = (s: { id: number; nome: string | null }) => ({
        id: s.id,
        nome: s.nome ?? `Loja ${s.id}`,
      });
      const lojas =
        m.role !== 'rede'
          ? [own]
          : o.chainStores
            ? (await o.chainStores()).map(named)
            : await servedStores(admin, {
                defaultName: admin.defaultId === o.establishmentId ? own.nome : null,
              });
      const itens = await storeTerminals(admin, loja, m.id);
      const data = { loja, lojas, papeis: creatableBy(m.role), itens };
      return c.json({ success: true, message: 'Terminais da loja.', data });
    },
  );

  app.post('/', validate('json', CreateTerminalRequest), async (c) => {
    const body = c.req.valid('json');
    const m = manager(c);
    const key = c.req.header('idempotency-key') ?? null;
    if (key !== null && !KEY.test(key)) {
      return invalid(c, { 'Idempotency-Key': ['O identificador da requisição deve ser um UUID.'] });
    }
    const loja = body.loja ?? o.establishmentId;
    if (!(await storeAllowed(admin, m, loja))) return fail(c, 403, refusals.store);
    if (!creatableBy(m.role).includes(body.papel)) {
      return c.json(
        {
          success: false,
          message: refusals.rede,
          errors: { papel: [refusals.rede] },
          data: {},
        },
        403,
      );
    }
    const made = await createEnrollment(admin, actorOf(c), {
      name: body.nome,
      role: body.papel,
      establishmentId: loja,
      key,
    });
    if (made.kind === 'key-reused') {
      return fail(c, 409, 'Este identificador de requisição já foi usado para outro terminal.');
    }
    const terminal = await terminalItem(admin, made.terminal.id, m.id);
    const data = { terminal, codigo: made.code, expira_em: new Date(made.expiresAt).toISOString() };
    const message = `Terminal ${made.terminal.name} criado. Código de registro: ${made.code}.`;
    return c.json({ success: true, message, data }, made.kind === 'created' ? 201 : 200);
  });

  app.post(`/${ID}/revogar`, async (c) => {
    const t = await target(c);
    if (t instanceof Response) return t;
    if (t.id === manager(c).id) return fail(c, 409, refusals.self);
    const outcome = await revokeAs(admin, actorOf(c), t.id);
    if (outcome === 'not-found') return fail(c, 404, refusals.notFound);
    const terminal = await terminalItem(admin, t.id, manager(c).id);
    const message = `Terminal ${t.name} revogado: a próxima requisição dele será recusada.`;
    return c.json({ success: true, message, data: { terminal } });
  });

  app.put(`/${ID}/quiosque`, validate('json', PairRequest), async (c) => {
    const t = await target(c);
    if (t instanceof Response) return t;
    const { quiosque } = c.req.valid('json');
    // Another store's kiosk named in the body: refused as another store's terminal is.
    const kiosk = quiosque === null ? null : await terminalById(admin.store, quiosque);
    if (kiosk !== null && !inStore(admin, kiosk, storeOfTerminal(admin, t) ?? o.establishmentId)) {
      return fail(c, 403, refusals.store);
    }
    const outcome = await pairDisplayAs(admin, actorOf(c), t.id, quiosque);
    if (outcome === 'no-counter') {
      return invalid(c, { caixa: ['Este terminal não é um caixa ativo (caixa ou gerente).'] });
    }
    if (outcome === 'no-kiosk' || outcome === 'other-store') {
      return invalid(c, { quiosque: ['Escolha um quiosque ativo desta loja.'] });
    }
    const terminal = await terminalItem(admin, t.id, manager(c).id);
    const message =
      quiosque === null
        ? `${t.name}: as vendas do PDV aguardam no caixa.`
        : `${t.name}: cada venda do PDV vai direto ao quiosque nº ${quiosque}.`;
    return c.json({ success: true, message, data: { terminal } });
  });

  app.all('/', (c) => methodNotAllowed(c, 'GET, POST'));
  return app;
}

function methodNotAllowed(c: Context, allow: string): Response {
  c.header('Allow', allow);
  return fail(c, 405, messages.methodNotAllowed);
}

/** Mounts the routes behind the access checks every manager's route has. */
export function mountTerminais(
  app: Hono<{ Variables: AccessVars }>,
  access: Access,
  options: TerminaisRoutesOptions,
): void {
  for (const path of [TERMINAIS_PATH, `${TERMINAIS_PATH}/*`]) {
    app.use(path, access.sameOriginJson, access.requireTerminal, access.rateLimit);
  }
  app.route(TERMINAIS_PATH, terminaisRoutes(options));
}
