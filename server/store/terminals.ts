/**
 * Terminals and their one-time enrollment codes; what a terminal is and which one a
 * credential names are in ./terminals/, re-exported here.
 */
import { createHash, randomBytes, randomInt } from 'node:crypto';
import type { Store } from './store';
import type { Role } from './schema';
import { terminalChanged } from './terminals/active';
import {
  COLUMNS,
  TERMINAL_COLUMNS,
  storeTerminalIds,
  toTerminal,
  type ListedTerminal,
  type StoreScope,
  type Terminal,
  type TerminalStatus,
} from './terminals/model';

export { activeTerminal } from './terminals/active';
export { addIntegration, integrationByToken, pairIntegration } from './terminals/integration';
export {
  inStoreScope,
  storeTerminalIds,
  type ListedTerminal,
  type StoreScope,
  type Terminal,
} from './terminals/model';

export const ENROLLMENT_CODE_TTL_MS = 15 * 60_000;

/** No 0/O, 1/I/L: a code is read off one screen and typed on another. */
const CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const CODE_LENGTH = 8;

/** Upper-case, without the spaces and dashes a person may type. */
export function normaliseCode(code: string): string {
  return code.toUpperCase().replace(/[\s-]/g, '');
}

function hashCode(code: string): string {
  return createHash('sha256').update(normaliseCode(code)).digest('hex');
}

/** `ABCD-EFGH` from 8 letter indexes of the unambiguous alphabet. */
function spellCode(pick: (i: number) => number): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i++) code += CODE_ALPHABET[pick(i)];
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** A random code (about 40 bits). */
function newCode(): string {
  return spellCode(() => randomInt(CODE_ALPHABET.length));
}

/**
 * The code a request names by its idempotency key: derived from `seed` (an HMAC under the
 * app's secret, so it is as unguessable as a random one), the same for the same request
 * sent again. Each letter takes 16 bits of the seed (the alphabet's 31 letters almost evenly).
 */
export function codeFromSeed(seed: Buffer): string {
  if (seed.length < CODE_LENGTH * 2) throw new Error('the seed is too short');
  return spellCode((i) => seed.readUInt16BE(i * 2) % CODE_ALPHABET.length);
}

/** Creates a terminal waiting for enrollment and its one-time code (shown once, stored hashed). */
export async function addTerminal(
  store: Store,
  input: {
    name: string;
    role: Role;
    ttlMs?: number;
    establishmentId?: number | null;
    /** The code to give (codeFromSeed: a request sent again); default: a random one. */
    code?: string;
  },
): Promise<{ terminal: Terminal; code: string; expiresAt: number }> {
  const name = input.name.trim();
  if (name === '' || name.length > 60) throw new Error('the name must have 1 to 60 characters');
  const now = store.now();
  const code = input.code ?? newCode();
  const expiresAt = now + (input.ttlMs ?? ENROLLMENT_CODE_TTL_MS);
  const terminal = await store.transaction(async (trx) => {
    const row = await trx
      .insertInto('terminals')
      .values({
        name,
        role: input.role,
        created_at: now,
        establishment_id: input.establishmentId ?? null,
      })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('enrollment_codes')
      .values({
        code_hash: hashCode(code),
        terminal_id: row.id,
        created_at: now,
        expires_at: expiresAt,
      })
      .execute();
    return toTerminal(row);
  });
  return { terminal, code, expiresAt };
}

/**
 * Redeems a code: at most once, before it expires, for a terminal not revoked. Gives the
 * terminal a new credential nonce (a previous enrollment's cookie stops working).
 */
export async function redeemCode(
  store: Store,
  code: string,
  /** A chain's store: only a code of one of its terminals (null: any). */
  scope: StoreScope | null = null,
): Promise<{ terminal: Terminal; nonce: string } | null> {
  const now = store.now();
  const nonce = randomBytes(18).toString('base64url');
  const redeemed = await store.transaction(async (trx) => {
    let q = trx
      .updateTable('enrollment_codes')
      .set({ used_at: now })
      .where('code_hash', '=', hashCode(code))
      .where('used_at', 'is', null)
      .where('expires_at', '>', now);
    if (scope !== null) q = q.where('terminal_id', 'in', storeTerminalIds(store.db, scope));
    const used = await q.returning('terminal_id').executeTakeFirst();
    if (used === undefined) return null;
    const row = await trx
      .updateTable('terminals')
      .set({ enrolled_at: now, credential_nonce: nonce, last_seen_at: now })
      .where('id', '=', used.terminal_id)
      .where('revoked_at', 'is', null)
      .returning(COLUMNS)
      .executeTakeFirst();
    return row === undefined ? null : { terminal: toTerminal(row), nonce };
  });
  // Its previous credential (an earlier enrollment) stops working everywhere.
  if (redeemed !== null) await terminalChanged(store, redeemed.terminal.id);
  return redeemed;
}

/**
 * Enrolls a new terminal at once, without a code (sandbox on loopback: the demo data is
 * fake). Returns its credential nonce.
 */
