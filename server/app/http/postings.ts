/**
 * HTTP face of the postings journal, a sub-app mounted (`app.route('/', postingRoutes(…))`)
 * after the access checks and before the generic proxy:
 *
 * - `POST /api/v4/estabelecimentos/{id}/fidelidade/pontuar` with `Idempotency-Key`: journals
 *   and sends (or finds the same sale); answers the upstream's own answer once there is one,
 *   otherwise 202 with the posting's state (`lancamento`), to be followed with
 * - `GET /api/lancamentos/{key}[?esperar=segundos]`: the posting's state (a bounded long poll
 *   while it is `enviando` / `verificando`); a cashier's own postings only (another terminal's
 *   key is a 404, as if it did not exist), a manager's any;
 * - `GET /api/lancamentos?de=ISO&ate=ISO[&terminal=id]`: the shift ledger of a period (a
 *   cashier sees its own terminal's postings; a manager every terminal's, or one);
 * - `GET /api/contingencia`: whether the service is reachable, how many kept sales wait and
 *   how many need a manager's attention;
 * - `POST /api/lancamentos/{key}/reenviar` (`{ "senha_atendente": "…" }`) and
 *   `POST /api/lancamentos/{key}/descartar`: a manager's decision on a kept sale the service
 *   refused (`precisa de atenção`).
 *
 * Requests are checked and answers typed with the contract (contract/api/postings.ts);
 * the answers are shaped by the journal (domain/journal/answers.ts).
 */
import { randomUUID } from 'node:crypto';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import {
  LancamentoQuery,
  LedgerQuery,
  ResendBody,
  type ContingencyFullWire,
} from '#contract/api/postings';
import type { AuditTrail } from '../domain/audit';
import { actorOf } from './actor';
import { fail, messages } from './envelope';
import type { RequestLogVars } from './request-log';
import { validate } from './validate';
import { contingencyData, ledgerData, postedExtra, toLancamento } from '../domain/journal/answers';
import { postingMessages } from '../domain/journal/messages';
import type { JournalEntry, PostingService } from '../domain/journal/service';
import type { SubmitResult } from '../domain/journal/submit';
import type { HandoverResult } from '../domain/journal/service';
import { namesAnotherEstablishment } from '../domain/forward';
import { readsAsManager } from '../domain/operations';
import type { Role } from '../domain/operations';

const POSTING_PATH = '/api/v4/estabelecimentos/:id/fidelidade/pontuar';
const HANDOVER_PATH = '/api/v4/estabelecimentos/:id/fidelidade/resgatar-premio';
const LANCAMENTO_PATH = '/api/lancamentos/:key';
const LEDGER_PATH = '/api/lancamentos';
const CONTINGENCY_PATH = '/api/contingencia';

const MESSAGES: Record<JournalEntry['state'], string> = {
  enviando: 'Lançamento em andamento.',
  verificando: 'Conferindo o lançamento.',
  desconhecido: 'Ainda não se sabe se o lançamento foi registrado.',
  lançado: 'Pontos lançados.',
  recusado: 'Não lançado.',
  'aguardando envio': 'Guardado: será lançado quando o serviço voltar.',
  'precisa de atenção': 'Recusado pelo serviço na entrega: precisa de um gerente.',
  descartado: 'Descartado por um gerente.',
};

/** A hand-over's states as the cashier reads them. */
const HANDOVER_MESSAGES: Partial<Record<JournalEntry['state'], string>> = {
  enviando: 'Entrega em andamento.',
  verificando: 'Conferindo a entrega.',
  desconhecido: 'Ainda não se sabe se o prêmio foi entregue.',
  lançado: 'Prêmio entregue.',
  recusado: 'Prêmio não entregue.',
};

const NOT_FOUND = 'Lançamento não encontrado.';

/** Who asks: the enrolled terminal and its role (null: no terminal identity, sees all). */
export interface Viewer {
  terminalId: string;
  role: Role;
}

