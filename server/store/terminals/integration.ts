/** The store's PDV as an `integracao` terminal: its bearer token and its counter. */
import { createHash, randomBytes } from 'node:crypto';
import type { Store } from '../store';
import { activeTerminal, terminalChanged } from './active';
import { COLUMNS, toTerminal, type Terminal } from './model';

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
