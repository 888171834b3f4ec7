/**
 * What a kiosk may show of a customer, built on the server from the service's answers: the
 * first name, a masked phone, the balance, points in carência with their release day, the next
 * expiration and the pending rewards. Nothing else of the customer leaves for a kiosk browser
 * (no CPF, e-mail, address, birth date, full phone or history). Its shape is the contract's
 * (contract/api/kiosk.ts).
 */
import type * as z from 'zod/mini';
import type { KioskCustomer } from '#contract/api/kiosk';

/** The kiosk's view of a customer, as the server builds it. */
type KioskCustomerView = z.input<typeof KioskCustomer>;

/** Every key a kiosk answer may hold, at any depth (the privacy test walks answers with it). */
export const KIOSK_KEYS: ReadonlySet<string> = new Set([
  // envelope
  'success',
  'message',
  'data',
  'errors',
  // customer (the contract's KioskCustomer)
  'cliente',
  'cadastrado',
  'primeiro_nome',
  'celular',
  'saldo',
  'saldo_carencia',
  'carencia_liberada_em',
  'proximo_vencimento',
  'pontos',
  'data_validade',
  'premios_pendentes',
  'nome',
  'valido_ate',
  // staged sale (the contract's StagedSale)
  'venda',
  'id',
  'estado',
  'valor_gasto',
  'itens',
  'descricao',
  'qtde',
  'valor',
  'criado_em',
  'expira_em',
  'mensagem',
  'quiosque',
  'balcao',
  // errors keyed by the field the kiosk sent (never its value)
  'consentimento',
  'senha_atendente',
  // exit
  'ok',
]);

const UNKNOWN_NAME = /^cliente desconhecido$/i;

/** `Maria` of `MARIA DA SILVA` / `maria da silva`; null for the service's placeholder name. */
export function firstName(nome: unknown): string | null {
  if (typeof nome !== 'string') return null;
  const trimmed = nome.trim();
  if (trimmed === '' || UNKNOWN_NAME.test(trimmed)) return null;
  const word = trimmed.split(/\s+/)[0]!;
  return word.charAt(0).toLocaleUpperCase('pt-BR') + word.slice(1).toLocaleLowerCase('pt-BR');
}

/**
 * `+5511987654321` → `(11) 9••••-4321`; `+551133334444` → `(11) ••••-4444`. Only the area code,
 * a mobile's leading 9 and the last four digits show. Anything else: `••••` and its last four.
 */
export function maskPhone(e164: unknown): string {
  const digits = typeof e164 === 'string' ? e164.replace(/\D/g, '') : '';
  const last4 = digits.slice(-4);
  const br = /^55(\d{2})(\d{8,9})$/.exec(digits);
  if (br === null) return `••••${last4 === '' ? '' : `-${last4}`}`;
  const [, ddd, local] = br as unknown as [string, string, string];
  const lead = local.length === 9 ? local[0]! : '';
  return `(${ddd}) ${lead}••••-${last4}`;
}

const int = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : 0);
const str = (v: unknown) => (typeof v === 'string' ? v : null);

/** YYYY-MM-DD plus one day (calendar arithmetic in UTC, no time zone involved). */
export function nextDay(date: string): string {
  const t = Date.parse(`${date.slice(0, 10)}T00:00:00Z`);
  return new Date(t + 86_400_000).toISOString().slice(0, 10);
}

/**
 * The kiosk's view of a `clientes/buscar` answer's `data` (and the customer's pending rewards,
 * from `recompensas?status=pendente_resgate`). Reads only the fields it needs.
 */
export function kioskCustomer(data: unknown, pendingRewards: unknown[]): KioskCustomerView {
  const d = (data ?? {}) as Record<string, unknown>;
  const wallet = (d.carteira ?? {}) as Record<string, unknown>;
  const saldoCarencia = int(wallet.saldo_carencia);
  const history = Array.isArray(wallet.historico) ? (wallet.historico as unknown[]) : [];
  // Carência ends at the next midnight (São Paulo) after the purchase: the newest credit's day + 1.
  const newestCredit = history
    .map((h) => (h ?? {}) as Record<string, unknown>)
    .find((h) => h.tipo === 'credito' && typeof h.data === 'string');
  const releasedOn =
    saldoCarencia > 0 && newestCredit !== undefined
      ? nextDay(String(newestCredit.data).slice(0, 10))
      : null;
  // Soonest first: sum every entry of the soonest day.
  const expiring = (Array.isArray(wallet.pontos_vencendo) ? wallet.pontos_vencendo : [])
    .map((e) => (e ?? {}) as Record<string, unknown>)
    .filter((e) => typeof e.data_validade === 'string' && int(e.pontos) > 0)
    .sort((a, b) => String(a.data_validade).localeCompare(String(b.data_validade)));
  const soonest = expiring[0] === undefined ? null : String(expiring[0].data_validade);
  const next =
    soonest === null
      ? null
      : {
          pontos: expiring
            .filter((e) => e.data_validade === soonest)
            .reduce((sum, e) => sum + int(e.pontos), 0),
          data_validade: soonest.slice(0, 10),
        };
  return {
    primeiro_nome: firstName(d.nome),
    celular: maskPhone(d.celular),
    saldo: int(wallet.saldo),
    saldo_carencia: saldoCarencia,
    carencia_liberada_em: releasedOn,
    proximo_vencimento: next,
    premios_pendentes: pendingRewards
      .map((r) => (r ?? {}) as Record<string, unknown>)
      .filter((r) => r.premio_status === undefined || r.premio_status === 'pendente_resgate')
      .map((r) => ({ nome: str(r.nome) ?? 'Prêmio', valido_ate: str(r.valido_ate) ?? '' }))
      .sort((a, b) => a.valido_ate.localeCompare(b.valido_ate)),
  };
}

/** Keys of `value` (at any depth) a kiosk answer may not carry. */
export function forbiddenKeys(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => forbiddenKeys(v, `${path}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => [
    ...(KIOSK_KEYS.has(k) ? [] : [`${path}.${k}`]),
    ...forbiddenKeys(v, `${path}.${k}`),
  ]);
}
