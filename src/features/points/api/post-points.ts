// pontuar: post points for a sale (also registers an unknown customer).
//
// Sent once: `retry: 0`. `networkMode: 'always'`: with React Query's default ('online') a
// mutation started while the browser thinks it is offline is *paused* and fires by itself
// when the connection returns, maybe minutes later, after the customer has left. Here it
// fails at once with a network error and the cashier decides.
// A timeout (15 s) or a lost answer is ApiError.requestMayHaveReached: the result is unknown.
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/api/client';
import { customerKeys, rewardKeys } from '@/api/keys';
import { PointsResult, type Customer } from '@/api/schemas';
import type { PostPointsBody } from '@/api/requests';

export const POST_POINTS_TIMEOUT_MS = 15_000;

export async function postPoints(
  body: PostPointsBody,
  options: { signal?: AbortSignal; headers?: Record<string, string> } = {},
): Promise<PointsResult> {
  return apiRequest({
    method: 'POST',
    path: '/fidelidade/pontuar',
    body,
    schema: PointsResult,
    signal: options.signal,
    headers: options.headers,
    timeoutMs: POST_POINTS_TIMEOUT_MS,
  });
}

/** Writes the new balances into every cached customer with that id (any lookup key). */
export function applyPointsResult(qc: QueryClient, result: PointsResult): void {
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

export function usePostPoints() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: PostPointsBody) => postPoints(body),
    retry: 0,
    networkMode: 'always',
    onSuccess: (result) => {
      applyPointsResult(qc, result);
      return Promise.all([
        qc.invalidateQueries({ queryKey: customerKeys.all }),
        qc.invalidateQueries({ queryKey: rewardKeys.all }),
      ]);
    },
  });
}
