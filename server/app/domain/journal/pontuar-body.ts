/**
 * The one place a stored sale becomes the body of the service's `pontuar` (decisions.md): a
 * PDV sale posted by the PDV itself or at the counter, and a kiosk's staged sale its customer
 * claimed. The journal checks it (contract/rules/validation.ts) before anything is sent.
 *
 * The amount has one name from the counter to the service, `valor_gasto` (integer cents), on
 * the wire and in every request body; a stored row calls it `amount` (the column of
 * `posting_journal`, `pdv_sales` and `kiosk_sales`: renaming it would need a migration on
 * both engines), and the counter's sale form `valor` (the field the cashier types in).
 */

/** What a stored sale keeps of the purchase: its amount in cents and its basket as JSON. */
export interface StoredSale {
  amount: number;
  items: string | null;
}

/** The `pontuar` body of a stored sale, for `cliente`, under the attendant password `senha`. */
export function pontuarBody(
  sale: StoredSale,
  senha: string | null,
  cliente: Record<string, unknown>,
): Record<string, unknown> {
  return {
    valor_gasto: sale.amount,
    senha_atendente: senha,
    cliente,
    ...(sale.items === null ? {} : { itens: JSON.parse(sale.items) as unknown[] }),
  };
}