/** The ledger's rule for one posting: a manager sees every terminal's, anyone else its own. */
function mayView(viewer: Viewer | null, e: JournalEntry): boolean {
  return viewer === null || readsAsManager(viewer.role) || e.terminalId === viewer.terminalId;
}

export interface PostingRoutesOptions {
  service: PostingService;
  establishmentId: number;
  maxBodyBytes: number;
  /** The terminal of the request (null without terminal identity). */
  viewerOf?: (c: Context) => Viewer | null;
  /** Names of the terminals by id, for the ledger. */
  terminalNames?: () => Promise<ReadonlyMap<string, string>>;
  /** Where hand-overs and a manager's decisions on kept sales are recorded. */
  audit?: AuditTrail | null;
}

type PostingVars = RequestLogVars & { noVerdict?: boolean };

/** The request's id as the request log wrote it (echoed as `x-request-id`). */
const requestIdOf = (c: Context): string =>
  (c.get('requestId') as string | undefined) ?? c.req.header('x-request-id') ?? randomUUID();

/** A key another terminal's sale holds: the journal's own key-reuse refusal, nothing of that sale. */
function invalidKey(c: Context): Response {
  return c.json({ success: false, message: postingMessages.keyReused, data: {} }, 422);
}

function answer(c: Context, e: JournalEntry, status: ContentfulStatusCode): Response {
  c.header('Cache-Control', 'no-store');
  const message = (e.kind === 'premio' ? HANDOVER_MESSAGES[e.state] : null) ?? MESSAGES[e.state];
  return c.json({ success: true, message, data: toLancamento(e) }, status);
}

/** The upstream's own answer, as the plain proxy would have relayed it. */
function relayed(c: Context, body: string, status: number): Response {
  return c.body(body, status as ContentfulStatusCode, {
    'content-type': 'application/json',
    'cache-control': 'no-store',
  });
}

/**
 * A posting the service answered: its answer, with what the journal adds to its `data`
 * (`resultado`: the points, when the answer tells them), so the counter draws the result from
 * this one answer.
 */
function posted(c: Context, e: JournalEntry, body: string, status: number): Response {
  let answer: { data?: unknown } | null;
  try {
    answer = JSON.parse(body) as { data?: unknown } | null;
  } catch {
    return relayed(c, body, status);
  }
  const data = answer?.data;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return relayed(c, body, status);
  }
  const extra = postedExtra(e, data as Record<string, unknown>);
  c.header('Cache-Control', 'no-store');
  return c.json({ ...answer, data: { ...data, ...extra } }, status as ContentfulStatusCode);
}

/** The request's body as a JSON object, or the answer refusing it. */
async function jsonObject(c: Context, maxBytes: number): Promise<object | Response> {
  const text = await c.req.text();
  if (Buffer.byteLength(text) > maxBytes) return fail(c, 413, messages.tooLarge);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return fail(c, 400, 'O corpo da requisição não é um JSON válido.');
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return fail(c, 400, 'O corpo da requisição deve ser um objeto JSON.');
  }
  return body;
}

/** The answer to `pontuar` (and a PDV sale the counter posts): what the journal made of it. */
export function submitted(
  c: Context<{ Variables: PostingVars }>,
  result: SubmitResult,
  viewer: Viewer | null,
): Response {
  if (result.kind === 'full') {
    // Nothing journaled, nothing sent: `limite_contingencia` tells the counter so.
    const data: ContingencyFullWire = { limite_contingencia: true };
    return c.json({ success: false, message: result.message, data }, 503);
  }
  // The journal's own refusals and the service's refusal of the customer's read: nothing was
  // journaled and the password was never sent, so no verdict on it.
  if (result.kind === 'invalid') {
    c.set('noVerdict', true);
    const errors = result.errors ? { errors: result.errors } : {};
    return c.json({ success: false, message: result.message, data: {}, ...errors }, 422);
  }
  if (result.kind === 'refused') {
    c.set('noVerdict', true);
    return relayed(c, result.body, result.status);
  }
  const e = result.entry;
  // Another terminal's key: that sale is not this one's to read (nor to post again).
  if (!mayView(viewer, e)) {
    c.set('noVerdict', true);
    return invalidKey(c);
  }
  const settled = e.state === 'lançado' || e.state === 'recusado';
  if (settled && e.answerStatus !== null && e.answerBody !== null) {
    return e.state === 'lançado' && e.kind === 'pontos'
      ? posted(c, e, e.answerBody, e.answerStatus)
      : relayed(c, e.answerBody, e.answerStatus);
  }
  return answer(c, e, 202);
}

