import type { Role } from '../../store';
export type { Role };

/**
 * The four operations of the service's spec and the fifth of its developer documentation
 * (`resgatar-premio`, decisions.md "Handing a reward over"): the only paths forwarded.
 */
export type OperationName = 'pontuar' | 'buscar' | 'cadastrar' | 'recompensas' | 'resgatar-premio';

export interface Operation {
  name: OperationName;
  method: 'GET' | 'POST';
  /** After `/api/v4/estabelecimentos/{id}/`. */
  path: string;
  /**
   * The query parameters it takes: the spec's (for recompensas, the nine of its section 4, as
   * the SPA's RewardFilters); the POST operations take their input as JSON.
   */
  params: readonly string[];
  /** It carries the attendant password (counted by the password lockout). */
  password?: boolean;
}

export const OPERATIONS: readonly Operation[] = [
  { name: 'pontuar', method: 'POST', path: 'fidelidade/pontuar', params: [], password: true },
  {
    name: 'resgatar-premio',
    method: 'POST',
    path: 'fidelidade/resgatar-premio',
    params: [],
    password: true,
  },
  { name: 'buscar', method: 'POST', path: 'clientes/buscar', params: [] },
  { name: 'cadastrar', method: 'POST', path: 'clientes/cadastrar', params: [] },
  {
    name: 'recompensas',
    method: 'GET',
    path: 'recompensas',
    params: [
      'filtrar_por',
      'status',
      'categoria',
      'data_inicio',
      'data_fim',
      'q',
      'itens_por_pagina',
      'id_cliente',
      'page',
    ],
  },
];

/** The operation at `rest` (the path after the establishment), or null. */
export function operationAt(rest: string): Operation | null {
  return OPERATIONS.find((op) => op.path === rest) ?? null;
}

export type CanonicalQuery =
  | { ok: true; query: URLSearchParams }
  | { ok: false; reason: 'repeated' | 'unknown'; name: string };

/**
 * The one reading of a request's query that is both checked (roleMay) and forwarded: each of
 * the operation's own parameters at most once. A repeated name is refused, since readers
 * disagree on it (URLSearchParams.get takes the first, the service (PHP) the last); so is a
 * name the operation does not take, since PHP also reads `id.cliente`, `id cliente` and
 * `id_cliente[]` as `id_cliente`, and Laravel merges a POST's query into its JSON input.
 * Names are compared decoded (`id%5Fcliente` is `id_cliente`).
 */
export function canonicalQuery(op: Operation, search: string): CanonicalQuery {
  const query = new URLSearchParams(search);
  const seen = new Set<string>();
  for (const name of query.keys()) {
    if (!op.params.includes(name)) return { ok: false, reason: 'unknown', name };
    if (seen.has(name)) return { ok: false, reason: 'repeated', name };
    seen.add(name);
  }
  return { ok: true, query };
}

/**
 * A manager's reads (the dashboard, the rewards table, every terminal's ledger, the
 * conferência, the audit trail): a store's `gerente` and the chain's `rede`, who reads as a
 * gerente does but posts, registers and hands over nothing.
 */
export function readsAsManager(role: Role | null | undefined): boolean {
  return role === 'gerente' || role === 'rede';
}

/**
 * What each role may do. caixa: find, register, post and one customer's rewards (the list
 * with `id_cliente`) and hand a reward over; gerente: all of it, the rewards table included;
 * rede: the reads only (find a customer, the rewards table); quiosque: no raw service route at
 * all (the kiosk gets its own narrow endpoints).
 */
export function roleMay(role: Role, op: OperationName, query: URLSearchParams): boolean {
  if (role === 'gerente') return true;
  if (role === 'rede') return op === 'buscar' || op === 'recompensas';
  if (role === 'quiosque' || role === 'integracao') return false;
  if (op === 'recompensas') return /^\d+$/.test(query.get('id_cliente') ?? '');
  return true;
}

/** What the SPA may show to a role (beside roleMay so the two cannot drift): gerente sees all. */
export function navigationFor(role: Role): {
  caixa: boolean;
  premios: boolean;
  painel: boolean;
  auditoria: boolean;
  lancamentos: boolean;
  vigilancia: boolean;
  terminais: boolean;
  quiosque: boolean;
} {
  return {
    caixa: role === 'caixa' || role === 'gerente',
    premios: readsAsManager(role),
    painel: readsAsManager(role),
    auditoria: readsAsManager(role),
    // The shift ledgers as a screen: a store's gerente (its own), the chain's rede (any store).
    lancamentos: readsAsManager(role),
    // Vigilância: the store's manager decides; the chain's rede reads every store's alerts.
    vigilancia: readsAsManager(role),
    // Terminais: a store's gerente (its own), the chain's rede (every store).
    terminais: readsAsManager(role),
    quiosque: role === 'quiosque' || role === 'gerente',
  };
}
