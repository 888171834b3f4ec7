/**
 * The app server's store as the command lines open it (`npm run terminal`, `loja`, `pdv`,
 * `backup`, `restore`, `doctor`): the same environment as the server, read one way.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultEstablishmentId, resolveAppDb } from './app/config';
import { fail } from './cli-args';
import { openStore } from './store';
import type { Store } from './store';

/** The project's folder (the one `data/` is in): the command lines sit in `server/`. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The SQLite store's file: APP_DB, default data/app.db. */
export function appDbPath(): string {
  return resolveAppDb(process.env.APP_DB?.trim() || null, ROOT);
}

/** The default store's id as the server reads it: LOYALTY_ESTABLISHMENT_ID, 1 without it. */
export function defaultStoreId(): number {
  const id = defaultEstablishmentId(process.env);
  if (id === null) fail('LOYALTY_ESTABLISHMENT_ID deve ser um inteiro positivo.');
  return id;
}

/** The server's store: DATABASE_URL (PostgreSQL) or APP_DB; one line and exit 2 when it fails. */
export async function openCliStore(): Promise<Store> {
  try {
    return await openStore({
      databaseUrl: process.env.DATABASE_URL?.trim() || null,
      sqlitePath: appDbPath(),
    });
  } catch (err) {
    return fail(
      `não foi possível abrir o banco do servidor: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}
