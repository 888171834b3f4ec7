// A purchase posted in the sandbox: its credit, the rewards it wins and the debits they cost.

import { pointsFor } from '#contract/rules/money';
import {
  creditExpiresAt,
  creditValidity,
  nextLocalMidnight,
  rewardValidUntil,
} from '#contract/rules/time';
import type { CustomerInput, ItemInput } from '#contract/rules/validation';
import { existingCustomer, insertCustomer, storeRestante, walletOf } from './customers';
import { campaignWins, loyaltyWins } from './rules/rewards';
import type { Establishment, Statements } from './statements';

export interface PostingResult {
  id_cliente: number;
  id_ponto: number;
  saldo_atual: number;
  saldo_carencia: number;
  /** id_premio_cliente of the rewards this posting won (not on the wire) */
  premios: number[];
}

export function grant(
  st: Statements,
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

/**
 * Posts points for a purchase, registering the customer when new, then awards what the
 * posting wins. Runs inside the caller's transaction.
 */
export function postPoints(
  st: Statements,
  est: Establishment,
  input: { valor_gasto: number; cliente: CustomerInput; itens: ItemInput[] },
  nowMs: number,
): PostingResult {
  const clienteId =
    existingCustomer(st, est.id, input.cliente) ?? insertCustomer(st, est.id, input.cliente, nowMs);

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
      const id = grant(st, est.id, clienteId, reward.id, nowMs, idPonto);
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
    const before = walletOf(st, clienteId, nowMs);
    const loyalty = loyaltyWins(before.saldo, loyaltyRewards);
    for (const reward of loyalty.won) {
      const id = grant(st, est.id, clienteId, reward.id, nowMs, idPonto);
      st.insertDebit.run(clienteId, id, reward.custo, nowMs);
      premios.push(id);
    }
    after =
      loyalty.won.length === 0
        ? { saldo: before.saldo, saldoCarencia: before.saldoCarencia }
        : walletOf(st, clienteId, nowMs);
    storeRestante(st, clienteId);
  }
  const campaigns = st.campaigns.all(est.id).map((c) => ({ id: c.id, termo: c.termo_campanha }));
  for (const campaign of campaignWins(campaigns, input.itens)) {
    premios.push(grant(st, est.id, clienteId, campaign.id, nowMs, idPonto));
  }

  return {
    id_cliente: clienteId,
    id_ponto: idPonto,
    saldo_atual: after.saldo,
    saldo_carencia: after.saldoCarencia,
    premios,
  };
}
