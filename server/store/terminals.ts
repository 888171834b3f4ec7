/** Terminals and their one-time enrollment codes. */
import { createHash, randomBytes, randomInt } from 'node:crypto';
import type { Store } from './store';
import type { Role } from './schema';

export const ENROLLMENT_CODE_TTL_MS = 15 * 60_000;
/** last_seen_at is written at most this often per terminal (a write per request is wasteful). */
const SEEN_EVERY_MS = 60_000;

/** No 0/O, 1/I/L: a code is read off one screen and typed on another. */
const CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const CODE_LENGTH = 8;

export interface Terminal {
  id: number;
  name: string;
  role: Role;
  createdAt: number;
  enrolledAt: number | null;
  revokedAt: number | null;
  lastSeenAt: number | null;
  /** `integracao`: the counter terminal it rings up for. */
  counterId: number | null;
  /** The store (establishment) it belongs to; null: the default store (rows from before). */
  establishmentId: number | null;
}

export type TerminalStatus = 'aguardando código' | 'código expirado' | 'ativo' | 'revogado';

export interface ListedTerminal extends Terminal {
  status: TerminalStatus;
  /** Expiry of the newest unused code, when the terminal is still waiting for it. */
  codeExpiresAt: number | null;
}

/**
 * One store of a chain as the store reads it: its establishment's rows and, for the default
 * store, the rows naming none (written before the chain, or by a tool that named no store).
 */
export interface StoreScope {
  establishmentId: number;
  orUnnamed: boolean;
}

/** Whether a row's establishment is within `scope` (always, with no scope). */
export function inStoreScope(
  scope: StoreScope | null | undefined,
  establishmentId: number | null,
): boolean {
  return (
    scope === null ||
    scope === undefined ||
    establishmentId === scope.establishmentId ||
    (scope.orUnnamed && establishmentId === null)
  );
}

/** The ids of the terminals of `scope`'s store: a subquery for `terminal_id in (…)`. */
export function storeTerminalIds(db: Store['db'], scope: StoreScope) {
  return db
    .selectFrom('terminals')
    .select('terminals.id')
    .where((eb) =>
      scope.orUnnamed
        ? eb.or([
            eb('terminals.establishment_id', '=', scope.establishmentId),
            eb('terminals.establishment_id', 'is', null),
          ])
        : eb('terminals.establishment_id', '=', scope.establishmentId),
    );
}

/** Upper-case, without the spaces and dashes a person may type. */
export function normaliseCode(code: string): string {
  return code.toUpperCase().replace(/[\s-]/g, '');
}

function hashCode(code: string): string {
  return createHash('sha256').update(normaliseCode(code)).digest('hex');
}

/** `ABCD-EFGH`: random from the unambiguous alphabet (about 40 bits). */
function newCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

type Row = {
  id: number;
  name: string;
  role: Role;
  created_at: number;
  enrolled_at: number | null;
  revoked_at: number | null;
  last_seen_at: number | null;
  counter_id: number | null;
  establishment_id: number | null;
};

function toTerminal(r: Row): Terminal {
  return {
    id: r.id,
    name: r.name,
    role: r.role,
    createdAt: r.created_at,
    enrolledAt: r.enrolled_at,
    revokedAt: r.revoked_at,
    lastSeenAt: r.last_seen_at,
    counterId: r.counter_id,
    establishmentId: r.establishment_id === null ? null : Number(r.establishment_id),
  };
}

const COLUMNS = [
  'id',
  'name',
  'role',
  'created_at',
  'enrolled_at',
  'revoked_at',
  'last_seen_at',
  'counter_id',
  'establishment_id',
] as const;

