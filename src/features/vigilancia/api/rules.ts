// Vigilância's rules for this store: their switches and thresholds, read and saved (a save is
// audited by the server).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { serverRequest } from '@/api/client';
import { storeHeaders } from '@/api/rede';
import { RulesWire, type RuleSetting } from '#contract/api/vigilancia';
import { alertKeys } from './alerts';

/** `loja`: the chain's store a rede reads (null: the terminal's own). */
export const rulesQuery = (loja: number | null = null) =>
  queryOptions({
    queryKey: [...alertKeys.all, 'regras', loja] as const,
    queryFn: ({ signal }) =>
      serverRequest({
        method: 'GET',
        path: '/api/vigilancia/regras',
        schema: RulesWire,
        signal,
        headers: storeHeaders(loja),
      }),
  });

export const useRules = (loja: number | null = null) => useQuery(rulesQuery(loja));

export function saveRules(regras: readonly RuleSetting[]): Promise<RulesWire> {
  return serverRequest({
    method: 'PUT',
    path: '/api/vigilancia/regras',
    body: { regras },
    schema: RulesWire,
  });
}
