// Portuguese words for the reward enums, and the status badge (text and symbol, never
// colour alone).
import type { RewardCategory, RewardDateField, RewardStatus } from '#contract/wire';

/** In the order the form offers them: what a manager looks for most first. */
export const STATUS_LABELS: Record<RewardStatus, string> = {
  pendente_resgate: 'Pendente de resgate',
  resgatado: 'Resgatado',
  expirado: 'Expirado',
  estornado: 'Estornado',
};

export const STATUS_OPTIONS = Object.keys(STATUS_LABELS) as readonly RewardStatus[];

export const CATEGORY_OPTIONS: readonly RewardCategory[] = [
  'premio_fidelidade',
  'brinde_roleta',
  'premio_surpresa',
  'premio_campanha',
  'premio_game',
];

export const DATE_FIELD_LABELS: Record<RewardDateField, string> = {
  data_conquista: 'Data da conquista',
  valido_ate: 'Válido até',
  data_resgate: 'Data do resgate',
  estornado_em: 'Data do estorno',
};

/** In the form's order, as the labels are written. */
export const DATE_FIELD_OPTIONS = Object.keys(DATE_FIELD_LABELS) as readonly RewardDateField[];

const BADGES: Record<RewardStatus, { symbol: string; className: string }> = {
  pendente_resgate: { symbol: '◷', className: 'bg-amber-100 text-amber-950 ring-amber-400' },
  resgatado: { symbol: '✓', className: 'bg-emerald-100 text-emerald-950 ring-emerald-500' },
  expirado: { symbol: '✕', className: 'bg-slate-200 text-slate-900 ring-slate-400' },
  estornado: { symbol: '↺', className: 'bg-red-100 text-red-950 ring-red-400' },
};

export function StatusBadge({ status }: { status: RewardStatus }) {
  const badge = BADGES[status];
  return (
    <span
      className={`inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-sm font-semibold whitespace-nowrap ring-1 ${badge.className}`}
    >
      <span aria-hidden="true">{badge.symbol}</span>
      {STATUS_LABELS[status]}
    </span>
  );
}
