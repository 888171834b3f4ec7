// The dashboard's periods: presets ending today, or a range a manager picks (local dates).
import { localDay } from '@/lib/dates';
import { PAINEL_MAX_DAYS } from '#contract/api/painel';
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

/** The period a dashboard address asks for: a preset, or a chosen range. */
export interface PeriodChoice {
  preset: PresetId | 'faixa';
  period: Period;
}

const isDate = (v: string | null): v is string =>
  v !== null && /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(dayNumber(v));

/**
 * The period of `/painel?periodo=30` or `/painel?de=2026-11-01&ate=2026-11-15`, so that a
 * manager can keep or send the address of what they look at. Anything else (a bad or too
 * long range, an unknown preset) reads as the default: the last 7 days.
 */
export function parsePeriodSearch(search: URLSearchParams, today: Date = new Date()): PeriodChoice {
  const de = search.get('de');
  const ate = search.get('ate');
  if (isDate(de) && isDate(ate) && rangeError({ de, ate }) === null) {
    return { preset: 'faixa', period: { de, ate } };
  }
  const preset = PRESETS.find((p) => p.id === search.get('periodo')) ?? PRESETS[1];
  return { preset: preset.id, period: presetPeriod(preset.days, today) };
}

/**
 * The dashboard's address for a choice (the default, 7 days, has no query); a chain's store
 * (`loja`, a rede's filter) is kept.
 */
export function periodHref(
  choice: { preset: PresetId } | { period: Period },
  loja: number | null = null,
): string {
  const query = new URLSearchParams(
    'preset' in choice
      ? choice.preset === '7'
        ? {}
        : { periodo: choice.preset }
      : { de: choice.period.de, ate: choice.period.ate },
  );
  if (loja !== null) query.set('loja', String(loja));
  const text = query.toString();
  return text ? `/painel?${text}` : '/painel';
}
