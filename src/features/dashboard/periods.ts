// The dashboard's periods: presets ending today, or a range a manager picks (local dates).
import { localDay } from '@/lib/dates';
import { PAINEL_MAX_DAYS } from '@/api/contract/painel';
import type { Period } from './api/painel';

export const PRESETS = [
  { id: 'hoje', label: 'Hoje', days: 1 },
  { id: '7', label: '7 dias', days: 7 },
  { id: '30', label: '30 dias', days: 30 },
] as const;
export type PresetId = (typeof PRESETS)[number]['id'];

/** The local date `days - 1` days before `today`, through today. */
export function presetPeriod(days: number, today: Date = new Date()): Period {
  const start = new Date(today.getFullYear(), today.getMonth(), today.getDate() - (days - 1));
  return { de: localDay(start), ate: localDay(today) };
}

const dayNumber = (d: string) => Date.parse(`${d}T00:00:00Z`) / 86_400_000;

/** Why a chosen range cannot be asked for (null: it can). */
export function rangeError(p: Period): string | null {
  if (dayNumber(p.ate) < dayNumber(p.de))
    return 'A data final deve ser igual ou posterior à inicial.';
  if (dayNumber(p.ate) - dayNumber(p.de) >= PAINEL_MAX_DAYS) {
    return `O período vai até ${PAINEL_MAX_DAYS} dias.`;
  }
  return null;
}

/** `23/11` of `2026-11-23`: the chart's and the table's day. */
export const shortDay = (d: string) => `${d.slice(8, 10)}/${d.slice(5, 7)}`;
/** `23/11/2026` of `2026-11-23`. */
export const fullDay = (d: string) => `${d.slice(8, 10)}/${d.slice(5, 7)}/${d.slice(0, 4)}`;
