/**
 * HTTP face of the postings journal, mounted before the generic proxy:
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
 */
import { randomUUID } from 'node:crypto';
import type { Context, Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { fail, messages } from './envelope';
import type { RequestLogVars } from './request-log';
import type { CustomerReading, JournalEntry } from '../../store';
import { postingMessages } from '../domain/journal/messages';
import type { PostingService } from '../domain/journal/service';

export const POSTING_PATH = '/api/v4/estabelecimentos/:id/fidelidade/pontuar';
export const LANCAMENTO_PATH = '/api/lancamentos/:key';
export const LEDGER_PATH = '/api/lancamentos';
export const CONTINGENCY_PATH = '/api/contingencia';
/** Longest period one ledger request covers. */
const LEDGER_MAX_SPAN_MS = 31 * 24 * 3_600_000 + 3_600_000;

/** The posting as the browser sees it (wire names in Portuguese, like the service's). */
export interface Lancamento {
  chave: string;
  estado: JournalEntry['state'];
  motivo: string | null;
  terminal: string | null;
  terminal_nome: string | null;
  criado_em: string;
  atualizado_em: string;
  valor_gasto: number;
  celular: string;
  nome: string | null;
  pontos: number | null;
  conferido: boolean;
  /** Kept while the service was down (contingency), delivered later. */
  guardado: boolean;
  resposta: { status: number; corpo: unknown } | null;
  cliente: {
    id_cliente: number | null;
    nome: string | null;
    saldo_atual: number;
    saldo_carencia: number;
    compras: number;
  } | null;
}

function customerOf(r: CustomerReading | null) {
  if (r === null || !r.exists) return null;
  return {
    id_cliente: r.id_cliente,
    nome: r.nome,
    saldo_atual: r.saldo,
    saldo_carencia: r.saldo_carencia,
    compras: r.compras,
  };
}

export function toLancamento(e: JournalEntry, terminalName: string | null = null): Lancamento {
  let corpo: unknown = null;
  if (e.answerBody !== null) {
    try {
      corpo = JSON.parse(e.answerBody);
    } catch {
      corpo = null;
    }
  }
  return {
    chave: e.key,
    estado: e.state,
    motivo: e.reason,
    terminal: e.terminalId,
    terminal_nome: terminalName,
    criado_em: new Date(e.createdAt).toISOString(),
    atualizado_em: new Date(e.updatedAt).toISOString(),
    valor_gasto: e.amount,
    celular: e.customerKey,
    nome: e.customerName,
    pontos: e.points,
    conferido: e.answerStatus === null && e.reading !== null,
    guardado: e.body !== null,
    resposta: e.answerStatus === null ? null : { status: e.answerStatus, corpo },
    cliente: customerOf(e.reading),
  };
}

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

/** A key another terminal's sale holds: the journal's own key-reuse refusal, nothing of that sale. */
function invalidKey(c: Context): Response {
  return c.json({ success: false, message: postingMessages.keyReused, data: {} }, 422);
}

function answer(c: Context, e: JournalEntry, status: ContentfulStatusCode): Response {
  c.header('Cache-Control', 'no-store');
  return c.json({ success: true, message: MESSAGES[e.state], data: toLancamento(e) }, status);
}

/** Who asks: the enrolled terminal and its role (null: no terminal identity, sees all). */
export interface Viewer {
  terminalId: string;
  role: 'caixa' | 'gerente' | 'quiosque';
}

/** The ledger's rule for one posting: a manager sees every terminal's, anyone else its own. */
export function mayView(viewer: Viewer | null, e: JournalEntry): boolean {
  return viewer === null || viewer.role === 'gerente' || e.terminalId === viewer.terminalId;
}

const NOT_FOUND = 'Lançamento não encontrado.';

export interface PostingRoutesOptions {
  service: PostingService;
  establishmentId: number;
  maxBodyBytes: number;
  /** The terminal of the request (null without terminal identity). */
  viewerOf?: (c: Context) => Viewer | null;
  /** Names of the terminals by id, for the ledger. */
  terminalNames?: () => Promise<ReadonlyMap<string, string>>;
}

type LedgerQuery =
  | { ok: true; from: number; to: number; terminal: string | null }
  | { ok: false; errors: Record<string, string[]> };

function readLedgerQuery(c: Context): LedgerQuery {
  const errors: Record<string, string[]> = {};
  const instant = (name: string): number => {
    const raw = c.req.query(name) ?? '';
    const t = /^\d{4}-\d{2}-\d{2}T/.test(raw) ? Date.parse(raw) : NaN;
    if (Number.isNaN(t))
      errors[name] = ['Informe data e hora ISO 8601 (ex.: 2026-11-23T03:00:00Z).'];
    return t;
  };
  const from = instant('de');
  const to = instant('ate');
  if (Object.keys(errors).length === 0) {
    if (to <= from) errors.ate = ['O fim do período deve ser depois do início.'];
    else if (to - from > LEDGER_MAX_SPAN_MS) errors.ate = ['O período vai até 31 dias.'];
  }
  const terminal = c.req.query('terminal')?.trim() || null;
  if (terminal !== null && terminal.length > 64) errors.terminal = ['Terminal inválido.'];
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, from, to, terminal };
}

