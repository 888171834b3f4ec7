// The sandbox's operations over its database: plain functions over one transaction each,
// using the rules in ./rules. Routes call these; so does the seed. The statements, the
// customers and the posting live beside it (statements.ts, customers.ts, posting.ts).

import type { Db } from './db';
import { effectiveStatus, rewardToHandOver, type Category, type Status } from './rules/rewards';
import { formatTimestamp } from '#contract/rules/time';
import type { CustomerInput, ItemInput, ResgatarInput } from '#contract/rules/validation';
import type { RewardQuery } from '#contract/rules/reward-query';
import { createRewardList, type RewardRow, type StatementPlan } from './reward-list';
import {
  customerResource,
  existingCustomer,
  findCustomerId,
  insertCustomer,
  stamp,
  type CustomerResource,
} from './customers';
import { grant, postPoints, type PostingResult } from './posting';
import { prepareStatements, toEstablishment, type Establishment } from './statements';

export type { Establishment } from './statements';

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

/** What a hand-over (resgatar-premio) did. */
export type HandOverResult =
  | { outcome: 'handed_over'; id_cliente: number; id_premio_cliente: number }
  /** No such customer in the establishment. */
  | { outcome: 'customer_not_found' }
  /** The customer has no record of that reward pending (never won, handed over, expired). */
  | { outcome: 'none_pending' };

export type RegisterResult = { created: true; id: number } | { created: false; id: number };

/** The lower-cased form `q` is matched against. */
export const searchable = (s: string): string => s.normalize('NFC').toLocaleLowerCase('pt-BR');

export function createStore(db: Db) {
  const st = prepareStatements(db);

  const rewardList = createRewardList(db);

  const registerTx = db.transaction(
    (estId: number, input: CustomerInput, nowMs: number): RegisterResult => {
      const existing = existingCustomer(st, estId, input);
      if (existing !== null) return { created: false, id: existing };
      return { created: true, id: insertCustomer(st, estId, input, nowMs) };
    },
  );

  const postTx = db.transaction(
    (
      est: Establishment,
      input: { valor_gasto: number; cliente: CustomerInput; itens: ItemInput[] },
      nowMs: number,
    ): PostingResult => postPoints(st, est, input, nowMs),
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

    findCustomerId: (estId: number, key: Parameters<typeof findCustomerId>[2]) =>
      findCustomerId(st, estId, key),

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
      return grant(st, cliente.estabelecimento_id, clienteId, premioId, atMs, null);
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
      return customerResource(st, id, nowMs, opts);
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
        records: rows.map((r) => toRewardRecord(r, nowMs)),
      };
    },
  };
}

export type Store = ReturnType<typeof createStore>;

function toRewardRecord(r: RewardRow, nowMs: number): RewardRecord {
  return {
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
  };
}
