/**
 * A look at the store without opening it as the server does (`openStore` migrates): whether it
 * answers and which migrations it holds against the ones this code knows. For `npm run doctor`,
 * which must change nothing, also while the server runs.
 */
import { accessSync, constants, existsSync } from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { migrationNames } from './migrations';

export type StoreInspection =
  | {
      reachable: true;
      /** SQLite: false when the file is not there yet (the server creates it). */
      exists: boolean;
      /** Migrations this code knows that the store has not run (the server runs them). */
      pending: string[];
      /** Migrations the store ran that this code does not know: a newer release used it. */
      unknown: string[];
    }
  | { reachable: false; error: string };

/** An error's message; a refused connection to both ::1 and 127.0.0.1 has none, only codes. */
function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const code = (err as { code?: unknown }).code;
  return err.message || (typeof code === 'string' ? code : err.name);
}

function compare(applied: string[]): { pending: string[]; unknown: string[] } {
  const known = migrationNames();
  return {
    pending: known.filter((n) => !applied.includes(n)),
    unknown: applied.filter((n) => !known.includes(n)),
  };
}

/**
 * Whether this process may write in `folder`, or (while it does not exist yet) in its nearest
 * parent that exists: where it would be created.
 */
export function writableFolder(folder: string): boolean {
  let dir = folder;
  while (!existsSync(dir)) dir = path.dirname(dir);
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function inspectSqlite(file: string): StoreInspection {
  if (!existsSync(file)) {
    return writableFolder(path.dirname(path.resolve(file)))
      ? { reachable: true, exists: false, ...compare([]) }
      : { reachable: false, error: `cannot create ${file}: its folder is not writable` };
  }
  try {
    accessSync(file, constants.R_OK | constants.W_OK);
  } catch {
    return { reachable: false, error: `${file} is not readable and writable by this user` };
  }
  let conn: BetterSqlite3.Database | null = null;
  try {
    conn = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
    const table = conn
      .prepare("select 1 from sqlite_master where type = 'table' and name = 'kysely_migration'")
      .get();
    const applied =
      table === undefined
        ? []
        : (conn.prepare('select name from kysely_migration').pluck().all() as string[]);
    return { reachable: true, exists: true, ...compare(applied) };
  } catch (err) {
    return { reachable: false, error: describe(err) };
  } finally {
    conn?.close();
  }
}

async function inspectPostgres(url: string, timeoutMs: number): Promise<StoreInspection> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const { rows } = await client.query<{ name: string | null }>(
      "select to_regclass('kysely_migration')::text as name",
    );
    const applied =
      rows[0]?.name === null || rows[0] === undefined
        ? []
        : (await client.query<{ name: string }>('select name from kysely_migration')).rows.map(
            (r) => r.name,
          );
    return { reachable: true, exists: true, ...compare(applied) };
  } catch (err) {
    return { reachable: false, error: describe(err) };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Inspects the store at `databaseUrl` (PostgreSQL) or else the SQLite file `sqlitePath`. */
export function inspectStore(options: {
  databaseUrl: string | null;
  sqlitePath: string;
  timeoutMs?: number;
}): Promise<StoreInspection> {
  return options.databaseUrl !== null
    ? inspectPostgres(options.databaseUrl, options.timeoutMs ?? 5_000)
    : Promise.resolve(inspectSqlite(options.sqlitePath));
}

/** A store of the chain's list as `inspectStores` reads it (its token still sealed). */
export interface ListedStore {
  establishmentId: number;
  name: string;
  tokenSealed: string;
}

/**
 * The chain's list of stores (`stores`, migration 0015), read without opening the store as the
 * server does; [] when the table is not there yet, null when the store cannot be read.
 */
export async function inspectStores(options: {
  databaseUrl: string | null;
  sqlitePath: string;
  timeoutMs?: number;
}): Promise<ListedStore[] | null> {
  type Row = { establishment_id: number | string; name: string; token_sealed: string };
  const list = (rows: Row[]) =>
    rows.map((r) => ({
      establishmentId: Number(r.establishment_id),
      name: r.name,
      tokenSealed: r.token_sealed,
    }));
  const query = 'select establishment_id, name, token_sealed from stores order by establishment_id';
  if (options.databaseUrl !== null) {
    const client = new pg.Client({
      connectionString: options.databaseUrl,
      connectionTimeoutMillis: options.timeoutMs ?? 5_000,
    });
    client.on('error', () => undefined);
    try {
      await client.connect();
      const { rows } = await client.query<{ name: string | null }>(
        "select to_regclass('stores')::text as name",
      );
      if (rows[0]?.name === null || rows[0] === undefined) return [];
      return list((await client.query<Row>(query)).rows);
    } catch {
      return null;
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  if (!existsSync(options.sqlitePath)) return [];
  let conn: BetterSqlite3.Database | null = null;
  try {
    conn = new BetterSqlite3(options.sqlitePath, { readonly: true, fileMustExist: true });
    const table = conn
      .prepare("select 1 from sqlite_master where type = 'table' and name = 'stores'")
      .get();
    return table === undefined ? [] : list(conn.prepare(query).all() as Row[]);
  } catch {
    return null;
  } finally {
    conn?.close();
  }
}
