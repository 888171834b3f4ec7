/**
 * The conferência's matching, pure: one customer's postings of ours ("lançado") against the
 * credits of the customer's history in the service.
 *
 * The service has no id of our sale on its credit (`historico` carries `id_cartela_cliente`,
 * `pontos`, `data`), so a credit is ours by its time and its points. The service stamps the
 * credit while it handles our request, between the moment we sent it (`sent_at`) and the
 * moment its answer came (`ended_at`; a lost answer settled later: `settled_at`), to the
 * second and by its own clock. The window is that span widened by TOLERANCE_MS on each side:
 * two minutes cover the truncation to the second and a server clock kept by NTP many times
 * over, and stay short next to the time between two purchases of one customer at one store
 * (a second purchase a minute later is still told apart: it has its own entry, matched first).
 *
 * 1. Each entry takes the closest unused credit in its window with its points: confirmed.
 * 2. An entry left takes the closest unused credit in its window: points differing.
 * 3. An entry still left: missing in the service.
 * 4. A credit left in the window of an entry that took a credit of the same points: credited
 *    twice for one sale. Any other credit left, on the day: not posted by us (informational).
 */
import type { AchadoTipo, AchadoWire } from '#contract/api/conferencia';
import type { PostedEntry } from '../../../store';

export const TOLERANCE_MS = 2 * 60_000;
/** A window's end when the entry knows neither its answer's time nor its settlement. */
const UNKNOWN_END_MS = 60_000;
/** São Paulo's offset: the service's timestamps are its civil time (no summer time). */
const SAO_PAULO_OFFSET_MS = -3 * 3_600_000;

export interface Credit {
  id: number | null;
  pontos: number;
  /** The service's text, and the instant it names. */
  data: string;
  at: number;
}

export interface CustomerFacts {
  celular: string;
  idCliente: number | null;
  nome: string | null;
}

export interface Matched {
  confirmed: number;
  findings: AchadoWire[];
}

/** `YYYY-MM-DD HH:MM:SS` (São Paulo) → epoch ms; null when malformed. */
export function serviceInstant(text: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text.trim());
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map((p) => Number(p ?? 0)) as number[];
  const utc = Date.UTC(y!, mo! - 1, d!, h!, mi!, s!);
  return Number.isNaN(utc) ? null : utc - SAO_PAULO_OFFSET_MS;
}

/** The credits of a `clientes/buscar` answer's `data.carteira.historico`. */
export function creditsOf(data: unknown): Credit[] {
  const wallet = ((data ?? {}) as { carteira?: unknown }).carteira;
  const history = ((wallet ?? {}) as { historico?: unknown }).historico;
  if (!Array.isArray(history)) return [];
  const out: Credit[] = [];
  for (const h of history as unknown[]) {
    const e = (h ?? {}) as Record<string, unknown>;
    if (e.tipo !== undefined && e.tipo !== 'credito') continue;
    if (typeof e.pontos !== 'number' || typeof e.data !== 'string') continue;
    const at = serviceInstant(e.data);
    if (at === null) continue;
    const id = typeof e.id_cartela_cliente === 'number' ? e.id_cartela_cliente : null;
    out.push({ id, pontos: e.pontos, data: e.data, at });
  }
  return out.sort((a, b) => a.at - b.at || (a.id ?? 0) - (b.id ?? 0));
}

/** [start, end] in which the service stamped this entry's credit. */
export function windowOf(e: PostedEntry): [number, number] {
  const end = e.endedAt ?? e.settledAt ?? e.sentAt + UNKNOWN_END_MS;
  return [e.sentAt - TOLERANCE_MS, Math.max(end, e.sentAt) + TOLERANCE_MS];
}

const inWindow = (c: Credit, w: [number, number]) => c.at >= w[0] && c.at <= w[1];

