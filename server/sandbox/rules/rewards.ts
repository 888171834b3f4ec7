import { isPastValidity } from '#contract/rules/time';

export const CATEGORIES = [
  'premio_fidelidade',
  'brinde_roleta',
  'premio_surpresa',
  'premio_campanha',
  'premio_game',
] as const;
export type Category = (typeof CATEGORIES)[number];

export const STATUSES = ['expirado', 'pendente_resgate', 'resgatado', 'estornado'] as const;
export type Status = (typeof STATUSES)[number];

/** What is stored; `expirado` is never stored, it is read from `valido_ate`. */
export type StoredStatus = Exclude<Status, 'expirado'>;

export const COUNTER_PREFIXES = [
  'conquistados',
  'pendente_resgate',
  'resgatado',
  'expirado',
] as const;

/** A `pendente_resgate` reward past its `valido_ate` reads as `expirado`. */
export function effectiveStatus(stored: StoredStatus, validUntilMs: number, nowMs: number): Status {
  return stored === 'pendente_resgate' && isPastValidity(validUntilMs, nowMs) ? 'expirado' : stored;
}

export type Counters = Record<`${(typeof COUNTER_PREFIXES)[number]}_${Category}`, number>;

export function emptyCounters(): Counters {
  const out: Record<string, number> = {};
  for (const prefix of COUNTER_PREFIXES) {
    for (const cat of CATEGORIES) out[`${prefix}_${cat}`] = 0;
  }
  return out as Counters;
}

/**
 * The 20 customer counters, from the reward records: `conquistados_<cat>` counts every record
 * of the category (estornado included); the others count records in that status.
 */
export function countersFor(records: readonly { categoria: Category; status: Status }[]): Counters {
  const out = emptyCounters();
  for (const r of records) {
    out[`conquistados_${r.categoria}`] += 1;
    if (r.status !== 'estornado') out[`${r.status}_${r.categoria}`] += 1;
  }
  return out;
}

export interface LoyaltyReward {
  id: number;
  custo: number;
}

/**
 * Loyalty rewards won with a balance: while the balance covers the cheapest reward, win it
 * and pay its cost. Returns the rewards won, in order, and the balance left.
 */
export function loyaltyWins(
  saldo: number,
  rewards: readonly LoyaltyReward[],
): { won: LoyaltyReward[]; saldo: number } {
  const usable = rewards.filter((r) => Number.isSafeInteger(r.custo) && r.custo > 0);
  if (usable.length === 0) return { won: [], saldo };
  const cheapest = usable.reduce((a, b) =>
    b.custo < a.custo || (b.custo === a.custo && b.id < a.id) ? b : a,
  );
  const times = Math.max(0, Math.floor(saldo / cheapest.custo));
  return {
    won: Array.from({ length: times }, () => cheapest),
    saldo: saldo - times * cheapest.custo,
  };
}

export interface Campaign {
  id: number;
  termo: string;
}

/** Campaigns a basket wins: an item description containing the term, case-insensitively. */
export function campaignWins(
  campaigns: readonly Campaign[],
  itens: readonly { descricao?: string | null | undefined }[],
): Campaign[] {
  const descricoes = itens
    .map((i) => (typeof i.descricao === 'string' ? i.descricao.toLocaleLowerCase('pt-BR') : ''))
    .filter((d) => d !== '');
  return campaigns.filter((c) => {
    const termo = c.termo.trim().toLocaleLowerCase('pt-BR');
    return termo !== '' && descricoes.some((d) => d.includes(termo));
  });
}

export interface HandOverCandidate {
  id: number;
  status: StoredStatus;
  wonAtMs: number;
  validUntilMs: number;
}

/**
 * The record a hand-over (resgatar-premio) takes, among one customer's records of one reward
 * definition: the oldest (data_conquista, then id) that is `pendente_resgate` at `nowMs`, so
 * stored as pendente_resgate with its `valido_ate` second not passed. null when there is none
 * (never won, already handed over, reversed or expired).
 *
 * decisions.md is silent on a moment (`x-sandbox-now`) before the record was won; a careful
 * service does not hand over what was not won yet (data_resgate would precede
 * data_conquista), so such a record is not a candidate either.
 */
export function rewardToHandOver<T extends HandOverCandidate>(
  records: readonly T[],
  nowMs: number,
): T | null {
  let oldest: T | null = null;
  for (const r of records) {
    if (r.wonAtMs > nowMs) continue;
    if (effectiveStatus(r.status, r.validUntilMs, nowMs) !== 'pendente_resgate') continue;
    if (
      oldest === null ||
      r.wonAtMs < oldest.wonAtMs ||
      (r.wonAtMs === oldest.wonAtMs && r.id < oldest.id)
    ) {
      oldest = r;
    }
  }
  return oldest;
}
