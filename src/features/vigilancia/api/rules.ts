// Vigilância's rules for this store: their switches and thresholds, read and saved (a save is
// audited by the server).
import { useQuery } from '@tanstack/react-query';
import { serverRequest } from '@/api/client';
import { RulesWire, type RuleSetting } from '#contract/api/vigilancia';
import { storeSettingQuery } from './alerts';

/** `loja`: the chain's store a rede reads (null: the terminal's own). */
export const rulesQuery = (loja: number | null = null) =>
  storeSettingQuery('regras', RulesWire, loja);

export const useRules = (loja: number | null = null) => useQuery(rulesQuery(loja));

export function saveRules(regras: readonly RuleSetting[]): Promise<RulesWire> {
  return serverRequest({
    method: 'PUT',
    path: '/api/vigilancia/regras',
    body: { regras },
    schema: RulesWire,
  });
}
