// The demo chain: stores besides establishment 1 "Loja Demo", each a sandbox establishment of
// its own (its access-token, program and customers), added when missing so an existing
// database gains them too. Establishment 2 "Café Carência" stays apart (another program's
// demo); the chain's stores are 3, 4, … (`demo-access-token-<id>`, password 1234, 100 cents
// per point, a "Vale-compras de R$ 10,00" at 100 points), each with its own customers.

import type { Db } from './db';
import { cpfCheckDigits } from './rules/cpf';
import { DAY_MS } from '#contract/rules/time';
import { DEMO_APP_TOKEN } from './seed';
import { createStore, searchable } from './store';

/** The chain's stores after the first (establishment 1): their ids start here. */
export const CHAIN_FIRST_ID = 3;
const NAMES = ['Loja Centro', 'Loja Norte', 'Loja Sul', 'Loja Leste', 'Loja Oeste'];
const CUSTOMERS = ['Ana', 'Bruno', 'Cecília', 'Diego', 'Elisa', 'Fábio', 'Gabriela', 'Heitor'];
const CUSTOMERS_PER_STORE = CUSTOMERS.length;

/** The name of the chain's n-th store (n = 2 for establishment 3). */
export function chainStoreName(n: number): string {
  return NAMES[n - 2] ?? `Loja ${n}`;
}

/**
 * Makes the demo chain `count` stores long (establishment 1 and `count - 1` more): the missing
 * ones are created with their reward and customers (phones of their own DDD block). Idempotent.
 */
export function seedChainStores(db: Db, nowMs: number, count: number): number[] {
  const added: number[] = [];
  const exists = db.prepare<[number], { id: number }>(
    'SELECT id FROM estabelecimentos WHERE id = ?',
  );
  const insertEst = db.prepare(
    `INSERT INTO estabelecimentos (id, nome, app_token, access_token, senha_atendente, centavos_por_ponto, carencia)
     VALUES (?, ?, ?, ?, '1234', 100, 0)`,
  );
  const insertPremio = db.prepare(
    `INSERT INTO premios (estabelecimento_id, categoria, nome, nome_busca, custo_pontos, termo_campanha)
     VALUES (?, 'premio_fidelidade', ?, ?, 100, NULL)`,
  );
  const store = createStore(db);
  for (let n = 2; n <= count; n++) {
    const id = CHAIN_FIRST_ID + n - 2;
    if (exists.get(id) !== undefined) continue;
    db.transaction(() => {
      insertEst.run(id, chainStoreName(n), DEMO_APP_TOKEN, `demo-access-token-${id}`);
      const reward = 'Vale-compras de R$ 10,00';
      insertPremio.run(id, reward, searchable(reward));
      const est = store.establishment(id);
      if (est === null) throw new Error(`seed: establishment ${id} missing`);
      for (let i = 0; i < CUSTOMERS_PER_STORE; i++) {
        // (11) 9<store: 4 digits>-<customer: 4 digits>: unique per store and customer.
        const celular = `+55119${String(id).padStart(4, '0')}${String(i + 1).padStart(4, '0')}`;
        const nine = String(100_000_000 + id * 1_000 + i + 1).slice(-9);
        const cliente = {
          celular,
          cpf: nine + cpfCheckDigits(nine),
          nome: `${CUSTOMERS[i]} da ${chainStoreName(n)}`,
        };
        // A few purchases over the last weeks: some customers near their first reward.
        for (let k = 0; k <= i % 3; k++) {
          const at = nowMs - (30 - 7 * k - i) * DAY_MS;
          store.postPoints(est, { valor_gasto: 2_500 + 1_000 * i, cliente, itens: [] }, at);
        }
      }
    })();
    added.push(id);
  }
  return added;
}
