// Query-key factories. Every key starts with the establishment id (set by configureApi), so
// a change of establishment never reuses another's cache, and invalidation aims at prefixes:
// customerKeys.detail(k) ⊂ customerKeys.details() ⊂ customerKeys.all.
import type { RewardFilters } from './requests';
import { getEstablishmentId } from './establishment';

/** What a customer is looked up by (one key, as buscar accepts). */
export type LookupKey =
  | { kind: 'phone'; celular: string }
  | { kind: 'cpf'; cpf: string }
  | { kind: 'id'; id_cliente: number };

/** The key's own fields only (a classification result may carry `display` etc.). */
export function normalizeLookupKey(key: LookupKey): LookupKey {
  switch (key.kind) {
    case 'phone':
      return { kind: 'phone', celular: key.celular };
    case 'cpf':
      return { kind: 'cpf', cpf: key.cpf };
    case 'id':
      return { kind: 'id', id_cliente: key.id_cliente };
  }
}

/** Filters without unset values, so {} and { q: '' } share one cache entry. */
export function normalizeRewardFilters(filters: RewardFilters): RewardFilters {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(filters)) {
    if (v === undefined || v === null) continue;
    if (typeof v === 'string' && v.trim() === '') continue;
    out[k] = v;
  }
  return out as RewardFilters;
}

const scope = () => ['estabelecimento', getEstablishmentId()] as const;

export const customerKeys = {
  get all() {
    return [...scope(), 'customers'] as const;
  },
  details: () => [...customerKeys.all, 'detail'] as const,
  detail: (key: LookupKey) => [...customerKeys.details(), normalizeLookupKey(key)] as const,
};

export const rewardKeys = {
  get all() {
    return [...scope(), 'rewards'] as const;
  },
  lists: () => [...rewardKeys.all, 'list'] as const,
  list: (filters: RewardFilters) =>
    [...rewardKeys.lists(), normalizeRewardFilters(filters)] as const,
};

/** Our own server's config; not per establishment (it says which one we are). */
export const configKeys = {
  all: ['config'] as const,
};