/** The answer to `resgatar-premio`: what the journal made of the hand-over. */
function handedOver(
  c: Context<{ Variables: PostingVars }>,
  result: HandoverResult,
  viewer: Viewer | null,
): Response {
  if (result.kind === 'unsupported') {
    c.set('noVerdict', true);
    const data = { entrega_indisponivel: true };
    return c.json({ success: false, message: result.message, data }, result.status);
  }
  if (result.kind === 'unavailable') {
    c.set('noVerdict', true);
    return c.json({ success: false, message: result.message, data: {} }, 503);
  }
  // The journal's refusals, the service's refusal of the customer's read, and the entry.
  return submitted(c, result, viewer);
}

/** A hand-over this request journaled, in the audit trail (a replay of its key is not). */
async function recordHandover(c: Context, result: HandoverResult, audit?: AuditTrail | null) {
  if (result.kind !== 'entry' || result.created !== true) return;
  const e = result.entry;
  await audit?.record(actorOf(c), 'premio.entrega', {
    chave: e.key,
    id_cliente: e.reward?.id_cliente ?? null,
    id_premio: e.reward?.id_premio ?? null,
    premio: e.reward?.nome ?? null,
    estado: e.state,
  });
}

export function postingRoutes(options: PostingRoutesOptions): Hono<{ Variables: PostingVars }> {
  const { service, establishmentId } = options;
  const viewerOf = options.viewerOf ?? (() => null);
  const names = async () =>
    options.terminalNames ? options.terminalNames() : new Map<string, string>();
  const app = new Hono<{ Variables: PostingVars }>();

  /** Any terminal that may post (never the kiosk). */
  const staffOnly: MiddlewareHandler = async (c, next) => {
    if (viewerOf(c)?.role === 'quiosque') return fail(c, 403, messages.forbidden);
    return next();
  };
  /** A manager's terminal (or no terminal identity). */
  const managerOnly: MiddlewareHandler = async (c, next) => {
    const viewer = viewerOf(c);
    if (viewer !== null && viewer.role !== 'gerente') {
      return fail(c, 403, 'Só um gerente reenvia ou descarta uma venda guardada.');
    }
    return next();
  };

  app.post(POSTING_PATH, async (c) => {
    if (c.req.param('id') !== String(establishmentId)) return fail(c, 403, messages.forbidden);
    const body = await jsonObject(c, options.maxBodyBytes);
    if (body instanceof Response) return body;
    if (namesAnotherEstablishment(body, establishmentId)) return fail(c, 403, messages.forbidden);
    const viewer = viewerOf(c);
    const result = await service.submit({
      key: c.req.header('idempotency-key'),
      terminalId: viewer?.terminalId ?? null,
      requestId: requestIdOf(c),
      body,
      // A counter's browser refreshes the customer after the answer (see lookups.ts).
      counter: viewer?.role === 'caixa' || viewer?.role === 'gerente',
    });
    return submitted(c, result, viewer);
  });

  app.post(HANDOVER_PATH, async (c) => {
    if (c.req.param('id') !== String(establishmentId)) return fail(c, 403, messages.forbidden);
    const viewer = viewerOf(c);
    if (viewer?.role === 'quiosque') return fail(c, 403, messages.forbidden);
    const body = await jsonObject(c, options.maxBodyBytes);
    if (body instanceof Response) return body;
    if (namesAnotherEstablishment(body, establishmentId)) return fail(c, 403, messages.forbidden);
    const result = await service.handOver({
      key: c.req.header('idempotency-key'),
      terminalId: viewer?.terminalId ?? null,
      requestId: requestIdOf(c),
      body,
    });
    await recordHandover(c, result, options.audit);
    return handedOver(c, result, viewer);
  });

  app.get(
    LEDGER_PATH,
    staffOnly,
    validate('query', LedgerQuery, { message: 'Período inválido.' }),
    async (c) => {
      const viewer = viewerOf(c);
      const q = c.req.valid('query');
      let terminal = q.terminal;
      if (viewer !== null && !readsAsManager(viewer.role)) {
        if (terminal !== null && terminal !== viewer.terminalId) {
          return fail(c, 403, 'Este terminal vê só os próprios lançamentos.');
        }
        terminal = viewer.terminalId;
      }
      const [ledger, byId] = await Promise.all([
        service.ledger({ terminalId: terminal, from: q.de, to: q.ate }),
        names(),
      ]);
      c.header('Cache-Control', 'no-store');
      return c.json({
        success: true,
        message: 'Lançamentos do período.',
        data: ledgerData(ledger, byId, viewer === null || readsAsManager(viewer.role)),
      });
    },
  );

  app.get(CONTINGENCY_PATH, staffOnly, async (c) => {
    const s = await service.status();
    c.header('Cache-Control', 'no-store');
    return c.json({
      success: true,
      message: s.open ? 'Serviço indisponível — modo contingência.' : 'Serviço disponível.',
      data: contingencyData(s),
    });
  });

  /** A manager's decision on a kept sale of this establishment that the viewer may see. */
  const decide = async (c: Context, password: string | null): Promise<Response> => {
    const key = c.req.param('key')!;
    const current = await service.get(key);
    if (
      current === null ||
      current.establishmentId !== establishmentId ||
      !mayView(viewerOf(c), current)
    ) {
      return fail(c, 404, NOT_FOUND);
    }
    const entry = await service.resolve(
      key,
      password === null ? { discard: true } : { resend: { password } },
    );
    if (entry === null) {
      return fail(c, 409, 'Esta venda não precisa mais de atenção (outro gerente já decidiu).');
    }
    await options.audit?.record(
      actorOf(c),
      password === null ? 'venda.descartada' : 'venda.reenviada',
      {
        chave: entry.key,
        valor_gasto: entry.amount,
        terminal_da_venda: entry.terminalId,
        criada_em: new Date(entry.createdAt).toISOString(),
      },
    );
    return answer(c, entry, 200);
  };
  app.post(
    `${LANCAMENTO_PATH}/reenviar`,
    managerOnly,
    validate('json', ResendBody, { nonObject: 'empty' }),
    (c) => decide(c, c.req.valid('json').senha_atendente),
  );
  app.post(`${LANCAMENTO_PATH}/descartar`, managerOnly, (c) => decide(c, null));

  app.get(LANCAMENTO_PATH, validate('query', LancamentoQuery), async (c) => {
    const viewer = viewerOf(c);
    const key = c.req.param('key');
    const visible = (e: JournalEntry | null): e is JournalEntry =>
      e !== null && e.establishmentId === establishmentId && mayView(viewer, e);
    const seconds = c.req.valid('query').esperar;
    const waitMs = seconds > 0 ? seconds * 1000 : 0;
    let entry = await service.get(key);
    // Another terminal's posting answers at once, as an unknown key would after its wait.
    if (entry !== null && !visible(entry)) return fail(c, 404, NOT_FOUND);
    if (waitMs > 0) entry = await service.wait(key, waitMs);
    if (!visible(entry)) return fail(c, 404, NOT_FOUND);
    return answer(c, entry, 200);
  });

  return app;
}