function lancamento(e: PostedEntry): NonNullable<AchadoWire['lancamento']> {
  return {
    chave: e.key,
    criado_em: e.createdAt,
    enviado_em: e.sentAt,
    valor_gasto: e.amount,
    pontos: e.points,
    terminal: e.terminalId,
  };
}

const servico = (c: Credit): NonNullable<AchadoWire['servico']> => ({
  id_cartela_cliente: c.id,
  data: c.data,
  pontos: c.pontos,
});

const DETAILS: Record<AchadoTipo, string> = {
  ausente: 'Lançado no nosso diário, mas o serviço não tem este crédito.',
  duplicado: 'O serviço creditou duas vezes esta venda.',
  pontos_divergentes: 'O serviço creditou outra quantidade de pontos.',
  nao_conferido: 'O serviço recusou a leitura deste cliente.',
  nao_lancado_por_nos:
    'Crédito no serviço sem lançamento nosso (painel do serviço ou outro sistema).',
};

/** One finding, in the answer's shape. */
export function finding(
  tipo: AchadoTipo,
  customer: CustomerFacts,
  entry: PostedEntry | null,
  credit: Credit | null,
  detalhe: string = DETAILS[tipo],
): AchadoWire {
  return {
    tipo,
    celular: customer.celular,
    id_cliente: customer.idCliente,
    nome: customer.nome,
    lancamento: entry === null ? null : lancamento(entry),
    servico: credit === null ? null : servico(credit),
    detalhe,
  };
}

/** The closest credit to the entry's send among `pool` (unused, in its window, `fits`). */
function closest(
  e: PostedEntry,
  pool: readonly Credit[],
  used: ReadonlySet<Credit>,
  fits: (c: Credit) => boolean,
): Credit | null {
  const w = windowOf(e);
  let best: Credit | null = null;
  for (const c of pool) {
    if (used.has(c) || !inWindow(c, w) || !fits(c)) continue;
    if (best === null || Math.abs(c.at - e.sentAt) < Math.abs(best.at - e.sentAt)) best = c;
  }
  return best;
}

/**
 * Matches one customer's entries with the credits of the service. `entries` may reach beyond
 * the day (a sale sent just before midnight can take a credit stamped just after it); only
 * entries sent in [from, to) and credits stamped in it are reported.
 */
export function matchCustomer(
  customer: CustomerFacts,
  entries: readonly PostedEntry[],
  credits: readonly Credit[],
  day: { from: number; to: number },
): Matched {
  const used = new Set<Credit>();
  const taken = new Map<PostedEntry, Credit>();
  const ordered = [...entries].sort((a, b) => a.sentAt - b.sentAt);
  for (const e of ordered) {
    const c = closest(e, credits, used, (x) => e.points === null || x.pontos === e.points);
    if (c !== null) {
      used.add(c);
      taken.set(e, c);
    }
  }
  const differing = new Set<PostedEntry>();
  for (const e of ordered) {
    if (taken.has(e)) continue;
    const c = closest(e, credits, used, () => true);
    if (c !== null) {
      used.add(c);
      taken.set(e, c);
      differing.add(e);
    }
  }
  const inDay = (at: number) => at >= day.from && at < day.to;
  const findings: AchadoWire[] = [];
  let confirmed = 0;
  for (const e of ordered) {
    if (!inDay(e.sentAt)) continue;
    const c = taken.get(e) ?? null;
    if (c === null) findings.push(finding('ausente', customer, e, null));
    else if (differing.has(e)) findings.push(finding('pontos_divergentes', customer, e, c));
    else confirmed += 1;
  }
  for (const c of credits) {
    if (used.has(c) || !inDay(c.at)) continue;
    const twin = ordered.find((e) => {
      const t = taken.get(e);
      return (
        t !== undefined && !differing.has(e) && t.pontos === c.pontos && inWindow(c, windowOf(e))
      );
    });
    findings.push(
      twin === undefined
        ? finding('nao_lancado_por_nos', customer, null, c)
        : finding('duplicado', customer, twin, c),
    );
  }
  return { confirmed, findings };
}
