// Vigilância's rules for this store: their switches and thresholds, read and saved (a save is
// audited by the server).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { serverRequest } from '@/api/client';
import { RulesWire, type RuleSetting } from '#contract/api/vigilancia';
import { alertKeys } from './alerts';

export const rulesQuery = () =>
  queryOptions({
    queryKey: [...alertKeys.all, 'regras'] as const,
    queryFn: ({ signal }) =>
      serverRequest({ method: 'GET', path: '/api/vigilancia/regras', schema: RulesWire, signal }),
  });

export const useRules = () => useQuery(rulesQuery());

export function saveRules(regras: readonly RuleSetting[]): Promise<RulesWire> {
  return serverRequest({
    method: 'PUT',
    path: '/api/vigilancia/regras',
    body: { regras },
    schema: RulesWire,
  });
}
