// What the manager's rewards table and the counter's rewards to hand over both say of a
// reward: its category in Portuguese, and "vence em 3 dias" for a pending reward about to
// expire, counted in calendar days in São Paulo (the service's `valido_ate` is a São Paulo
// civil date-time, usually 23:59:59).
import type { RewardCategory, RewardStatus } from '#contract/wire';
import { daysUntil } from '@/lib/dates';

export const CATEGORY_LABELS: Record<RewardCategory, string> = {
  premio_fidelidade: 'Fidelidade',
  brinde_roleta: 'Roleta (brinde)',
  premio_surpresa: 'Surpresa',
  premio_campanha: 'Campanha',
  premio_game: 'Game',
};

/** A pending reward that expires within this many days says so. */
export const EXPIRY_NOTICE_DAYS = 7;

export function expiryNote(
  record: { premio_status: RewardStatus; valido_ate: string },
  today: string,
): string | null {
  if (record.premio_status !== 'pendente_resgate') return null;
  const days = daysUntil(record.valido_ate, today);
  if (!(days >= 0 && days <= EXPIRY_NOTICE_DAYS)) return null; // also NaN
  if (days === 0) return 'vence hoje';
  if (days === 1) return 'vence amanhã';
  return `vence em ${days} dias`;
}
