// pontuar: post points for a sale (also registers an unknown customer), through the app
// server's postings journal.
//
// Every sale has an id (a UUID) sent as `Idempotency-Key`: the same id again is the same sale,
// never a second posting, so the same request may be sent again safely. The server answers
// the service's own answer when it has one in time, otherwise 202 with the posting's state
// (a `lancamento`, contract/api/postings.ts), which `fetchLancamento` follows until it is
// settled.
//
// Sent once per call: no retries here. `networkMode: 'always'` is not needed: these are plain
// calls made by usePosting, never paused by React Query.
import * as z from 'zod/mini';
import { lazySchema } from '#contract/lazy-schema';
import type { QueryClient } from '@tanstack/react-query';
import { apiRequest, serverRequest } from '@/api/client';
import { Lancamento, PostedExtra } from '#contract/api/postings';
import { customerKeys, rewardKeys } from '@/api/keys';
import { PointsResult, type Customer } from '@/api/schemas';
import type { PostPointsBody } from '@/api/requests';

export const POST_POINTS_TIMEOUT_MS = 15_000;
/** The server holds a follow-up request at most this long while the posting is in flight. */
export const FOLLOW_WAIT_SECONDS = 8;

/** The service's answer and what our server adds to it (`resultado`: the points, if told). */
export type Posted = PointsResult & PostedExtra;

export type PostAnswer =
  { kind: 'posted'; result: Posted } | { kind: 'pending'; lancamento: Lancamento };

const PostData = lazySchema(() => z.union([Lancamento, PointsResult]));
/** What a server adds nothing to, or adds what this counter cannot read: no points told. */
const NOTHING_ADDED: PostedExtra = { resultado: { pontos: null } };

/**
 * Sends the sale once with its id. Throws ApiError when refused (the service's own refusal,
 * relayed) or when the answer is lost (then follow it with `fetchLancamento`). With `pdv` (the
 * server's id of a PDV sale) it posts that sale through the counter's PDV route instead: the
 * server takes the amount and basket from the PDV's sale, and answers exactly as `pontuar`.
 */
export async function postPoints(
  body: PostPointsBody,
  saleId: string,
  options: { signal?: AbortSignal; headers?: Record<string, string>; pdv?: string } = {},
): Promise<PostAnswer> {
  const request = {
    method: 'POST',
    schema: PostData,
    signal: options.signal,
    headers: { ...options.headers, 'Idempotency-Key': saleId },
    timeoutMs: POST_POINTS_TIMEOUT_MS,
  } as const;
  const data =
    options.pdv === undefined
      ? await apiRequest({ ...request, path: '/fidelidade/pontuar', body })
      : await serverRequest({
          ...request,
          path: `/api/integracao/balcao/vendas/${encodeURIComponent(options.pdv)}/lancar`,
          body: { cliente: body.cliente, senha_atendente: body.senha_atendente },
        });
  return 'chave' in data
    ? { kind: 'pending', lancamento: data as Lancamento }
    : {
        kind: 'posted',
        result: {
          ...(data as PointsResult),
          ...(PostedExtra.safeParse(data).data ?? NOTHING_ADDED),
        },
      };
}

/** The posting's state; the server waits up to `waitSeconds` for it to change. */
export function fetchLancamento(
  saleId: string,
  options: { waitSeconds?: number; signal?: AbortSignal } = {},
): Promise<Lancamento> {
  const wait = options.waitSeconds ?? FOLLOW_WAIT_SECONDS;
  return serverRequest({
    method: 'GET',
    path: `/api/lancamentos/${encodeURIComponent(saleId)}`,
    query: { esperar: wait > 0 ? wait : undefined },
    schema: Lancamento,
    signal: options.signal,
    timeoutMs: (wait + 7) * 1000,
  });
}

/**
 * A number of the service's answer that the journal kept for an entry (its
 * `resposta.corpo.data[field]`); null when the answer is not kept or says no number there.
 */
export function answeredNumber(l: Lancamento, field: string): number | null {
  const corpo = (l.resposta?.corpo ?? null) as { data?: Record<string, unknown> } | null;
  const v = corpo?.data?.[field];
  return typeof v === 'number' ? v : null;
}

/** Writes the new balances into every cached customer with that id (any lookup key). */
export function applyPointsResult(
  qc: QueryClient,
  result: Pick<PointsResult, 'id_cliente' | 'saldo_atual' | 'saldo_carencia'>,
): void {
  qc.setQueriesData<Customer | null>({ queryKey: customerKeys.details() }, (old) =>
    old && old.id_cliente === result.id_cliente
      ? {
          ...old,
          carteira: {
            ...old.carteira,
            saldo: result.saldo_atual,
            saldo_carencia: result.saldo_carencia,
          },
        }
      : old,
  );
}

/** After a posting landed: balances into the cache, then customers and rewards re-read. */
export function afterPosted(
  qc: QueryClient,
  result: Pick<PointsResult, 'id_cliente' | 'saldo_atual' | 'saldo_carencia'>,
): Promise<unknown> {
  applyPointsResult(qc, result);
  return Promise.all([
    qc.invalidateQueries({ queryKey: customerKeys.all }),
    qc.invalidateQueries({ queryKey: rewardKeys.all }),
  ]);
}
