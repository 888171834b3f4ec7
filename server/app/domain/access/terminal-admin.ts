/**
 * A manager's changes to a store's terminals, one implementation for `npm run terminal` and
 * the "Terminais" screen (http/terminais.ts): a new terminal and its one-time enrollment code,
 * a revocation, a counter's customer display (the kiosk its PDV sales go straight to). Each
 * change is written to the audit trail of the terminal's store, naming who did it.
 *
 * Who may do what (`managerMay`, `storeAllowed`) is decided here too: a store's `gerente`
 * manages its own store's terminals and never creates nor revokes a `rede`; the chain's `rede`
 * manages every store the deployment serves.
 */
import { createHmac } from 'node:crypto';
import type { CreatableRole, TerminalItemWire, TerminalListWire } from '#contract/api/terminais';
import {
  addTerminal,
  codeFromSeed,
  enrollmentOfCode,
  inStoreScope,
  listStores,
  listTerminals,
  pdvDisplays,
  revokeTerminal,
  setPdvDisplay,
  terminalById,
} from '../../../store';
import type { ListedTerminal, Role, Store, StoreScope, Terminal } from '../../../store';
import { createAuditTrail } from '../audit';
import type { Actor, AuditDeps } from '../audit';

export interface TerminalAdminDeps {
  store: Store;
  /**
   * APP_SECRET: the code of a request with an idempotency key is derived under it (absent:
   * `npm run terminal`, which sends no key).
   */
  secret?: string;
  /**
   * The default store's establishment: the terminals naming no store are its. Null: not known
   * (`npm run terminal` without LOYALTY_ESTABLISHMENT_ID), those terminals name no store.
   */
  defaultId: number | null;
  log?: AuditDeps['log'];
}

/** The terminal asking, as the screen's routes know it, and its store. */
export interface Manager {
  id: number;
  role: Role;
  /** Its store (establishment id). */
  establishmentId: number;
}

/** What a role may create on the screen: a gerente never a `rede`. */
export function creatableBy(role: Role): CreatableRole[] {
  if (role === 'rede') return ['caixa', 'gerente', 'quiosque', 'rede'];
  if (role === 'gerente') return ['caixa', 'gerente', 'quiosque'];
  return [];
}

/** Whether a role may use the screen at all (a cashier, a kiosk, a PDV: never). */
export function managesTerminals(role: Role): boolean {
  return role === 'gerente' || role === 'rede';
}

/** The store a terminal belongs to (a row naming none: the default store's). */
export function storeOfTerminal(deps: TerminalAdminDeps, t: Terminal): number | null {
  return t.establishmentId ?? deps.defaultId;
}

/** The stores the deployment serves: the default store first, then `npm run loja`'s. */
export async function servedStores(
  deps: TerminalAdminDeps,
  names: { defaultName: string | null },
): Promise<{ id: number; nome: string }[]> {
  const others = await listStores(deps.store);
  const out: { id: number; nome: string }[] = [];
  if (deps.defaultId !== null) {
    out.push({ id: deps.defaultId, nome: names.defaultName ?? `Loja ${deps.defaultId}` });
  }
  for (const s of others) {
    if (s.establishmentId !== deps.defaultId) out.push({ id: s.establishmentId, nome: s.name });
  }
  return out;
}

