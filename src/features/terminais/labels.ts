// How the "Terminais" screen names roles, states and times for a person.
import type { TerminalItem, TerminalRole } from '#contract/api/terminais';

export const ROLE_LABELS: Record<TerminalRole, string> = {
  caixa: 'Caixa',
  gerente: 'Gerente',
  quiosque: 'Quiosque',
  rede: 'Rede',
  integracao: 'PDV (integração)',
};

/** The create form's options: what each role is for. */
export const ROLE_HINTS: Record<Exclude<TerminalRole, 'integracao'>, string> = {
  caixa: 'Caixa — lança pontos e entrega prêmios',
  gerente: 'Gerente — caixa, painel, auditoria e terminais da loja',
  quiosque: 'Quiosque — tela do cliente',
  rede: 'Rede — lê todas as lojas',
};

const STATE_CLASSES: Record<TerminalItem['estado'], string> = {
  ativo: 'bg-emerald-100 text-emerald-900',
  revogado: 'bg-slate-200 text-slate-800',
  'aguardando código': 'bg-amber-100 text-amber-950',
  'código expirado': 'bg-red-100 text-red-900',
};
export const stateClass = (estado: TerminalItem['estado']) => STATE_CLASSES[estado];

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/** `há 5 minutos`, `ontem`, `agora` (a terminal's last request is written once a minute). */
export function relativeText(iso: string | null, now: number): string {
  if (iso === null) return 'nunca';
  const diff = Date.parse(iso) - now;
  const format = new Intl.RelativeTimeFormat('pt-BR', { numeric: 'auto' });
  for (const [unit, ms] of UNITS) {
    if (Math.abs(diff) >= ms) return format.format(Math.round(diff / ms), unit);
  }
  return 'agora';
}

/** `dd/mm/aaaa hh:mm` of an ISO instant, in this terminal's timezone. */
export function whenText(iso: string): string {
  const d = new Date(iso);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getDate())}/${p(d.getMonth() + 1)}/${d.getFullYear()} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** `hh:mm` of an ISO instant. */
export function timeText(iso: string): string {
  const d = new Date(iso);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** A counter: a caixa or gerente terminal still in use (its PDV sales can go to a kiosk). */
export const isCounter = (t: TerminalItem) =>
  (t.papel === 'caixa' || t.papel === 'gerente') && t.estado !== 'revogado';

/** A terminal or a store as a select's choice: "Caixa 2 (nº 7)". */
export const numbered = (t: { id: number; nome: string }) => ({
  value: String(t.id),
  text: `${t.nome} (nº ${t.id})`,
});
