// What the client and the service must agree on, beyond field names: the enums of the wire.
// Pure TypeScript that imports nothing, so the browser app, the sandbox (server/) and the
// end-to-end support may all use it (the one file of src/ that server code may import).

export const REWARD_STATUSES = ['expirado', 'pendente_resgate', 'resgatado', 'estornado'] as const;
export const REWARD_CATEGORIES = [
  'premio_fidelidade',
  'brinde_roleta',
  'premio_campanha',
  'premio_surpresa',
  'premio_game',
] as const;
export const REWARD_DATE_FIELDS = [
  'valido_ate',
  'data_resgate',
  'data_conquista',
  'estornado_em',
] as const;
export const REWARD_COUNTER_PREFIXES = [
  'conquistados',
  'pendente_resgate',
  'resgatado',
  'expirado',
] as const;

export type RewardStatus = (typeof REWARD_STATUSES)[number];
export type RewardCategory = (typeof REWARD_CATEGORIES)[number];
export type RewardDateField = (typeof REWARD_DATE_FIELDS)[number];
export type RewardCounterPrefix = (typeof REWARD_COUNTER_PREFIXES)[number];
export type RewardCounterKey = `${RewardCounterPrefix}_${RewardCategory}`;

/** The 20 customer counters, `<prefix>_<category>`, prefixes outer, categories inner. */
export const REWARD_COUNTER_KEYS: readonly RewardCounterKey[] = REWARD_COUNTER_PREFIXES.flatMap(
  (prefix) => REWARD_CATEGORIES.map((cat) => `${prefix}_${cat}` as const),
);

export const rewardCounterKey = (prefix: RewardCounterPrefix, category: RewardCategory) =>
  `${prefix}_${category}` as RewardCounterKey;