export async function enrollDirectly(
  store: Store,
  input: { name: string; role: Role; establishmentId?: number | null },
): Promise<{ terminal: Terminal; nonce: string }> {
  const now = store.now();
  const nonce = randomBytes(18).toString('base64url');
  const row = await store.db
    .insertInto('terminals')
    .values({
      name: input.name,
      role: input.role,
      created_at: now,
      enrolled_at: now,
      credential_nonce: nonce,
      last_seen_at: now,
      establishment_id: input.establishmentId ?? null,
    })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return { terminal: toTerminal(row), nonce };
}

/** Revokes a terminal: its next request is refused. False when there is no such terminal. */
export async function revokeTerminal(store: Store, id: number): Promise<boolean> {
  const now = store.now();
  const res = await store.transaction(async (trx) => {
    await trx
      .deleteFrom('enrollment_codes')
      .where('terminal_id', '=', id)
      .where('used_at', 'is', null)
      .execute();
    return trx
      .updateTable('terminals')
      .set((eb) => ({
        revoked_at: eb.fn.coalesce('revoked_at', eb.val(now)),
        credential_nonce: null,
      }))
      .where('id', '=', id)
      .returning('id')
      .executeTakeFirst();
  });
  if (res !== undefined) await terminalChanged(store, id);
  return res !== undefined;
}

/** Every terminal, or (`scope`) one store's. */
export async function listTerminals(
  store: Store,
  scope?: StoreScope | null,
): Promise<ListedTerminal[]> {
  const now = store.now();
  let q = store.db.selectFrom('terminals');
  if (scope !== undefined && scope !== null) {
    q = q.where('terminals.id', 'in', storeTerminalIds(store.db, scope));
  }
  const rows = await q
    .leftJoin(
      (eb) =>
        eb
          .selectFrom('enrollment_codes')
          .select(['terminal_id', (e) => e.fn.max('expires_at').as('code_expires_at')])
          .where('used_at', 'is', null)
          .groupBy('terminal_id')
          .as('c'),
      (join) => join.onRef('c.terminal_id', '=', 'terminals.id'),
    )
    .select([...TERMINAL_COLUMNS, 'c.code_expires_at'])
    .orderBy('terminals.id')
    .execute();
  return rows.map((r) => {
    const codeExpiresAt = r.code_expires_at === null ? null : Number(r.code_expires_at);
    const status: TerminalStatus =
      r.revoked_at !== null
        ? 'revogado'
        : r.enrolled_at !== null
          ? 'ativo'
          : codeExpiresAt !== null && codeExpiresAt > now
            ? 'aguardando código'
            : 'código expirado';
    return {
      ...toTerminal(r),
      status,
      codeExpiresAt: status === 'aguardando código' ? codeExpiresAt : null,
    };
  });
}

/**
 * Terminals from before the chain (no store named) become the default store's: run once at
 * start by every replica (idempotent), so that every terminal names its store.
 */
export async function adoptTerminals(store: Store, establishmentId: number): Promise<number> {
  const res = await store.db
    .updateTable('terminals')
    .set({ establishment_id: establishmentId })
    .where('establishment_id', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/**
 * The terminal an enrollment code was made for, used or not, and the code's expiry (null: no
 * such code). A request sent again with its idempotency key finds what it made the first time.
 */
export async function enrollmentOfCode(
  store: Store,
  code: string,
): Promise<{ terminal: Terminal; expiresAt: number } | null> {
  const row = await store.db
    .selectFrom('enrollment_codes')
    .innerJoin('terminals', 'terminals.id', 'enrollment_codes.terminal_id')
    .select([...TERMINAL_COLUMNS, 'enrollment_codes.expires_at'])
    .where('enrollment_codes.code_hash', '=', hashCode(code))
    .executeTakeFirst();
  if (row === undefined) return null;
  return { terminal: toTerminal(row), expiresAt: Number(row.expires_at) };
}

/** One terminal by id, revoked or not (null: no such terminal). */
export async function terminalById(store: Store, id: number): Promise<Terminal | null> {
  const row = await store.db
    .selectFrom('terminals')
    .select(COLUMNS)
    .where('id', '=', id)
    .executeTakeFirst();
  return row === undefined ? null : toTerminal(row);
}

/** The role of an active terminal (undefined: no such terminal, or revoked). */
export async function activeTerminalRole(store: Store, id: number): Promise<Role | undefined> {
  const row = await store.db
    .selectFrom('terminals')
    .select('role')
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return row?.role as Role | undefined;
}

/** The store of the terminal an unused enrollment code is for (undefined: no such code). */
export async function codeStore(store: Store, code: string): Promise<number | null | undefined> {
  const row = await store.db
    .selectFrom('enrollment_codes')
    .innerJoin('terminals', 'terminals.id', 'enrollment_codes.terminal_id')
    .select('terminals.establishment_id')
    .where('enrollment_codes.code_hash', '=', hashCode(code))
    .where('enrollment_codes.used_at', 'is', null)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  return row.establishment_id === null ? null : Number(row.establishment_id);
}

/** The store a terminal belongs to (null: default store; undefined: no such terminal). */
export async function terminalStore(store: Store, id: number): Promise<number | null | undefined> {
  const row = await store.db
    .selectFrom('terminals')
    .select('establishment_id')
    .where('id', '=', id)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  return row.establishment_id === null ? null : Number(row.establishment_id);
}
