// Demo data of a new sandbox database (decisions.md, "Sandbox demo data").
//
// Stable demo facts others may rely on (establishment 1 "Loja Demo", tokens
// demo-app-token / demo-access-token-1, attendant password 1234, 100 cents per point):
//
//   id_cliente 1  Maria da Silva   celular +5511987654321  CPF 52998224725
//                 saldo 75, saldo_carencia 0, compras 3, receita 176.2 when the database is
//                 created (unchanged for at least five months after). Rewards: one
//                 "Vale-compras de R$ 10,00" resgatado, one "Refrigerante lata grátis" expirado,
//                 one "Chaveiro da Loja Demo" pendente_resgate.
//   id_cliente 2  João Pereira     celular +5521998765432  CPF 39053344705
//                 saldo 50; one posting of R$ 250,00 ten days before creation won two
//                 "Vale-compras de R$ 10,00" (both pendente_resgate for 20 more days).
//   id_cliente 3  Carlos Souza     celular +5531991234567  CPF 71460238001
//                 saldo 42 and 80 points in pontos_vencidos (a purchase 14 months old).
//
// Then 42 generated customers (realistic names, E.164 mobiles, valid CPFs) with postings over
// the 365 days before creation, run through the real posting rules, so wallets, debits and
// rewards are consistent; extra roulette, surprise and game rewards; some redeemed, some
// reversed. The PRNG has a fixed seed: the same creation day always gives the same data.
// Establishment 2 "Café Carência" (password 4321, 500 cents per point, carencia) starts empty.

import type { Db } from './db';
import {
  addDays,
  DAY_MS,
  formatTimestamp,
  localDate,
  parseDate,
  zonedInstant,
} from '#contract/rules/time';
import type { CustomerInput, ItemInput } from '#contract/rules/validation';
import { generatedCustomerEvents } from './seed-generated';
import { createStore, searchable, type Store } from './store';

export const DEMO_APP_TOKEN = 'demo-app-token';

export const DEMO_ESTABLISHMENTS = [
  {
    id: 1,
    nome: 'Loja Demo',
    accessToken: 'demo-access-token-1',
    senha: '1234',
    centavosPorPonto: 100,
    carencia: false,
  },
  {
    id: 2,
    nome: 'Café Carência',
    accessToken: 'demo-access-token-2',
    senha: '4321',
    centavosPorPonto: 500,
    carencia: true,
  },
] as const;

/** Reward definitions; ids follow this order (1…7). */
export const DEMO_PREMIOS = [
  {
    est: 1,
    categoria: 'premio_fidelidade',
    nome: 'Vale-compras de R$ 10,00',
    custo: 100,
    termo: null,
  },
  {
    est: 1,
    categoria: 'premio_campanha',
    nome: 'Refrigerante lata grátis',
    custo: null,
    termo: 'refrigerante',
  },
  { est: 1, categoria: 'brinde_roleta', nome: 'Chaveiro da Loja Demo', custo: null, termo: null },
  { est: 1, categoria: 'brinde_roleta', nome: 'Caneca personalizada', custo: null, termo: null },
  {
    est: 1,
    categoria: 'premio_surpresa',
    nome: 'Caixa de bombons surpresa',
    custo: null,
    termo: null,
  },
  { est: 1, categoria: 'premio_game', nome: 'Ecobag do jogo da memória', custo: null, termo: null },
  { est: 2, categoria: 'premio_fidelidade', nome: 'Café expresso grátis', custo: 50, termo: null },
] as const;

const PREMIO = { vale: 1, campanha: 2, chaveiro: 3, caneca: 4, surpresa: 5, game: 6 } as const;

export const DEMO_CUSTOMERS = {
  maria: {
    id: 1,
    celular: '+5511987654321',
    cpf: '52998224725',
    nome: 'Maria da Silva',
    saldo: 75,
  },
  joao: { id: 2, celular: '+5521998765432', cpf: '39053344705', nome: 'João Pereira', saldo: 50 },
  carlos: { id: 3, celular: '+5531991234567', cpf: '71460238001', nome: 'Carlos Souza', saldo: 42 },
} as const;

export const SEED_VERSION = '1';
const GENERATED_CUSTOMERS = 42;