/** Whether `manager` may manage the terminals of store `target`. */
export async function storeAllowed(
  deps: TerminalAdminDeps,
  manager: Manager,
  target: number,
): Promise<boolean> {
  if (target === manager.establishmentId) return true;
  if (manager.role !== 'rede') return false;
  if (target === deps.defaultId) return true;
  return (await listStores(deps.store)).some((s) => s.establishmentId === target);
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function toItem(
  deps: TerminalAdminDeps,
  t: ListedTerminal,
  displays: Map<number, number>,
  viewerId: number | null,
): TerminalItemWire {
  return {
    id: t.id,
    nome: t.name,
    papel: t.role,
    loja: storeOfTerminal(deps, t) ?? 0,
    estado: t.status,
    criado_em: new Date(t.createdAt).toISOString(),
    visto_em: iso(t.lastSeenAt),
    revogado_em: iso(t.revokedAt),
    codigo_expira_em: iso(t.codeExpiresAt),
    caixa: t.counterId,
    quiosque_direto: displays.get(t.id) ?? null,
    este: t.id === viewerId,
  };
}

const scopeOf = (deps: TerminalAdminDeps, establishmentId: number): StoreScope => ({
  establishmentId,
  orUnnamed: deps.defaultId === null || establishmentId === deps.defaultId,
});

/** One store's terminals as the screen lists them, the asking terminal marked. */
export async function storeTerminals(
  deps: TerminalAdminDeps,
  establishmentId: number,
  viewerId: number | null,
): Promise<TerminalListWire['itens']> {
  const [terminals, displays] = await Promise.all([
    listTerminals(deps.store, scopeOf(deps, establishmentId)),
    pdvDisplays(deps.store),
  ]);
  return terminals.map((t) => toItem(deps, t, displays, viewerId));
}

/** One terminal as the screen lists it (null: there is none). */
export async function terminalItem(
  deps: TerminalAdminDeps,
  id: number,
  viewerId: number | null,
): Promise<TerminalItemWire | null> {
  const t = await terminalById(deps.store, id);
  if (t === null) return null;
  const listed = await listTerminals(deps.store, scopeOf(deps, storeOfTerminal(deps, t) ?? 0));
  const found = listed.find((x) => x.id === id);
  if (found === undefined) return null;
  return toItem(deps, found, await pdvDisplays(deps.store), viewerId);
}

/** The audit trail of store `establishmentId` (null: a single store's, naming none). */
function trailOf(deps: TerminalAdminDeps, establishmentId: number | null) {
  return createAuditTrail({
    store: deps.store,
    ...(deps.log === undefined ? {} : { log: deps.log }),
    ...(establishmentId === null
      ? {}
      : { establishmentId, ...(deps.defaultId === null ? {} : { defaultId: deps.defaultId }) }),
  });
}

/** How a terminal is named in an audit entry. */
const named = (t: Pick<Terminal, 'id' | 'name' | 'role'>) => ({
  id: t.id,
  nome: t.name,
  papel: t.role,
});
/** The store in an entry's details, when it is known. */
const lojaOf = (id: number | null) => (id === null ? {} : { loja: id });

export type CreateOutcome =
  | { kind: 'created' | 'again'; terminal: Terminal; code: string; expiresAt: number }
  | { kind: 'key-reused' };

/**
 * A new terminal of store `establishmentId` (null: the default store, as the CLI names it)
 * waiting for its one-time code, audited as `terminal.criado`. With an idempotency key the
 * code is derived from it and the asking terminal: the same request again finds the same
 * terminal and gives the same code (`again`, not audited twice); the key with another name,
 * role or store is `key-reused`.
 */
export async function createEnrollment(
  deps: TerminalAdminDeps,
  actor: Actor,
  input: { name: string; role: Role; establishmentId: number | null; key?: string | null },
): Promise<CreateOutcome> {
  const key = input.key ?? null;
  if (key !== null && deps.secret === undefined)
    throw new Error('an idempotency key needs the secret');
  const code =
    key === null || deps.secret === undefined
      ? undefined
      : codeFromSeed(
          createHmac('sha256', deps.secret)
            .update(`terminal-code\0${actor.terminalId ?? 'cli'}\0${key}`)
            .digest(),
        );
  const sameRequest = async (): Promise<CreateOutcome | null> => {
    if (code === undefined) return null;
    const found = await enrollmentOfCode(deps.store, code);
    if (found === null) return null;
    const t = found.terminal;
    const same =
      t.name === input.name.trim() &&
      t.role === input.role &&
      t.establishmentId === input.establishmentId;
    return same
      ? { kind: 'again', terminal: t, code, expiresAt: found.expiresAt }
      : { kind: 'key-reused' };
  };
  const before = await sameRequest();
  if (before !== null) return before;
  let made: Awaited<ReturnType<typeof addTerminal>>;
  try {
    made = await addTerminal(deps.store, {
      name: input.name,
      role: input.role,
      establishmentId: input.establishmentId,
      ...(code === undefined ? {} : { code }),
    });
  } catch (err) {
    // The same request, sent twice at once: the other one made it (the code is the key).
    const raced = await sameRequest();
    if (raced !== null) return raced;
    throw err;
  }
  await trailOf(deps, input.establishmentId).recordOrThrow(actor, 'terminal.criado', {
    terminal: named(made.terminal),
    ...lojaOf(input.establishmentId),
  });
  return { kind: 'created', ...made };
}

export type RevokeOutcome = 'revoked' | 'already' | 'not-found';

/**
 * Revokes terminal `id`: its next request is refused, on every replica (store/terminals.ts).
 * Audited as `terminal.revogado` once (a terminal revoked before stays as it was).
 */
export async function revokeAs(
  deps: TerminalAdminDeps,
  actor: Actor,
  id: number,
): Promise<RevokeOutcome> {
  const before = await terminalById(deps.store, id);
  if (before === null || !(await revokeTerminal(deps.store, id))) return 'not-found';
  if (before.revokedAt !== null) return 'already';
  await trailOf(deps, before.establishmentId).recordOrThrow(actor, 'terminal.revogado', {
    terminal: named(before),
    ...lojaOf(before.establishmentId),
  });
  return 'revoked';
}

export type PairOutcome = 'ok' | 'unchanged' | 'no-counter' | 'no-kiosk' | 'other-store';

/**
 * A counter's customer display: every PDV sale of counter `counterId` goes straight to kiosk
 * `kioskId` (null: the sales wait at the counter). A kiosk of the counter's store only.
 * Audited as `terminal.pareado` when it changes.
 */
export async function pairDisplayAs(
  deps: TerminalAdminDeps,
  actor: Actor,
  counterId: number,
  kioskId: number | null,
): Promise<PairOutcome> {
  const before = (await pdvDisplays(deps.store)).get(counterId) ?? null;
  const outcome = await setPdvDisplay(deps.store, counterId, kioskId);
  if (outcome !== 'ok') return outcome;
  if (before === kioskId) return 'unchanged';
  const [counter, kiosk] = await Promise.all([
    terminalById(deps.store, counterId),
    kioskId === null ? null : terminalById(deps.store, kioskId),
  ]);
  const establishmentId = counter?.establishmentId ?? null;
  await trailOf(deps, establishmentId).recordOrThrow(actor, 'terminal.pareado', {
    caixa: { id: counterId, nome: counter?.name ?? null },
    quiosque: kiosk === null ? null : { id: kiosk.id, nome: kiosk.name },
    ...lojaOf(establishmentId),
  });
  return 'ok';
}

/** Whether terminal `t` is within store `establishmentId`. */
export function inStore(deps: TerminalAdminDeps, t: Terminal, establishmentId: number): boolean {
  return inStoreScope(scopeOf(deps, establishmentId), t.establishmentId);
}

export { terminalById };
