/**
 * The rules over one journal entry (a posting, or a reward handed over), each an indexed read
 * or two of the store: what alerts it raises. Pure of HTTP and SQL; the store's reads come
 * from `AlertsStore`, the settings from settings.ts. Rule 8 (a sale cancelled at the PDV after
 * its points were posted) is not here: it is the PDV's cancel, recorded by service.ts.
 */
import { addDays, DAY_MS, localDate, localParts, startOfLocalDay } from '#contract/rules/time';
import type { AlertsStore, NewAlert, PostingFact } from '../../../store';
import type { Settings } from './settings';

export interface EvalDeps {
  alerts: AlertsStore;
  /** The store's 99th percentile of the 30 days before `day`, kept per store and day. */
  p99(establishmentId: number, day: string): Promise<number | null>;
}

const MIN = 60_000;

export function brl(cents: number): string {
  return new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' }).format(cents / 100);
}

function timeText(ms: number): string {
  const t = localParts(ms);
  return `${String(t.hour).padStart(2, '0')}:${String(t.minute).padStart(2, '0')}`;
}

function base(e: PostingFact, rule: string, dedup: string): Omit<NewAlert, 'summary' | 'evidence'> {
  return {
    establishmentId: e.establishment_id,
    rule,
    dedup: `${rule}:${dedup}`,
    terminalId: e.terminal_id,
    customerKey: e.customer_key,
    day: localDate(e.created_at),
    amount: e.amount,
    postingKeys: [e.key],
  };
}

/** Rules 1 and 2: a posting at a counter whose PDV sends every sale. */
async function pdvRules(deps: EvalDeps, s: Settings, e: PostingFact): Promise<NewAlert[]> {
  const r1 = s.sem_venda_pdv;
  const r2 = s.outro_valor;
  if ((!r1.on && !r2.on) || e.terminal_id === null || !/^\d+$/.test(e.terminal_id)) return [];
  const counter = Number(e.terminal_id);
  if (!(await deps.alerts.integratedCounter(counter))) return [];
  if ((await deps.alerts.saleOfPosting(e.key)) !== null) return [];
  const windowMs = Math.max(r1.p.janela_min!, r2.p.janela_min!) * MIN;
  const near = (await deps.alerts.salesNear(counter, e.created_at - windowMs, e.created_at + MIN))
    .filter((v) => v.posting_key === null || v.posting_key !== e.key)
    .filter((v) => v.state !== 'lançada' && v.state !== 'lançando')
    .sort((a, b) => Math.abs(a.created_at - e.created_at) - Math.abs(b.created_at - e.created_at));
  const inR2 = near.filter((v) => v.created_at >= e.created_at - r2.p.janela_min! * MIN);
  const within = (v: { amount: number }) =>
    e.amount <= Math.floor((v.amount * (100 + r2.p.tolerancia_pct!)) / 100);
  const sale = inR2[0];
  if (sale !== undefined) {
    // Any sale nearby the amount fits: the cashier most likely posted that one by hand.
    if (!r2.on || inR2.some(within)) return [];
    return [
      {
        ...base(e, 'outro_valor', e.key),
        summary: `Venda ${sale.sale_id} do PDV de ${brl(sale.amount)} lançada como ${brl(e.amount)}.`,
        evidence: {
          venda_pdv: {
            id_venda: sale.sale_id,
            valor: sale.amount,
            estado: sale.state,
            quando: new Date(sale.created_at).toISOString(),
          },
          tolerancia_pct: r2.p.tolerancia_pct,
        },
      },
    ];
  }
  const inR1 = near.filter((v) => v.created_at >= e.created_at - r1.p.janela_min! * MIN);
  if (!r1.on || inR1.length > 0) return [];
  return [
    {
      ...base(e, 'sem_venda_pdv', e.key),
      summary: `${brl(e.amount)} digitado no balcão sem venda do PDV nos ${r1.p.janela_min} minutos antes.`,
      evidence: { venda_pdv: null, procurado_minutos: r1.p.janela_min, balcao: counter },
    },
  ];
}

/** The customer's posted points of the entry's local day, every store (rules 3 and 4). */
function customerDay(deps: EvalDeps, e: PostingFact): Promise<PostingFact[]> {
  const day = localDate(e.created_at);
  return deps.alerts.customerPostings(
    e.customer_key,
    startOfLocalDay(day),
    startOfLocalDay(addDays(day, 1)),
  );
}

/** Rule 3: one customer credited many times a day (every store), or twice within minutes. */
function repeated(s: Settings, e: PostingFact, all: readonly PostingFact[]): NewAlert[] {
  const r = s.repeticao;
  if (!r.on) return [];
  const day = localDate(e.created_at);
  const gapMs = r.p.minutos! * MIN;
  const close =
    gapMs > 0
      ? all.filter((o) => o.key !== e.key && Math.abs(o.created_at - e.created_at) <= gapMs)
      : [];
  const many = all.length >= r.p.por_dia!;
  if (!many && close.length === 0) return [];
  const keys = many ? all.map((o) => o.key) : [...close.map((o) => o.key), e.key];
  const stores = new Set(all.map((o) => o.establishment_id)).size;
  const summary = many
    ? `${all.length} lançamentos para o mesmo celular no dia${stores > 1 ? ` (em ${stores} lojas)` : ''}.`
    : `2 lançamentos para o mesmo celular em até ${r.p.minutos} minutos.`;
  return [
    {
      ...base(e, 'repeticao', `${e.customer_key}:${day}`),
      terminalId: many ? null : e.terminal_id,
      amount: null,
      postingKeys: [...new Set(keys)].sort(),
      summary,
      evidence: {
        lancamentos_no_dia: all.length,
        lojas: stores,
        por_dia: r.p.por_dia,
        minutos: r.p.minutos,
      },
    },
  ];
}