/** mulberry32: small, fast, deterministic. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Fills a new database. `nowMs` is the creation moment; all demo dates are relative to it. */
export function seedDemoData(db: Db, nowMs: number): void {
  const insertEst = db.prepare(
    `INSERT INTO estabelecimentos (id, nome, app_token, access_token, senha_atendente, centavos_por_ponto, carencia)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const e of DEMO_ESTABLISHMENTS) {
    insertEst.run(
      e.id,
      e.nome,
      DEMO_APP_TOKEN,
      e.accessToken,
      e.senha,
      e.centavosPorPonto,
      e.carencia ? 1 : 0,
    );
  }
  const insertPremio = db.prepare(
    `INSERT INTO premios (estabelecimento_id, categoria, nome, nome_busca, custo_pontos, termo_campanha)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  for (const p of DEMO_PREMIOS) {
    insertPremio.run(p.est, p.categoria, p.nome, searchable(p.nome), p.custo, p.termo);
  }

  const store = createStore(db);
  const est1 = store.establishment(1);
  if (!est1) throw new Error('seed: establishment 1 missing');
  const creationDay = localDate(nowMs);
  const at = (daysAgo: number, hour: number, minute: number): number => {
    const d = parseDate(addDays(creationDay, -daysAgo));
    if (!d) throw new Error('seed: bad date');
    return zonedInstant(d.year, d.month, d.day, hour, minute, 0);
  };
  const post = (atMs: number, cliente: CustomerInput, valor: number, itens: ItemInput[] = []) =>
    store.postPoints(est1, { valor_gasto: valor, cliente, itens }, atMs);

  // ---- the documented customers, in this order (ids 1, 2, 3)
  const maria: CustomerInput = {
    celular: DEMO_CUSTOMERS.maria.celular,
    cpf: DEMO_CUSTOMERS.maria.cpf,
    nome: DEMO_CUSTOMERS.maria.nome,
    email: 'maria.silva@exemplo.com.br',
    data_nascimento: '1985-04-12',
    genero: 'F',
    cep: '01310100',
    endereco: 'Avenida Paulista, 1000, apto 52',
    bairro: 'Bela Vista',
    cidade: 'São Paulo',
    estado: 'SP',
  };
  store.registerCustomer(1, maria, at(300, 9, 12));
  const mariaVale = post(at(200, 10, 15), maria, 12_000);
  for (const id of mariaVale.premios) store.redeemReward(id, at(195, 16, 40));
  post(at(40, 18, 30), maria, 4_530, [
    { descricao: 'Refrigerante lata 350 ml', qtde: 2, valor: 1_098 },
    { descricao: 'Pão de queijo (kg)', qtde: 1, valor: 3_432 },
  ]);
  const mariaLast = post(at(5, 8, 45), maria, 1_090);
  store.grantReward(mariaLast.id_cliente, PREMIO.chaveiro, at(5, 8, 46));

  const joao: CustomerInput = {
    celular: DEMO_CUSTOMERS.joao.celular,
    cpf: DEMO_CUSTOMERS.joao.cpf,
    nome: DEMO_CUSTOMERS.joao.nome,
    email: 'joao.pereira@exemplo.com.br',
    genero: 'M',
    cidade: 'Rio de Janeiro',
    estado: 'RJ',
  };
  post(at(10, 19, 5), joao, 25_000);

  const carlos: CustomerInput = {
    celular: DEMO_CUSTOMERS.carlos.celular,
    cpf: DEMO_CUSTOMERS.carlos.cpf,
    nome: DEMO_CUSTOMERS.carlos.nome,
    genero: 'M',
  };
  post(at(420, 11, 0), carlos, 8_000);
  post(at(3, 12, 20), carlos, 4_250);

  // ---- generated customers and their purchases, replayed in time order
  const rand = prng(20_261_122);
  const events = generatedCustomerEvents({
    count: GENERATED_CUSTOMERS,
    rand,
    store,
    at,
    post,
    known: Object.values(DEMO_CUSTOMERS),
    extraRewards: [PREMIO.chaveiro, PREMIO.caneca, PREMIO.surpresa, PREMIO.game],
  });
  events.sort((a, b) => a.atMs - b.atMs);
  for (const e of events) e.run();

  settleRewards(store, db, nowMs, rand);

  const meta = db.prepare('INSERT OR REPLACE INTO sandbox_meta (chave, valor) VALUES (?, ?)');
  meta.run('criado_em', formatTimestamp(nowMs));
  meta.run('seed', SEED_VERSION);
}

/**
 * Redeems and reverses some of the generated rewards (the documented customers keep theirs):
 * about half are redeemed within their validity, one in eight of the non-loyalty ones is
 * reversed; the rest stay pendente_resgate and read as expirado once 30 days have passed.
 */
function settleRewards(store: Store, db: Db, nowMs: number, rand: () => number): void {
  const rows = db
    .prepare<
      [],
      { id: number; categoria: string; data_conquista_ms: number; valido_ate_ms: number }
    >(
      `SELECT pc.id, p.categoria, pc.data_conquista_ms, pc.valido_ate_ms
       FROM premios_cliente pc JOIN premios p ON p.id = pc.premio_id
       WHERE pc.estabelecimento_id = 1 AND pc.cliente_id > 3 AND pc.status = 'pendente_resgate'
       ORDER BY pc.id`,
    )
    .all();
  const latest = nowMs - 60_000;
  for (const r of rows) {
    const roll = rand();
    const room = Math.min(r.valido_ate_ms, latest) - r.data_conquista_ms;
    if (room < 60_000) continue;
    if (r.categoria !== 'premio_fidelidade' && roll < 0.125) {
      store.reverseReward(
        r.id,
        r.data_conquista_ms + Math.floor(rand() * Math.min(room, 2 * DAY_MS)),
      );
    } else if (roll < 0.6) {
      store.redeemReward(r.id, r.data_conquista_ms + 60_000 + Math.floor(rand() * (room - 60_000)));
    }
  }
}
