// The sandbox's prepared statements, one per read or write of its tables.

import type { Db } from './db';
import type { Category, StoredStatus } from './rules/rewards';

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

export interface ClienteRow {
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

export interface CreditRow {
  id: number;
  restante: number | null;
  pontos: number;
  data_ms: number;
  matura_ms: number | null;
  data_validade: string;
  expira_ms: number;
}

export const toEstablishment = (r: EstablishmentRow): Establishment => ({
  id: r.id,
  nome: r.nome,
  appToken: r.app_token,
  accessToken: r.access_token,
  senhaAtendente: r.senha_atendente,
  centavosPorPonto: r.centavos_por_ponto,
  carencia: r.carencia === 1,
});

export function prepareStatements(db: Db) {
  return {
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
}

export type Statements = ReturnType<typeof prepareStatements>;