/**
 * Rule 4: one phone takes a large part of a counter's shift (its local day). The shift is
 * counted only once the phone has its minimum there (almost never: a read saved a posting).
 */
async function concentrated(
  deps: EvalDeps,
  s: Settings,
  e: PostingFact,
  all: readonly PostingFact[],
): Promise<NewAlert[]> {
  const r = s.concentracao;
  if (!r.on || e.terminal_id === null) return [];
  const keys = all.filter((o) => o.terminal_id === e.terminal_id).map((o) => o.key);
  const mine = keys.length;
  if (mine < r.p.minimo!) return [];
  const day = localDate(e.created_at);
  const from = startOfLocalDay(day);
  const to = startOfLocalDay(addDays(day, 1));
  const total = await deps.alerts.shiftCount(e.establishment_id, e.terminal_id, from, to);
  if (mine * 100 < r.p.percentual! * total) return [];
  return [
    {
      ...base(e, 'concentracao', `${e.terminal_id}:${day}:${e.customer_key}`),
      amount: null,
      postingKeys: keys,
      summary: `Um celular com ${mine} de ${total} lançamentos do turno (${Math.round((mine * 100) / total)} %).`,
      evidence: {
        do_celular: mine,
        do_turno: total,
        percentual: r.p.percentual,
        minimo: r.p.minimo,
      },
    },
  ];
}

/** Rule 5: an amount far above the store's usual, or over the manager's ceiling. */
async function highAmount(deps: EvalDeps, s: Settings, e: PostingFact): Promise<NewAlert[]> {
  const r = s.valor_alto;
  if (!r.on) return [];
  const ceiling = r.p.teto_centavos!;
  const p99 = await deps.p99(e.establishment_id, localDate(e.created_at));
  const over = p99 === null ? null : p99 * r.p.multiplo_p99!;
  const byCeiling = ceiling > 0 && e.amount > ceiling;
  const byUsual = over !== null && e.amount > over;
  if (!byCeiling && !byUsual) return [];
  const why = byUsual
    ? `acima de ${r.p.multiplo_p99} × o percentil 99 da loja (${brl(p99!)})`
    : `acima do teto de ${brl(ceiling)}`;
  return [
    {
      ...base(e, 'valor_alto', e.key),
      summary: `Lançamento de ${brl(e.amount)}, ${why}.`,
      evidence: {
        p99_30_dias: p99,
        multiplo: r.p.multiplo_p99,
        teto: ceiling > 0 ? ceiling : null,
      },
    },
  ];
}

/** Rule 6: a posting while the store is closed. */
function afterHours(s: Settings, e: PostingFact): NewAlert[] {
  const r = s.fora_do_horario;
  if (!r.on) return [];
  const t = localParts(e.created_at);
  const m = t.hour * 60 + t.minute;
  const open = r.p.abre_min!;
  const close = r.p.fecha_min!;
  const inside = open <= close ? m >= open && m < close : m >= open || m < close;
  if (inside) return [];
  const hhmm = (x: number) =>
    `${String(Math.floor(x / 60) % 24).padStart(2, '0')}:${String(x % 60).padStart(2, '0')}`;
  return [
    {
      ...base(e, 'fora_do_horario', e.key),
      summary: `Lançamento às ${timeText(e.created_at)}, com a loja fechada (abre ${hhmm(open)}, fecha ${hhmm(close)}).`,
      evidence: { hora_local: timeText(e.created_at), abre: hhmm(open), fecha: hhmm(close) },
    },
  ];
}

/** Rule 7: a reward handed over to a customer whose purchases were mostly flagged. */
async function suspiciousReward(deps: EvalDeps, s: Settings, e: PostingFact): Promise<NewAlert[]> {
  const r = s.premio_suspeito;
  if (!r.on) return [];
  const since = e.created_at - r.p.dias! * DAY_MS;
  const [history, flagged] = await Promise.all([
    deps.alerts.customerPostings(e.customer_key, since, e.created_at + 1),
    deps.alerts.flaggedKeys(e.establishment_id, e.customer_key),
  ]);
  const mine = history.filter((o) => o.establishment_id === e.establishment_id);
  const total = mine.reduce((n, o) => n + o.amount, 0);
  const bad = mine.filter((o) => flagged.has(o.key));
  const badSum = bad.reduce((n, o) => n + o.amount, 0);
  if (bad.length === 0 || total <= 0 || badSum * 100 < r.p.percentual! * total) return [];
  return [
    {
      ...base(e, 'premio_suspeito', e.key),
      amount: null,
      postingKeys: [e.key, ...bad.map((o) => o.key)],
      summary: `Prêmio entregue a um cliente com ${Math.round((badSum * 100) / total)} % do valor lançado em alerta.`,
      evidence: {
        valor_total: total,
        valor_em_alerta: badSum,
        dias: r.p.dias,
        percentual: r.p.percentual,
      },
    },
  ];
}

/** Every alert one settled entry raises (rules 1–7), in rule order. */
export async function evaluateEntry(
  deps: EvalDeps,
  s: Settings,
  e: PostingFact,
): Promise<NewAlert[]> {
  if (e.state !== 'lançado') return [];
  if (e.kind === 'premio') return suspiciousReward(deps, s, e);
  const day = s.repeticao.on || s.concentracao.on ? await customerDay(deps, e) : [];
  const pdv = await pdvRules(deps, s, e);
  const conc = await concentrated(deps, s, e, day);
  const high = await highAmount(deps, s, e);
  return [...pdv, ...repeated(s, e, day), ...conc, ...high, ...afterHours(s, e)];
}
