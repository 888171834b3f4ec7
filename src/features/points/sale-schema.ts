// The sale form: amount, optional basket and (for a customer not yet registered) the
// registration fields. One schema carries the messages a cashier reads; `toPointsBody`
// turns what was typed into what the wire wants.
import * as z from 'zod/mini';
import { lazySchema } from '#contract/lazy-schema';
import type { PostPointsBody, PurchaseItem } from '@/api/requests';
import { ITENS_MAX } from '#contract/wire';
import { COMPLEMENTO_MAX, DESCRICAO_MAX } from '#contract/wire-fields';
import { formatBRL, MAX_CENTS } from '@/lib/money';

export const MAX_ITEMS = ITENS_MAX;

export type BasketLine = {
  descricao: string;
  complemento: string;
  /** As typed; a whole number ≥ 1. */
  qtde: string;
  /** Unit price in cents; the line is sent as its total (qtde × unit, decisions.md). */
  unit: number;
};

export const emptyLine: BasketLine = { descricao: '', complemento: '', qtde: '1', unit: 0 };

export function lineQuantity(line: Pick<BasketLine, 'qtde'>): number | null {
  if (!/^\d{1,6}$/.test(line.qtde.trim())) return null;
  const n = Number(line.qtde.trim());
  return n >= 1 ? n : null;
}

/** The line total in cents, or null while the quantity is not a whole number ≥ 1. */
export function lineTotal(line: Pick<BasketLine, 'qtde' | 'unit'>): number | null {
  const q = lineQuantity(line);
  return q === null ? null : q * line.unit;
}

export function basketTotal(lines: readonly Pick<BasketLine, 'qtde' | 'unit'>[]): number {
  return lines.reduce((sum, line) => sum + (lineTotal(line) ?? 0), 0);
}

/**
 * Why the sale cannot be posted yet, or null when it can. Shown next to the disabled
 * post button, so the cashier always knows what is missing.
 */
export function blockReason(valor: number, lines: readonly BasketLine[]): string | null {
  if (valor <= 0) return 'Digite o valor da compra.';
  if (valor > MAX_CENTS) return `O valor máximo é ${formatBRL(MAX_CENTS)}.`;
  if (lines.some((l) => lineQuantity(l) === null))
    return 'Corrija a quantidade dos itens (número inteiro, 1 ou mais).';
  if (lines.length > 0) {
    const total = basketTotal(lines);
    if (total !== valor) {
      const diff = valor - total;
      return diff > 0
        ? `Faltam ${formatBRL(diff)} nos itens para fechar o valor da compra.`
        : `Os itens passam ${formatBRL(-diff)} do valor da compra.`;
    }
  }
  return null;
}

const line = lazySchema(() =>
  z.object({
    descricao: z
      .string()
      .check(z.maxLength(DESCRICAO_MAX, `No máximo ${DESCRICAO_MAX} caracteres.`)),
    complemento: z
      .string()
      .check(z.maxLength(COMPLEMENTO_MAX, `No máximo ${COMPLEMENTO_MAX} caracteres.`)),
    qtde: z
      .string()
      .check(
        z.refine(
          (q) => lineQuantity({ qtde: q }) !== null,
          'Quantidade: número inteiro, 1 ou mais.',
        ),
      ),
    unit: z.int().check(z.nonnegative('Valor não pode ser negativo.')),
  }),
);

export const saleSchema = lazySchema(() =>
  z
    .object({
      valor: z
        .int()
        .check(
          z.minimum(1, 'Digite o valor da compra.'),
          z.maximum(MAX_CENTS, `O valor máximo é ${formatBRL(MAX_CENTS)}.`),
        ),
      itens: z.array(line).check(z.maxLength(MAX_ITEMS, `No máximo ${MAX_ITEMS} itens.`)),
    })
    .check(
      z.refine((sale) => sale.itens.length === 0 || basketTotal(sale.itens) === sale.valor, {
        path: ['itens'],
        error: 'A soma dos itens precisa ser igual ao valor da compra.',
      }),
    ),
);

export type SaleValues = z.input<typeof saleSchema>;

export const emptySale: SaleValues = { valor: 0, itens: [] };

/** Basket lines → wire items: blank texts left out, valor = line total. */
export function toItems(lines: readonly BasketLine[]): PurchaseItem[] {
  return lines.map((l) => {
    const item: PurchaseItem = { qtde: lineQuantity(l) ?? 1, valor: lineTotal(l) ?? 0 };
    if (l.descricao.trim()) item.descricao = l.descricao.trim();
    if (l.complemento.trim()) item.complemento = l.complemento.trim();
    return item;
  });
}

export function toPointsBody(
  sale: SaleValues,
  cliente: PostPointsBody['cliente'],
  senha_atendente: string,
): PostPointsBody {
  const body: PostPointsBody = { valor_gasto: sale.valor, senha_atendente, cliente };
  if (sale.itens.length > 0) body.itens = toItems(sale.itens);
  return body;
}

/**
 * Where a field error of the points operation lands in the sale form. `itens.N.valor` is
 * the line total, typed as a unit price: it lands on that line's price.
 */
export function saleFieldFor(path: string): string | null {
  if (path === 'valor_gasto') return 'valor';
  if (path === 'itens') return 'itens.root';
  const item = /^itens\.(\d+)\.(valor|qtde|descricao|complemento)$/.exec(path);
  if (item) return `itens.${item[1]}.${item[2] === 'valor' ? 'unit' : item[2]}`;
  return null;
}
