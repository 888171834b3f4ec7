// resgatar-premio: hand a won reward over at the counter, through the app server's postings
// journal, exactly as a sale is posted (api/post-points.ts): every hand-over has an id (a
// UUID) sent as `Idempotency-Key`, so the same request again is the same hand-over, never a
// second one; the server answers the service's own answer when it has one in time, otherwise
// 202 with the journal's entry (a `lancamento`), followed with `fetchLancamento`.
//
// Sent once per call: no retries here.
import * as z from 'zod/mini';
import type { QueryClient } from '@tanstack/react-query';
import { lazySchema } from '#contract/lazy-schema';
import { apiRequest } from '@/api/client';
import { customerKeys, rewardKeys } from '@/api/keys';
import { HandOverResult, type Customer, type RewardPage, type RewardRecord } from '@/api/schemas';
import { rewardCounterKey } from '#contract/wire';
import type { HandOverBody } from '@/api/requests';
import { pendingRewardsQuery } from './pending-rewards';
import { Lancamento } from '#contract/api/postings';
import { POST_POINTS_TIMEOUT_MS } from './post-points';

export type HandOverAnswer =
  { kind: 'done'; result: HandOverResult } | { kind: 'pending'; lancamento: Lancamento };

const HandOverData = lazySchema(() => z.union([Lancamento, HandOverResult]));

/**
 * Sends the hand-over once with its id. Throws ApiError when refused (the service's refusal,
 * relayed, or our server's) or when the answer is lost (then follow it with `fetchLancamento`).
 */
export async function handOver(
  body: HandOverBody,
  key: string,
  options: { signal?: AbortSignal } = {},
): Promise<HandOverAnswer> {
  const data = await apiRequest({
    method: 'POST',
    path: '/fidelidade/resgatar-premio',
    body,
    schema: HandOverData,
    signal: options.signal,
    headers: { 'Idempotency-Key': key },
    timeoutMs: POST_POINTS_TIMEOUT_MS,
  });
  return 'chave' in data
    ? { kind: 'pending', lancamento: data as Lancamento }
    : { kind: 'done', result: data as HandOverResult };
}

/** 404/405 with `entrega_indisponivel`: this service does not take hand-overs at all. */
export function isHandOverUnsupported(error: { status: number | null; data: unknown }): boolean {
  const data = error.data as { entrega_indisponivel?: unknown } | null;
  return (error.status === 404 || error.status === 405) && data?.entrega_indisponivel === true;
}

/**
 * After a hand-over: the record handed over (`handed`: the one the service names when known,
 * else the one the cashier chose) leaves the customer's pending list and counters at once;
 * then the customers and every rewards list are read again. Null (found handed over already,
 * by another terminal): only read again.
 */
export function afterHandOver(
  qc: QueryClient,
  handed: Pick<RewardRecord, 'id_cliente' | 'id_premio_cliente' | 'categoria_premio'> | null,
): Promise<unknown> {
  if (handed) {
    const pending = rewardCounterKey('pendente_resgate', handed.categoria_premio);
    const redeemed = rewardCounterKey('resgatado', handed.categoria_premio);
    qc.setQueriesData<Customer | null>({ queryKey: customerKeys.details() }, (old) =>
      old && old.id_cliente === handed.id_cliente && old[pending] > 0
        ? { ...old, [pending]: old[pending] - 1, [redeemed]: old[redeemed] + 1 }
        : old,
    );
    qc.setQueryData<RewardPage>(pendingRewardsQuery(handed.id_cliente).queryKey, (old) =>
      old && old.data.some((r) => r.id_premio_cliente === handed.id_premio_cliente)
        ? {
            ...old,
            data: old.data.filter((r) => r.id_premio_cliente !== handed.id_premio_cliente),
            total: Math.max(0, old.total - 1),
          }
        : old,
    );
  }
  return Promise.all([
    qc.invalidateQueries({ queryKey: customerKeys.all }),
    qc.invalidateQueries({ queryKey: rewardKeys.all }),
  ]);
}