/** Creates a terminal waiting for enrollment and its one-time code (shown once, stored hashed). */
export async function addTerminal(
  store: Store,
  input: { name: string; role: Role; ttlMs?: number; establishmentId?: number | null },
): Promise<{ terminal: Terminal; code: string; expiresAt: number }> {
  const name = input.name.trim();
  if (name === '' || name.length > 60) throw new Error('the name must have 1 to 60 characters');
  const now = store.now();
  const code = newCode();
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
 * PostgreSQL: how long a replica may go on trusting a terminal it checked, should the
 * notification of a revocation from elsewhere be lost (normally it arrives within
 * milliseconds, see `activeTerminal`).
 */
export const TERMINAL_TRUST_MS = 1_000;
/** NOTIFY channel: a terminal was revoked or re-enrolled (payload: its id). */
const TERMINALS_CHANNEL = 'terminals_changed';

/**
 * Terminals this process found active, by credential (`id.nonce`). Only found ones: a forged
 * credential never reaches the store (its HMAC fails first), a revoked one is read each time.
 */
interface TerminalCache {
  entries: Map<string, { terminal: Terminal; checkedAt: number }>;
  /** Bumped by every invalidation: a read begun before it is not kept. */
  generation: number;
  /** `store.changedElsewhere()` when the entries were read (SQLite). */
  version: number | null;
  /** PostgreSQL: entries are kept only while this store hears the other replicas. */
  listening: boolean;
  subscribing: boolean;
}
const caches = new WeakMap<Store, TerminalCache>();

function cacheOf(store: Store): TerminalCache {
  let cache = caches.get(store);
  if (cache === undefined) {
    cache = {
      entries: new Map(),
      generation: 0,
      version: null,
      listening: false,
      subscribing: false,
    };
    caches.set(store, cache);
  }
  if (store.engine === 'postgres' && !cache.listening && !cache.subscribing) {
    const c = cache;
    c.subscribing = true;
    store
      .listen(TERMINALS_CHANNEL, () => forget(c))
      .then(() => {
        forget(c);
        c.listening = true;
      })
      .catch(() => undefined) // not listening: nothing is kept, every request reads the store
      .finally(() => {
        c.subscribing = false;
      });
  }
  return cache;
}

function forget(cache: TerminalCache): void {
  cache.entries.clear();
  cache.generation++;
}

/** This process forgets every checked terminal, and tells the other replicas to. */
async function terminalChanged(store: Store, id: number): Promise<void> {
  const cache = caches.get(store);
  if (cache !== undefined) forget(cache);
  // Without the notification (the database went away just after the commit), the other
  // replicas stop trusting the terminal within TERMINAL_TRUST_MS anyway.
  await store.notify(TERMINALS_CHANNEL, String(id)).catch(() => undefined);
}

/**
 * The enrolled, unrevoked terminal this credential belongs to; null otherwise.
 *
 * Checked on every request, so a terminal found active is kept in memory and not read again
 * while nothing can have changed it:
 * - this process's own revocations and enrollments forget every kept terminal at once;
 * - SQLite: a commit by any other process (`npm run terminal -- revoke`) changes the file's
 *   `data_version`, checked on each call, which forgets them too: a revocation is refused
 *   from the next request on, as when every request read the row;
 * - PostgreSQL (several replicas): a revocation NOTIFYs every replica, which forgets them on
 *   hearing it (milliseconds); a replica keeps a terminal at most TERMINAL_TRUST_MS in any
 *   case, and keeps none while it is not listening;
 * - a kept terminal is read again (and its `last_seen_at` written) every SEEN_EVERY_MS.
 */
export async function activeTerminal(
  store: Store,
  id: number,
  nonce: string,
): Promise<Terminal | null> {
  const cache = cacheOf(store);
  const version = store.changedElsewhere();
  if (version !== cache.version) {
    forget(cache);
    cache.version = version;
  }
  const key = `${id}.${nonce}`;
  const now = store.now();
  const kept = cache.entries.get(key);
  if (kept !== undefined) {
    const seen = kept.terminal.lastSeenAt!;
    const fresh =
      now >= seen &&
      now - seen < SEEN_EVERY_MS &&
      (store.engine === 'sqlite' ||
        (now >= kept.checkedAt && now - kept.checkedAt < TERMINAL_TRUST_MS));
    if (fresh) return kept.terminal;
    cache.entries.delete(key);
  }
  const generation = cache.generation;
  const row = await store.db
    .selectFrom('terminals')
    .select(COLUMNS)
    .where('id', '=', id)
    .where('credential_nonce', '=', nonce)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (row === undefined) return null;
  if (row.last_seen_at === null || now - row.last_seen_at >= SEEN_EVERY_MS) {
    await store.db
      .updateTable('terminals')
      .set({ last_seen_at: now })
      .where('id', '=', id)
      .execute();
    row.last_seen_at = now;
  }
  const terminal = Object.freeze(toTerminal(row));
  const keep = store.engine === 'sqlite' || cache.listening;
  if (keep && cache.generation === generation) {
    cache.entries.set(key, { terminal, checkedAt: now });
  }
  return terminal;
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

/** An integration token: `pdv.<terminal id>.<256 random bits>`. */
const TOKEN = /^pdv\.([1-9]\d{0,15})\.[A-Za-z0-9_-]{43}$/;

/** The store keeps only this (as the terminal's credential nonce), never the token. */
function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Creates an active `integracao` terminal (the store's PDV) paired with a counter terminal,
 * and its bearer token, answered once: only the token's hash is stored.
 */
export async function addIntegration(
  store: Store,
  input: { name: string; counterId: number },
): Promise<{ terminal: Terminal; token: string }> {
  const name = input.name.trim();
  if (name === '' || name.length > 60) throw new Error('the name must have 1 to 60 characters');
  const counter = await store.db
    .selectFrom('terminals')
    .select(['id', 'establishment_id'])
    .where('id', '=', input.counterId)
    .where('role', 'in', ['caixa', 'gerente'])
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (counter === undefined) throw new Error(`terminal ${input.counterId} is no active counter`);
  const now = store.now();
  return store.transaction(async (trx) => {
    const row = await trx
      .insertInto('terminals')
      .values({
        name,
        role: 'integracao',
        created_at: now,
        enrolled_at: now,
        last_seen_at: now,
        counter_id: input.counterId,
        // The PDV belongs to its counter's store.
        establishment_id: counter.establishment_id,
      })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    const token = `pdv.${row.id}.${randomBytes(32).toString('base64url')}`;
    await trx
      .updateTable('terminals')
      .set({ credential_nonce: tokenHash(token) })
      .where('id', '=', row.id)
      .execute();
    return { terminal: toTerminal(row), token };
  });
}

/** Pairs an integration terminal with another counter terminal (the sandbox's demo PDV). */
export async function pairIntegration(store: Store, id: number, counterId: number): Promise<void> {
  // A PDV stays inside its store: only a counter of the same store.
  await store.db
    .updateTable('terminals')
    .set({ counter_id: counterId })
    .where('id', '=', id)
    .where('role', '=', 'integracao')
    .where((eb) =>
      eb(
        'establishment_id',
        'is not distinct from',
        eb.selectFrom('terminals as c').select('c.establishment_id').where('c.id', '=', counterId),
      ),
    )
    .execute();
  await terminalChanged(store, id);
}

/** The active integration terminal a bearer token names, or null (malformed, unknown, revoked). */
export async function integrationByToken(store: Store, token: string): Promise<Terminal | null> {
  const m = TOKEN.exec(token);
  if (m === null) return null;
  const terminal = await activeTerminal(store, Number(m[1]), tokenHash(token));
  return terminal?.role === 'integracao' ? terminal : null;
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
    .select([
      'terminals.id',
      'terminals.name',
      'terminals.role',
      'terminals.created_at',
      'terminals.enrolled_at',
      'terminals.revoked_at',
      'terminals.last_seen_at',
      'terminals.counter_id',
      'terminals.establishment_id',
      'c.code_expires_at',
    ])
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
