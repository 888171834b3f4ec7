import type { Role } from '../store';

/** The four operations of the service's spec: the only paths the app server forwards. */
export type OperationName = 'pontuar' | 'buscar' | 'cadastrar' | 'recompensas';

export interface Operation {
  name: OperationName;
  method: 'GET' | 'POST';
  /** After `/api/v4/estabelecimentos/{id}/`. */
  path: string;
}

export const OPERATIONS: readonly Operation[] = [
  { name: 'pontuar', method: 'POST', path: 'fidelidade/pontuar' },
  { name: 'buscar', method: 'POST', path: 'clientes/buscar' },
  { name: 'cadastrar', method: 'POST', path: 'clientes/cadastrar' },
  { name: 'recompensas', method: 'GET', path: 'recompensas' },
];

/** The operation at `rest` (the path after the establishment), or null. */
export function operationAt(rest: string): Operation | null {
  return OPERATIONS.find((op) => op.path === rest) ?? null;
}

/**
 * What each role may do. caixa: find, register, post and one customer's rewards (the list
 * with `id_cliente`); gerente: all of it, the rewards table included; quiosque: no raw
 * service route at all (the kiosk gets its own narrow endpoints).
 */
export function roleMay(role: Role, op: OperationName, query: URLSearchParams): boolean {
  if (role === 'gerente') return true;
  if (role === 'quiosque') return false;
  if (op === 'recompensas') return /^\d+$/.test(query.get('id_cliente') ?? '');
  return true;
}

/** What the SPA may show to a role (beside roleMay so the two cannot drift): gerente sees all. */
export function navigationFor(role: Role): { caixa: boolean; premios: boolean; quiosque: boolean } {
  return { caixa: role !== 'quiosque', premios: role === 'gerente', quiosque: role !== 'caixa' };
}
