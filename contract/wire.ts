// What the client and the service must agree on, beyond field names: the enums of the wire,
// the limits, the patterns and the CPF check. Pure TypeScript that imports nothing, so the
// browser app, the sandbox (server/) and the end-to-end support all use this one copy (the
// one file of src/ that server code may import).

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

/** States of a posting in the app server's journal (`estado` of a `lancamento`). */
export const POSTING_STATES = [
  'enviando',
  'lançado',
  'recusado',
  'verificando',
  'desconhecido',
  /** Kept while the service is down (contingency): the deliverer sends it when it returns. */
  'aguardando envio',
  /** A kept sale the service refused at delivery: a manager corrects and resends, or discards. */
  'precisa de atenção',
  /** A kept sale a manager discarded (final; nothing was posted). */
  'descartado',
] as const;

/** States of a sale staged for a kiosk (the app server's `kiosk_sales` and its answers). */
export const KIOSK_SALE_STATES = [
  'aguardando',
  'lançando',
  'lançado',
  'recusado',
  'desconhecido',
  'cancelado',
  'expirado',
] as const;

// ---------------------------------------------------------------- limits, patterns, CPF
// The browser's forms and the sandbox check the same limits with their own schemas and their
// own messages (the sandbox's independence is what catches drift); the numbers and patterns
// they must agree on live only here and in ./wire-fields.ts.

// Limits the counter's first load needs (money in integer cents, list sizes); the field
// limits and patterns of the forms are in ./wire-fields.ts, which only the lazy forms load.
export const VALOR_GASTO_MIN = 1;
export const VALOR_GASTO_MAX = 10_000_000;
export const ITENS_MAX = 200;

/** The two check digits of a CPF's first nine digits ("529982247" → "25"). */
export function cpfCheckDigits(nineDigits: string): string {
  const d = [...nineDigits].map(Number);
  // Weights 10…2 for the first check digit, 11…2 for the second; a remainder of 10 counts as 0.
  for (const n of [9, 10])
    d.push(((d.reduce((sum, x, i) => sum + x * (n + 1 - i), 0) * 10) % 11) % 10);
  return d.slice(9).join('');
}

/** Exactly 11 digits, not all the same, with matching check digits. */
export function isValidCpfDigits(value: string): boolean {
  if (!/^\d{11}$/.test(value) || /^(\d)\1{10}$/.test(value)) return false;
  return cpfCheckDigits(value.slice(0, 9)) === value.slice(9);
}

/**
 * Whether a terminal's page at `pathname` is the kiosk: `/quiosque` for a role that may use
 * it, and `/` for one that may not use the counter. The SPA shows the kiosk there
 * (src/app/app.tsx) and the app server sends the kiosk's code with the page
 * (server/app/app.ts) by this one rule.
 */
export function showsKiosk(
  navigation: { readonly caixa: boolean; readonly quiosque: boolean },
  pathname: string,
): boolean {
  return (
    navigation.quiosque && (pathname === '/quiosque' || (!navigation.caixa && pathname === '/'))
  );
}
