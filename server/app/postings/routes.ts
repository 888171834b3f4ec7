/**
 * HTTP face of the postings journal, mounted before the generic proxy:
 *
 * - `POST /api/v4/estabelecimentos/{id}/fidelidade/pontuar` with `Idempotency-Key`: journals
 *   and sends (or finds the same sale); answers the upstream's own answer once there is one,
 *   otherwise 202 with the posting's state (`lancamento`), to be followed with
 * - `GET /api/lancamentos/{key}[?esperar=segundos]`: the posting's state (a bounded long poll
 *   while it is `enviando` / `verificando`).
 */
import { randomUUID } from 'node:crypto';
import type { Context, Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { fail, messages } from '../envelope';
import type { RequestLogVars } from '../request-log';
import type { CustomerReading, JournalEntry } from '../../store';
import type { PostingService } from './postings';

export const POSTING_PATH = '/api/v4/estabelecimentos/:id/fidelidade/pontuar';
export const LANCAMENTO_PATH = '/api/lancamentos/:key';

/** The posting as the browser sees it (wire names in Portuguese, like the service's). */
export interface Lancamento {
  chave: string;
  estado: JournalEntry['state'];
  motivo: string | null;
  terminal: string | null;
  criado_em: string;
  atualizado_em: string;
  valor_gasto: number;
  celular: string;
  nome: string | null;
  pontos: number | null;
  conferido: boolean;
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

export function toLancamento(e: JournalEntry): Lancamento {
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
    criado_em: new Date(e.createdAt).toISOString(),
    atualizado_em: new Date(e.updatedAt).toISOString(),
    valor_gasto: e.amount,
    celular: e.customerKey,
    nome: e.customerName,
    pontos: e.points,
    conferido: e.answerStatus === null && e.reading !== null,
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
};

function answer(c: Context, e: JournalEntry, status: ContentfulStatusCode): Response {
  c.header('Cache-Control', 'no-store');
  return c.json({ success: true, message: MESSAGES[e.state], data: toLancamento(e) }, status);
}

export interface PostingRoutesOptions {
  service: PostingService;
  establishmentId: number;
  maxBodyBytes: number;
  /** The terminal of the request, once terminals are enrolled (null until then). */
  terminalOf?: (c: Context) => string | null;
}

export function mountPostingRoutes(
  app: Hono<{ Variables: RequestLogVars }>,
  o: PostingRoutesOptions,
): void {
  const terminalOf = o.terminalOf ?? (() => null);

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
      terminalId: terminalOf(c),
      requestId: c.req.header('x-request-id') ?? randomUUID(),
      body,
    });
    if (result.kind === 'invalid') {
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
    const e = result.entry;
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

  app.get(LANCAMENTO_PATH, async (c) => {
    const key = c.req.param('key');
    const seconds = Number(c.req.query('esperar') ?? '0');
    const waitMs = Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 0;
    const entry = waitMs > 0 ? await o.service.wait(key, waitMs) : await o.service.get(key);
    if (entry === null || entry.establishmentId !== o.establishmentId) {
      return fail(c, 404, 'Lançamento não encontrado.');
    }
    return answer(c, entry, 200);
  });
}
