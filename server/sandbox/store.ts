// The sandbox's operations over its database: plain functions over one transaction each,
// using the rules in ./rules. Routes call these; so does the seed.

import type { Db } from './db';
import { randomCpfHash } from './rules/cpf';
import { centsToReais, pointsFor } from '#contract/rules/money';
import {
  campaignWins,
  countersFor,
  effectiveStatus,
  loyaltyWins,
  rewardToHandOver,
  type Category,
  type Counters,
  type Status,
  type StoredStatus,
} from './rules/rewards';
import {
  creditExpiresAt,
  creditValidity,
  formatTimestamp,
  nextLocalMidnight,
  rewardValidUntil,
} from '#contract/rules/time';
import type {
  CustomerInput,
  ItemInput,
  LookupKey,
  ResgatarInput,
  RewardQuery,
} from '#contract/rules/validation';
import { createRewardList, type StatementPlan } from './reward-list';
import {
  remainingAfterDebits,
  walletAt,
  type Credit,
  type Debit,
  type WalletEntry,
} from './rules/wallet';

export const DEFAULT_NOME = 'CLIENTE DESCONHECIDO';
export const DEFAULT_EMAIL = 'invalido@invalido.com.br';

export interface Establishment {
  id: number;
  nome: string;
  appToken: string;
  accessToken: string;
  senhaAtendente: string;
  centavosPorPonto: number;
  carencia: boolean;
}

interface EstablishmentRow {
  id: number;
  nome: string;
  app_token: string;
  access_token: string;
  senha_atendente: string;
  centavos_por_ponto: number;
  carencia: number;
}

interface ClienteRow {
  id: number;
  estabelecimento_id: number;
  celular: string;
  cpf: string;
  nome: string;
  email: string;
  data_nascimento: string | null;
  genero: string | null;
  cep: string | null;
  endereco: string | null;
  bairro: string | null;
  cidade: string | null;
  uf: string | null;
  data_cadastro_ms: number;
}

interface CreditRow {
  id: number;
  restante: number | null;
  pontos: number;
  data_ms: number;
  matura_ms: number | null;
  data_validade: string;
  expira_ms: number;
}

export interface PointEntry {
  id_cartela_cliente: number;
  pontos: number;
  data: string;
  tipo: 'credito';
  data_validade: string;
}

export interface Carteira {
  saldo: number;
  saldo_carencia: number;
  pontos_vencidos: PointEntry[];
  pontos_vencendo: PointEntry[];
  historico?: PointEntry[];
}

export type CustomerResource = {
  id_cliente: number;
  nome: string;
  email: string;
  data_cadastro: string;
  celular: string;
  /** Not in the spec's field table; sent so a client can show it (11 digits or the generated hash). */
  cpf: string;
  data_nascimento: string | null;
  genero: string;
  cep: string | null;
  endereco: string | null;
  bairro: string | null;
  cidade: string | null;
  uf: string | null;
  carteira: Carteira;
  receita: number;
  compras: number;
  primeira_compra: string | null;
  ultima_compra: string | null;
} & Counters;

export interface RewardRecord {
  id_premio_cliente: number;
  id_cliente: number;
  id_premio: number;
  valido_ate: string;
  data_resgate: string | null;
  data_conquista: string;
  estornado_em: string | null;
  premio_status: Status;
  categoria_premio: Category;
  nome: string;
}

export interface PostingResult {
  id_cliente: number;
  id_ponto: number;
  saldo_atual: number;
  saldo_carencia: number;
  /** id_premio_cliente of the rewards this posting won (not on the wire) */
  premios: number[];
}

/** What a hand-over (resgatar-premio) did. */
export type HandOverResult =
  | { outcome: 'handed_over'; id_cliente: number; id_premio_cliente: number }
  /** No such customer in the establishment. */
  | { outcome: 'customer_not_found' }
  /** The customer has no record of that reward pending (never won, handed over, expired). */
  | { outcome: 'none_pending' };

export type RegisterResult = { created: true; id: number } | { created: false; id: number };

