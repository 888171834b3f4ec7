// "vence em 3 dias": a pending reward about to expire says so, counted in calendar days in
// São Paulo (the service's `valido_ate` is a São Paulo civil date-time, usually 23:59:59).
import type { RewardRecord } from '@/api/schemas';
import { daysUntil } from '@/lib/dates';

/** A pending reward that expires within this many days says so. */
export const EXPIRY_NOTICE_DAYS = 7;

export function expiryNote(
  record: Pick<RewardRecord, 'premio_status' | 'valido_ate'>,
  today: string,
): string | null {
  if (record.premio_status !== 'pendente_resgate') return null;
  const days = daysUntil(record.valido_ate, today);
  if (!(days >= 0 && days <= EXPIRY_NOTICE_DAYS)) return null; // also NaN
  if (days === 0) return 'vence hoje';
  if (days === 1) return 'vence amanhã';
  return `vence em ${days} dias`;
}
