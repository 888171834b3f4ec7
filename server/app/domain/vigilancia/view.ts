/**
 * What a manager reads of Vigilância: alerts as the contract's wire (the customer's phone
 * masked, the terminal named), one alert with its evidence and its shift, a decision.
 */
import { RULES } from '#contract/api/vigilancia';
import type {
  AlertDetail,
  AlertPage,
  AlertQuery,
  AlertWire,
  RuleCode,
} from '#contract/api/vigilancia';
import { ALERT_EXPORT_LIMIT, ALERT_PAGE_SIZE } from '#contract/api/vigilancia';
import { addDays, startOfLocalDay } from '#contract/rules/time';
import type { AlertRow, AlertsStore } from '../../../store';
import { maskPhone } from '../kiosk/view';

export interface ViewDeps {
  alerts: AlertsStore;
  establishmentId: number;
  terminalNames: () => Promise<ReadonlyMap<string, string>>;
}

const ruleName = (code: string) => RULES.find((r) => r.codigo === code)?.nome ?? code;
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function alertWire(r: AlertRow, names: ReadonlyMap<string, string>): AlertWire {
  return {
    id: r.id,
    regra: r.rule as RuleCode,
    regra_nome: ruleName(r.rule),
    loja: r.establishment_id,
    terminal: r.terminal_id,
    terminal_nome: r.terminal_id === null ? null : (names.get(r.terminal_id) ?? null),
    cliente: r.customer_key === null ? null : maskPhone(r.customer_key),
    dia: r.day,
    valor: r.amount,
    resumo: r.summary,
    estado: r.state as AlertWire['estado'],
    nota: r.note,
    decidido_por: r.decided_by,
    decidido_em: iso(r.decided_at),
    criado_em: new Date(r.created_at).toISOString(),
  };
}

/** `+55…` from the digits a manager typed (with or without the country code). */
function phoneKey(digits: string | undefined): string | null {
  if (digits === undefined) return null;
  const d = digits.replace(/\D/g, '');
  return `+${d.length <= 11 ? `55${d}` : d}`;
}

/** `stores`: the chain's list over these stores instead of this one's. */
type Stores = readonly number[] | undefined;

function filterOf(deps: ViewDeps, q: AlertQuery, limit: number, offset: number, stores: Stores) {
  return {
    establishmentId: stores ?? deps.establishmentId,
    rule: q.regra ?? null,
    state: q.estado ?? null,
    terminalId: q.terminal,
    day: q.dia ?? null,
    customerKey: phoneKey(q.celular),
    limit,
    offset,
  };
}

export async function alertPage(
  deps: ViewDeps,
  q: AlertQuery,
  stores?: Stores,
): Promise<AlertPage> {
  const pagina = Math.max(1, Number(q.pagina ?? '1'));
  const offset = (pagina - 1) * ALERT_PAGE_SIZE;
  const [found, names, abertos] = await Promise.all([
    deps.alerts.list(filterOf(deps, q, ALERT_PAGE_SIZE, offset, stores)),
    deps.terminalNames(),
    deps.alerts.openCounts(stores ?? deps.establishmentId),
  ]);
  return {
    itens: found.rows.map((r) => alertWire(r, names)),
    pagina,
    paginas: Math.max(1, Math.ceil(found.total / ALERT_PAGE_SIZE)),
    total: found.total,
    abertos,
  };
}

export async function alertExport(
  deps: ViewDeps,
  q: AlertQuery,
  stores?: Stores,
): Promise<
  { kind: 'ok'; itens: AlertWire[]; total: number } | { kind: 'too-many'; total: number }
> {
  const [found, names] = await Promise.all([
    deps.alerts.list(filterOf(deps, q, ALERT_EXPORT_LIMIT + 1, 0, stores)),
    deps.terminalNames(),
  ]);
  if (found.total > ALERT_EXPORT_LIMIT) return { kind: 'too-many', total: found.total };
  return { kind: 'ok', itens: found.rows.map((r) => alertWire(r, names)), total: found.total };
}

export async function alertDetail(deps: ViewDeps, id: number): Promise<AlertDetail | null> {
  const r = await deps.alerts.get(deps.establishmentId, id);
  if (r === null) return null;
  const keys = JSON.parse(r.posting_keys) as string[];
  const [postings, names] = await Promise.all([deps.alerts.postings(keys), deps.terminalNames()]);
  const from = startOfLocalDay(r.day);
  const to = startOfLocalDay(addDays(r.day, 1));
  const terminal = r.terminal_id ?? postings[0]?.terminal_id ?? null;
  const link = (t: string) =>
    `/api/lancamentos?de=${encodeURIComponent(new Date(from).toISOString())}` +
    `&ate=${encodeURIComponent(new Date(to).toISOString())}&terminal=${encodeURIComponent(t)}`;
  return {
    alerta: alertWire(r, names),
    porque: RULES.find((x) => x.codigo === r.rule)?.porque ?? '',
    lancamentos: postings.map((p) => ({
      chave: p.key,
      quando: new Date(p.created_at).toISOString(),
      valor: p.amount,
      terminal: p.terminal_id === null ? null : (names.get(p.terminal_id) ?? p.terminal_id),
      loja: p.establishment_id,
      estado: p.state,
    })),
    evidencia: JSON.parse(r.evidence) as Record<string, unknown>,
    turno: terminal === null ? null : { terminal, dia: r.day, link: link(terminal) },
  };
}
