// The sandbox's customers: finding, registering, and the resource the service answers with
// (wallet, purchases, reward counters).

import { centsToReais } from '#contract/rules/money';
import { formatTimestamp } from '#contract/rules/time';
import type { CustomerInput, LookupKey } from '#contract/rules/validation';
import { randomCpfHash } from './rules/cpf';
import { countersFor, effectiveStatus, type Counters } from './rules/rewards';
import {
  remainingAfterDebits,
  walletAt,
  type Credit,
  type Debit,
  type WalletEntry,
} from './rules/wallet';
import type { CreditRow, Statements } from './statements';

const DEFAULT_NOME = 'CLIENTE DESCONHECIDO';
const DEFAULT_EMAIL = 'invalido@invalido.com.br';

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

export const stamp = (ms: number | null): string | null =>
  ms === null ? null : formatTimestamp(ms);

export function findCustomerId(st: Statements, estId: number, key: LookupKey): number | null {
  const row =
    key.by === 'id_cliente'
      ? st.byId.get(estId, key.value)
      : key.by === 'cpf'
        ? st.byCpf.get(estId, key.value)
        : st.byCelular.get(estId, key.value);
  return row?.id ?? null;
}

/** An existing customer of the establishment: by celular first, then by cpf. */
export function existingCustomer(
  st: Statements,
  estId: number,
  input: CustomerInput,
): number | null {
  const byCelular = st.byCelular.get(estId, input.celular);
  if (byCelular) return byCelular.id;
  if (input.cpf !== undefined) {
    const byCpf = st.byCpf.get(estId, input.cpf);
    if (byCpf) return byCpf.id;
  }
  return null;
}

export function insertCustomer(
  st: Statements,
  estId: number,
  input: CustomerInput,
  nowMs: number,
): number {
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

export function readWallet(st: Statements, clienteId: number) {
  const rows = st.credits.all(clienteId);
  const debits: Debit[] = st.debits
    .all(clienteId)
    .map((d) => ({ id: d.id, pontos: d.pontos, atMs: d.momento_ms }));
  return { rows, credits: rows.map(toCredit), debits };
}

export function walletOf(st: Statements, clienteId: number, nowMs: number) {
  const { credits, debits } = readWallet(st, clienteId);
  return walletAt(credits, debits, nowMs);
}

/** Replays the whole wallet and stores each credit's points left (cartela.restante). */
export function storeRestante(st: Statements, clienteId: number): void {
  const { rows, credits, debits } = readWallet(st, clienteId);
  const left = remainingAfterDebits(credits, debits);
  for (const row of rows) {
    const value = left.get(row.id) ?? 0;
    if (row.restante !== value) st.setRestante.run(value, row.id);
  }
}

/** A customer as the service answers it, with the wallet as of `nowMs`. */
export function customerResource(
  st: Statements,
  id: number,
  nowMs: number,
  opts: { historico: boolean },
): CustomerResource | null {
  const c = st.cliente.get(id);
  if (!c) return null;
  const wallet = walletOf(st, id, nowMs);
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
}