export function mountPostingRoutes<V extends RequestLogVars & { noVerdict?: boolean }>(
  app: Hono<{ Variables: V }>,
  o: PostingRoutesOptions,
): void {
  const viewerOf = o.viewerOf ?? (() => null);
  const names = async () => (o.terminalNames ? o.terminalNames() : new Map<string, string>());

  app.post(POSTING_PATH, async (c) => {
    if (c.req.param('id') !== String(o.establishmentId)) return fail(c, 403, messages.forbidden);
    const text = await c.req.text();
    if (Buffer.byteLength(text) > o.maxBodyBytes) return fail(c, 413, messages.tooLarge);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return fail(c, 400, 'O corpo da requisição não é um JSON válido.');
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      return fail(c, 400, 'O corpo da requisição deve ser um objeto JSON.');
    }
    const result = await o.service.submit({
      key: c.req.header('idempotency-key'),
      terminalId: viewerOf(c)?.terminalId ?? null,
      requestId: c.req.header('x-request-id') ?? randomUUID(),
      body,
    });
    if (result.kind === 'full') {
      // Nothing journaled, nothing sent: `limite_contingencia` tells the counter so.
      return c.json(
        { success: false, message: result.message, data: { limite_contingencia: true } },
        503,
      );
    }
    if (result.kind === 'invalid') {
      // Refused here, before the service saw the password: no verdict on it.
      c.set('noVerdict', true);
      return c.json(
        {
          success: false,
          message: result.message,
          data: {},
          ...(result.errors ? { errors: result.errors } : {}),
        },
        422,
      );
    }
    if (result.kind === 'refused') {
      // The service refused to read the customer: its own answer, nothing journaled, and no
      // verdict on the password (it was never sent).
      c.set('noVerdict', true);
      return c.body(result.body, result.status as ContentfulStatusCode, {
        'content-type': 'application/json',
        'cache-control': 'no-store',
      });
    }
    const e = result.entry;
    // Another terminal's key: that sale is not this one's to read (nor to post again).
    if (!mayView(viewerOf(c), e)) {
      c.set('noVerdict', true);
      return invalidKey(c);
    }
    if (
      (e.state === 'lançado' || e.state === 'recusado') &&
      e.answerStatus !== null &&
      e.answerBody !== null
    ) {
      // The upstream's own answer, as the plain proxy would have relayed it.
      return c.body(e.answerBody, e.answerStatus as ContentfulStatusCode, {
        'content-type': 'application/json',
        'cache-control': 'no-store',
      });
    }
    return answer(c, e, 202);
  });

  app.get(LEDGER_PATH, async (c) => {
    const viewer = viewerOf(c);
    if (viewer?.role === 'quiosque') return fail(c, 403, messages.forbidden);
    const q = readLedgerQuery(c);
    if (!q.ok) {
      return c.json(
        { success: false, message: 'Período inválido.', data: {}, errors: q.errors },
        422,
      );
    }
    let terminal = q.terminal;
    if (viewer !== null && viewer.role !== 'gerente') {
      if (terminal !== null && terminal !== viewer.terminalId) {
        return fail(c, 403, 'Este terminal vê só os próprios lançamentos.');
      }
      terminal = viewer.terminalId;
    }
    const [{ entries, truncated }, byId] = await Promise.all([
      o.service.ledger({ terminalId: terminal, from: q.from, to: q.to }),
      names(),
    ]);
    c.header('Cache-Control', 'no-store');
    return c.json({
      success: true,
      message: 'Lançamentos do período.',
      data: {
        lancamentos: entries.map((e) =>
          toLancamento(e, e.terminalId === null ? null : (byId.get(e.terminalId) ?? null)),
        ),
        truncado: truncated,
        terminais:
          viewer === null || viewer.role === 'gerente'
            ? [...byId].map(([id, nome]) => ({ id, nome }))
            : [],
      },
    });
  });

  app.get(CONTINGENCY_PATH, async (c) => {
    if (viewerOf(c)?.role === 'quiosque') return fail(c, 403, messages.forbidden);
    const s = await o.service.status();
    c.header('Cache-Control', 'no-store');
    return c.json({
      success: true,
      message: s.open ? 'Serviço indisponível — modo contingência.' : 'Serviço disponível.',
      data: {
        contingencia: s.open,
        desde: s.openedAt === null ? null : new Date(s.openedAt).toISOString(),
        aguardando: s.waiting,
        atencao: s.attention,
        mais_antiga: s.oldestWaitingAt === null ? null : new Date(s.oldestWaitingAt).toISOString(),
        limite_aguardando: s.maxWaiting,
        limite_horas: Math.round((s.maxWaitMs / 3_600_000) * 10) / 10,
        aceita: s.accepting,
      },
    });
  });

  const decide = (action: 'reenviar' | 'descartar') =>
    app.post(`${LANCAMENTO_PATH}/${action}`, async (c) => {
      const viewer = viewerOf(c);
      if (viewer !== null && viewer.role !== 'gerente') {
        return fail(c, 403, 'Só um gerente reenvia ou descarta uma venda guardada.');
      }
      let password: string | null = null;
      if (action === 'reenviar') {
        let body: unknown = null;
        try {
          body = await c.req.json();
        } catch {
          body = null;
        }
        const senha = (body as { senha_atendente?: unknown } | null)?.senha_atendente;
        if (typeof senha !== 'string' || senha.trim() === '' || senha.length > 64) {
          return c.json(
            {
              success: false,
              message: 'Informe a senha do atendente.',
              data: {},
              errors: { senha_atendente: ['Informe a senha do atendente.'] },
            },
            422,
          );
        }
        password = senha;
      }
      const key = c.req.param('key');
      const current = await o.service.get(key);
      if (
        current === null ||
        current.establishmentId !== o.establishmentId ||
        !mayView(viewer, current)
      ) {
        return fail(c, 404, NOT_FOUND);
      }
      const entry = await o.service.resolve(
        key,
        password === null ? { discard: true } : { resend: { password } },
      );
      if (entry === null) {
        return fail(c, 409, 'Esta venda não precisa mais de atenção (outro gerente já decidiu).');
      }
      return answer(c, entry, 200);
    });
  decide('reenviar');
  decide('descartar');

  app.get(LANCAMENTO_PATH, async (c) => {
    const viewer = viewerOf(c);
    const key = c.req.param('key');
    const visible = (e: JournalEntry | null): e is JournalEntry =>
      e !== null && e.establishmentId === o.establishmentId && mayView(viewer, e);
    const seconds = Number(c.req.query('esperar') ?? '0');
    const waitMs = Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 0;
    let entry = await o.service.get(key);
    // Another terminal's posting answers at once, as an unknown key would after its wait.
    if (entry !== null && !visible(entry)) return fail(c, 404, NOT_FOUND);
    if (waitMs > 0) entry = await o.service.wait(key, waitMs);
    if (!visible(entry)) return fail(c, 404, NOT_FOUND);
    return answer(c, entry, 200);
  });
}