const toEstablishment = (r: EstablishmentRow): Establishment => ({
  id: r.id,
  nome: r.nome,
  appToken: r.app_token,
  accessToken: r.access_token,
  senhaAtendente: r.senha_atendente,
  centavosPorPonto: r.centavos_por_ponto,
  carencia: r.carencia === 1,
});

const toCredit = (r: CreditRow): Credit => ({
  id: r.id,
  pontos: r.pontos,
  dataMs: r.data_ms,
  maturesAtMs: r.matura_ms,
  expiresAtMs: r.expira_ms,
  dataValidade: r.data_validade,
});

const toEntry = (e: WalletEntry): PointEntry => ({
  id_cartela_cliente: e.credit.id,
  pontos: e.pontos,
  data: formatTimestamp(e.credit.dataMs),
  tipo: 'credito',
  data_validade: e.credit.dataValidade,
});

const stamp = (ms: number | null): string | null => (ms === null ? null : formatTimestamp(ms));

/** The lower-cased form `q` is matched against. */
export const searchable = (s: string): string => s.normalize('NFC').toLocaleLowerCase('pt-BR');

export function createStore(db: Db) {
  const st = {
    establishments: db.prepare<[], EstablishmentRow>('SELECT * FROM estabelecimentos ORDER BY id'),
    establishment: db.prepare<[number], EstablishmentRow>(
      'SELECT * FROM estabelecimentos WHERE id = ?',
    ),
    byCelular: db.prepare<[number, string], { id: number }>(
      'SELECT id FROM clientes WHERE estabelecimento_id = ? AND celular = ?',
    ),
    byCpf: db.prepare<[number, string], { id: number }>(
      'SELECT id FROM clientes WHERE estabelecimento_id = ? AND cpf = ?',
    ),
    byId: db.prepare<[number, number], { id: number }>(
      'SELECT id FROM clientes WHERE estabelecimento_id = ? AND id = ?',
    ),
    cliente: db.prepare<[number], ClienteRow>('SELECT * FROM clientes WHERE id = ?'),
    insertCliente: db.prepare(
      `INSERT INTO clientes (estabelecimento_id, celular, cpf, nome, email, data_nascimento, genero,
         cep, endereco, bairro, cidade, uf, data_cadastro_ms)
       VALUES (@estabelecimento_id, @celular, @cpf, @nome, @email, @data_nascimento, @genero,
         @cep, @endereco, @bairro, @cidade, @uf, @data_cadastro_ms)`,
    ),
    insertPonto: db.prepare(
      `INSERT INTO pontos (estabelecimento_id, cliente_id, valor_gasto, pontos, itens_json, criado_em_ms)
       VALUES (?, ?, ?, ?, ?, ?)`,
    ),
    insertCredit: db.prepare(
      `INSERT INTO cartela (cliente_id, ponto_id, pontos, data_ms, matura_ms, data_validade, expira_ms,
         restante)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    credits: db.prepare<[number], CreditRow>(
      `SELECT id, restante, pontos, data_ms, matura_ms, data_validade, expira_ms
       FROM cartela WHERE cliente_id = ?`,
    ),
    /** Unexpired credits with points left, oldest first (FIFO), through cartela_aberta. */
    openCredits: db.prepare<
      [number, number],
      { id: number; restante: number; pontos: number; matura_ms: number | null }
    >(
      `SELECT id, restante, pontos, matura_ms FROM cartela
       WHERE cliente_id = ? AND restante > 0 AND expira_ms > ? ORDER BY data_ms, id`,
    ),
    restanteUnknown: db.prepare<[number], { x: number }>(
      'SELECT 1 AS x FROM cartela WHERE cliente_id = ? AND restante IS NULL LIMIT 1',
    ),
    setRestante: db.prepare('UPDATE cartela SET restante = ? WHERE id = ?'),
    latestDebit: db.prepare<[number], { m: number | null }>(
      'SELECT MAX(momento_ms) AS m FROM debitos WHERE cliente_id = ?',
    ),
    debits: db.prepare<[number], { id: number; pontos: number; momento_ms: number }>(
      'SELECT id, pontos, momento_ms FROM debitos WHERE cliente_id = ?',
    ),
    insertDebit: db.prepare(
      'INSERT INTO debitos (cliente_id, premio_cliente_id, pontos, momento_ms) VALUES (?, ?, ?, ?)',
    ),
    loyaltyRewards: db.prepare<[number], { id: number; custo_pontos: number }>(
      `SELECT id, custo_pontos FROM premios
       WHERE estabelecimento_id = ? AND categoria = 'premio_fidelidade' AND custo_pontos IS NOT NULL`,
    ),
    campaigns: db.prepare<[number], { id: number; termo_campanha: string }>(
      `SELECT id, termo_campanha FROM premios
       WHERE estabelecimento_id = ? AND categoria = 'premio_campanha' AND termo_campanha IS NOT NULL`,
    ),
    premio: db.prepare<[number], { id: number; estabelecimento_id: number }>(
      'SELECT id, estabelecimento_id FROM premios WHERE id = ?',
    ),
    insertReward: db.prepare(
      `INSERT INTO premios_cliente (estabelecimento_id, cliente_id, premio_id, ponto_id,
         data_conquista_ms, valido_ate_ms, status)
       VALUES (?, ?, ?, ?, ?, ?, 'pendente_resgate')`,
    ),
    reward: db.prepare<[number], { id: number; status: StoredStatus; valido_ate_ms: number }>(
      'SELECT id, status, valido_ate_ms FROM premios_cliente WHERE id = ?',
    ),
    redeem: db.prepare(
      "UPDATE premios_cliente SET status = 'resgatado', data_resgate_ms = ? WHERE id = ?",
    ),
    /** A customer's records of one reward still stored as pendente_resgate. */
    pendingOf: db.prepare<
      [number, number],
      { id: number; status: StoredStatus; data_conquista_ms: number; valido_ate_ms: number }
    >(
      `SELECT id, status, data_conquista_ms, valido_ate_ms FROM premios_cliente
       WHERE cliente_id = ? AND premio_id = ? AND status = 'pendente_resgate'`,
    ),
    /** The hand-over itself; the status guard makes a second one on the same record a no-op. */
    handOver: db.prepare(
      `UPDATE premios_cliente SET status = 'resgatado', data_resgate_ms = ?
       WHERE id = ? AND status = 'pendente_resgate'`,
    ),
    reverse: db.prepare(
      "UPDATE premios_cliente SET status = 'estornado', estornado_em_ms = ? WHERE id = ?",
    ),
    customerRewards: db.prepare<
      [number],
      { categoria: Category; status: StoredStatus; valido_ate_ms: number }
    >(
      `SELECT p.categoria, pc.status, pc.valido_ate_ms
       FROM premios_cliente pc JOIN premios p ON p.id = pc.premio_id
       WHERE pc.cliente_id = ?`,
    ),
    purchases: db.prepare<
      [number],
      { total: number; compras: number; primeira: number | null; ultima: number | null }
    >(
      `SELECT COALESCE(SUM(valor_gasto), 0) AS total, COUNT(*) AS compras,
              MIN(criado_em_ms) AS primeira, MAX(criado_em_ms) AS ultima
       FROM pontos WHERE cliente_id = ?`,
    ),
  };

  const rewardList = createRewardList(db);

  function findCustomerId(estId: number, key: LookupKey): number | null {
    const row =
      key.by === 'id_cliente'
        ? st.byId.get(estId, key.value)
        : key.by === 'cpf'
          ? st.byCpf.get(estId, key.value)
          : st.byCelular.get(estId, key.value);
    return row?.id ?? null;
  }

  /** An existing customer of the establishment: by celular first, then by cpf. */
  function existingCustomer(estId: number, input: CustomerInput): number | null {
    const byCelular = st.byCelular.get(estId, input.celular);
    if (byCelular) return byCelular.id;
    if (input.cpf !== undefined) {
      const byCpf = st.byCpf.get(estId, input.cpf);
      if (byCpf) return byCpf.id;
    }
    return null;
  }

  function insertCustomer(estId: number, input: CustomerInput, nowMs: number): number {
    const info = st.insertCliente.run({
      estabelecimento_id: estId,
      celular: input.celular,
      cpf: input.cpf ?? randomCpfHash(),
      nome: input.nome ?? DEFAULT_NOME,
      email: input.email ?? DEFAULT_EMAIL,
      data_nascimento: input.data_nascimento ?? null,
      genero: input.genero ?? null,
      cep: input.cep ?? null,
      endereco: input.endereco ?? null,
      bairro: input.bairro ?? null,
      cidade: input.cidade ?? null,
      uf: input.estado ?? null,
      data_cadastro_ms: nowMs,
    });
    return Number(info.lastInsertRowid);
  }

  function readWallet(clienteId: number) {
    const rows = st.credits.all(clienteId);
    const debits: Debit[] = st.debits
      .all(clienteId)
      .map((d) => ({ id: d.id, pontos: d.pontos, atMs: d.momento_ms }));
    return { rows, credits: rows.map(toCredit), debits };
  }

  function walletOf(clienteId: number, nowMs: number) {
    const { credits, debits } = readWallet(clienteId);
    return walletAt(credits, debits, nowMs);
  }

  /** Replays the whole wallet and stores each credit's points left (cartela.restante). */
  function storeRestante(clienteId: number): void {
    const { rows, credits, debits } = readWallet(clienteId);
    const left = remainingAfterDebits(credits, debits);
    for (const row of rows) {
      const value = left.get(row.id) ?? 0;
      if (row.restante !== value) st.setRestante.run(value, row.id);
    }
  }

  function grant(
    estId: number,
    clienteId: number,
    premioId: number,
    atMs: number,
    pontoId: number | null,
  ): number {
    const info = st.insertReward.run(
      estId,
      clienteId,
      premioId,
      pontoId,
      atMs,
      rewardValidUntil(atMs),
    );
    return Number(info.lastInsertRowid);
  }

  const registerTx = db.transaction(
    (estId: number, input: CustomerInput, nowMs: number): RegisterResult => {
      const existing = existingCustomer(estId, input);
      if (existing !== null) return { created: false, id: existing };
      return { created: true, id: insertCustomer(estId, input, nowMs) };
    },
  );

  const postTx = db.transaction(
    (
      est: Establishment,
      input: { valor_gasto: number; cliente: CustomerInput; itens: ItemInput[] },
      nowMs: number,
    ): PostingResult => {
      const clienteId =
        existingCustomer(est.id, input.cliente) ?? insertCustomer(est.id, input.cliente, nowMs);

      const pontos = pointsFor(input.valor_gasto, est.centavosPorPonto);
      const ponto = st.insertPonto.run(
        est.id,
        clienteId,
        input.valor_gasto,
        pontos,
        JSON.stringify(input.itens),
        nowMs,
      );
      const idPonto = Number(ponto.lastInsertRowid);
      // Fast path, whatever the history: every credit's points left are known and no debit
      // lies after this instant, so this posting's debits are the last ones replayed and
      // consume, oldest first, only credits with points left (cartela_aberta).
      const latestDebit = st.latestDebit.get(clienteId)?.m ?? null;
      const fast =
        (latestDebit === null || latestDebit <= nowMs) &&
        st.restanteUnknown.get(clienteId) === undefined;
      const dataValidade = creditValidity(nowMs);
      st.insertCredit.run(
        clienteId,
        idPonto,
        pontos,
        nowMs,
        est.carencia ? nextLocalMidnight(nowMs) : null,
        dataValidade,
        creditExpiresAt(dataValidade),
        fast ? pontos : null,
      );

      const loyaltyRewards = st.loyaltyRewards
        .all(est.id)
        .map((r) => ({ id: r.id, custo: r.custo_pontos }));
      const premios: number[] = [];
      let after: { saldo: number; saldoCarencia: number };
      if (fast) {
        const open = st.openCredits.all(clienteId, nowMs);
        const usable = open.filter((c) => c.matura_ms === null || nowMs >= c.matura_ms);
        // Not matured yet: no debit has reached these (none lies after this instant).
        const saldoCarencia = open
          .filter((c) => c.matura_ms !== null && nowMs < c.matura_ms)
          .reduce((sum, c) => sum + c.pontos, 0);
        const saldo = usable.reduce((sum, c) => sum + c.restante, 0);
        const loyalty = loyaltyWins(saldo, loyaltyRewards);
        for (const reward of loyalty.won) {
          const id = grant(est.id, clienteId, reward.id, nowMs, idPonto);
          st.insertDebit.run(clienteId, id, reward.custo, nowMs);
          premios.push(id);
          let due = reward.custo;
          for (const c of usable) {
            if (due <= 0) break;
            const take = Math.min(c.restante, due);
            if (take <= 0) continue;
            c.restante -= take;
            due -= take;
            st.setRestante.run(c.restante, c.id);
          }
        }
        after = { saldo: loyalty.saldo, saldoCarencia };
      } else {
        // x-sandbox-now before a debit already made, or credits from before cartela.restante:
        // replay the whole wallet, then store every credit's points left for next time.
        const before = walletOf(clienteId, nowMs);
        const loyalty = loyaltyWins(before.saldo, loyaltyRewards);
        for (const reward of loyalty.won) {
          const id = grant(est.id, clienteId, reward.id, nowMs, idPonto);
          st.insertDebit.run(clienteId, id, reward.custo, nowMs);
          premios.push(id);
        }
        after =
          loyalty.won.length === 0
            ? { saldo: before.saldo, saldoCarencia: before.saldoCarencia }
            : walletOf(clienteId, nowMs);
        storeRestante(clienteId);
      }
      const campaigns = st.campaigns
        .all(est.id)
        .map((c) => ({ id: c.id, termo: c.termo_campanha }));
      for (const campaign of campaignWins(campaigns, input.itens)) {
        premios.push(grant(est.id, clienteId, campaign.id, nowMs, idPonto));
      }

      return {
        id_cliente: clienteId,
        id_ponto: idPonto,
        saldo_atual: after.saldo,
        saldo_carencia: after.saldoCarencia,
        premios,
      };
    },
  );

  const rewardTransitionTx = db.transaction(
    (id: number, to: 'resgatado' | 'estornado', atMs: number): void => {
      const row = st.reward.get(id);
      if (!row) throw new Error(`premio_cliente ${id} not found`);
      if (effectiveStatus(row.status, row.valido_ate_ms, atMs) !== 'pendente_resgate') {
        throw new Error(`premio_cliente ${id} is not pendente_resgate`);
      }
      if (to === 'resgatado') st.redeem.run(atMs, id);
      else st.reverse.run(atMs, id);
    },
  );

  const handOverTx = db.transaction(
    (estId: number, input: ResgatarInput, nowMs: number): HandOverResult => {
      const cliente = st.byId.get(estId, input.id_cliente);
      if (!cliente) return { outcome: 'customer_not_found' };
      const chosen = rewardToHandOver(
        st.pendingOf.all(cliente.id, input.id_premio).map((r) => ({
          id: r.id,
          status: r.status,
          wonAtMs: r.data_conquista_ms,
          validUntilMs: r.valido_ate_ms,
        })),
        nowMs,
      );
      if (chosen === null) return { outcome: 'none_pending' };
      // Inside an IMMEDIATE transaction nobody else writes between the read and this update,
      // so it always changes the one row; checked all the same rather than answer a 200
      // for a hand-over that did not happen.
      if (st.handOver.run(nowMs, chosen.id).changes !== 1) {
        throw new Error(`premio_cliente ${chosen.id} changed during its hand-over`);
      }
      return { outcome: 'handed_over', id_cliente: cliente.id, id_premio_cliente: chosen.id };
    },
  );

  return {
    establishments(): Establishment[] {
      return st.establishments.all().map(toEstablishment);
    },

    establishment(id: number): Establishment | null {
      const row = st.establishment.get(id);
      return row ? toEstablishment(row) : null;
    },

    findCustomerId,

    /** Registers a customer unless one with that celular or cpf exists in the establishment. */
    registerCustomer(estId: number, input: CustomerInput, nowMs: number): RegisterResult {
      return registerTx.immediate(estId, input, nowMs);
    },

    /**
     * Posts points for a purchase, registering the customer when new, then awards what the
     * posting wins. One IMMEDIATE transaction.
     */
    postPoints(
      est: Establishment,
      input: { valor_gasto: number; cliente: CustomerInput; itens: ItemInput[] },
      nowMs: number,
    ): PostingResult {
      return postTx.immediate(est, input, nowMs);
    },

    /** A reward outside the loyalty and campaign rules (roulette, surprise, game): seed only. */
    grantReward(clienteId: number, premioId: number, atMs: number): number {
      const cliente = st.cliente.get(clienteId);
      const premio = st.premio.get(premioId);
      if (!cliente || !premio || premio.estabelecimento_id !== cliente.estabelecimento_id) {
        throw new Error('customer and reward must exist in the same establishment');
      }
      return grant(cliente.estabelecimento_id, clienteId, premioId, atMs, null);
    },

    redeemReward(id: number, atMs: number): void {
      rewardTransitionTx.immediate(id, 'resgatado', atMs);
    },

    /**
     * Hands over the customer's oldest pending record of a reward (resgatar-premio): it becomes
     * resgatado with data_resgate = `nowMs`. Points do not move (a loyalty reward's cost was
     * debited when it was won); the counters follow, being read from the records. One
     * IMMEDIATE transaction, so two hand-overs of the last pending record, from this
     * connection or another on the same file, take it once.
     */
    handOverReward(estId: number, input: ResgatarInput, nowMs: number): HandOverResult {
      return handOverTx.immediate(estId, input, nowMs);
    },

    reverseReward(id: number, atMs: number): void {
      rewardTransitionTx.immediate(id, 'estornado', atMs);
    },

    customer(id: number, nowMs: number, opts: { historico: boolean }): CustomerResource | null {
      const c = st.cliente.get(id);
      if (!c) return null;
      const wallet = walletOf(id, nowMs);
      const carteira: Carteira = {
        saldo: wallet.saldo,
        saldo_carencia: wallet.saldoCarencia,
        pontos_vencidos: wallet.vencidos.map(toEntry),
        pontos_vencendo: wallet.vencendo.map(toEntry),
      };
      if (opts.historico) carteira.historico = wallet.historico.map(toEntry);
      const purchases = st.purchases.get(id) ?? {
        total: 0,
        compras: 0,
        primeira: null,
        ultima: null,
      };
      const counters = countersFor(
        st.customerRewards.all(id).map((r) => ({
          categoria: r.categoria,
          status: effectiveStatus(r.status, r.valido_ate_ms, nowMs),
        })),
      );
      return {
        id_cliente: c.id,
        nome: c.nome,
        email: c.email,
        data_cadastro: formatTimestamp(c.data_cadastro_ms),
        celular: c.celular,
        cpf: c.cpf,
        data_nascimento: c.data_nascimento,
        genero: c.genero ?? 'NA',
        cep: c.cep,
        endereco: c.endereco,
        bairro: c.bairro,
        cidade: c.cidade,
        uf: c.uf,
        carteira,
        receita: centsToReais(purchases.total),
        compras: purchases.compras,
        primeira_compra: stamp(purchases.primeira),
        ultima_compra: stamp(purchases.ultima),
        ...counters,
      };
    },

    /** EXPLAIN QUERY PLAN of every statement a reward list query runs (tests). */
    rewardListPlans(estId: number, query: RewardQuery, nowMs: number): StatementPlan[] {
      const q = query.q === undefined ? null : searchable(query.q);
      return rewardList.plans(estId, query, q, nowMs);
    },

    /** One page of the establishment's reward records, newest first. */
    listRewards(
      estId: number,
      query: RewardQuery,
      nowMs: number,
    ): { total: number; records: RewardRecord[] } {
      const q = query.q === undefined ? null : searchable(query.q);
      const { total, rows } = rewardList.list(estId, query, q, nowMs);
      return {
        total,
        records: rows.map((r) => ({
          id_premio_cliente: r.id,
          id_cliente: r.cliente_id,
          id_premio: r.premio_id,
          valido_ate: formatTimestamp(r.valido_ate_ms),
          data_resgate: stamp(r.data_resgate_ms),
          data_conquista: formatTimestamp(r.data_conquista_ms),
          estornado_em: stamp(r.estornado_em_ms),
          premio_status: effectiveStatus(r.status, r.valido_ate_ms, nowMs),
          categoria_premio: r.categoria,
          nome: r.nome,
        })),
      };
    },
  };
}

export type Store = ReturnType<typeof createStore>;
