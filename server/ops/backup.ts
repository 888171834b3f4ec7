/**
 * Backups of the app server's SQLite store (see docs/backups.md).
 *
 * - `backupSqlite(source, dest)`: a consistent copy while the server runs and writes, by
 *   SQLite's online backup API (better-sqlite3's `db.backup()`): every page comes from one read
 *   snapshot, so the copy holds exactly the transactions committed before that snapshot. From a
 *   path (the CLI, another process) it opens its own read-only connection and copies every page
 *   in one step; from an open `Store` (the server's schedule) it uses the store's connection a
 *   few MB per event-loop turn, its own writes meanwhile being copied along.
 * - `startBackupSchedule(…)` (backup-schedule.ts): timestamped copies in BACKUP_DIR every BACKUP_EVERY_HOURS,
 *   keeping the newest BACKUP_KEEP.
 * - `restoreSqlite(backup, target)`: with the server stopped, checks the file is a store of
 *   this app no newer than this code, refuses while the current store is open elsewhere, keeps
 *   the current file aside and puts the backup in its place.
 *
 * PostgreSQL is backed up with its own tools (`pg_dump`/`pg_restore`): `postgresBackupHelp()`.
 */
import {
  closeSync,
  copyFileSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { migrationNames, RESTORED_KEPT_REASON } from '../store';
import type { Store } from '../store';

/** Said by both commands and the docs: a backup without the same APP_SECRET loses things. */
export const APP_SECRET_NOTE =
  'Guarde o APP_SECRET junto com as cópias (no mesmo cofre de senhas, não num arquivo ao lado ' +
  'delas): as senhas de atendente das vendas guardadas e das vendas do quiosque são seladas com ' +
  'ele, e as credenciais dos terminais são assinadas com ele. Restaurado com outro APP_SECRET, as ' +
  'vendas guardadas não podem ser entregues e todo terminal precisa ser registrado de novo. (No ' +
  'sandbox sem APP_SECRET, o segredo é o arquivo app-secret ao lado do banco.)';

/** A backup or restore that was refused; its message says why and what to do. */
export class BackupRefused extends Error {
  override name = 'BackupRefused';
}

export interface BackupResult {
  /** The backup written (absolute). */
  file: string;
  bytes: number;
  pages: number;
  /** The newest migration in the copy (its schema version). */
  migration: string | null;
  ms: number;
}

/** Pages per event-loop turn when copying from the server's own connection (4 KiB pages). */
const PAGES_PER_TURN = 1024;
const ALL_PAGES = 0x7fffffff;

/** Flushes a file (or a folder's entries) to disk. */
function fsyncPath(file: string): void {
  const fd = openSync(file, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function removeSqliteFiles(file: string): void {
  for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(file + suffix, { force: true });
}

/**
 * Copies the SQLite store at `source` (a file, read through a read-only connection of its own)
 * or of an open SQLite `Store` (its connection) to `dest`, which must not exist. The copy is
 * one file (rollback journal mode; the server turns WAL on when it opens it), checked (`full`:
 * `PRAGMA integrity_check`; `light`: it opens and lists its migrations) and flushed before it
 * takes its name, so a crash never leaves a half-written backup under it.
 */
export async function backupSqlite(
  source: string | Store,
  dest: string,
  options: { check?: 'full' | 'light' } = {},
): Promise<BackupResult> {
  const started = performance.now();
  const file = path.resolve(dest);
  if (existsSync(file)) {
    throw new BackupRefused(`${file} já existe: uma cópia nunca sobrescreve um arquivo`);
  }
  mkdirSync(path.dirname(file), { recursive: true });
  const partial = `${file}.partial-${process.pid}`;
  removeSqliteFiles(partial);

  let conn: BetterSqlite3.Database;
  const own = typeof source === 'string';
  if (typeof source === 'string') {
    if (!existsSync(source)) throw new BackupRefused(`não há banco em ${source}`);
    conn = new BetterSqlite3(source, { readonly: true, fileMustExist: true });
    conn.pragma('busy_timeout = 5000');
  } else {
    if (source.sqlite === null) {
      throw new BackupRefused('o banco é PostgreSQL: faça a cópia com pg_dump');
    }
    conn = source.sqlite.conn;
  }
  try {
    // A writer elsewhere restarts a backup that spans turns: from then on, one step copies all.
    let last = Infinity;
    let allAtOnce = own;
    const progress = await conn.backup(partial, {
      progress: ({ remainingPages }) => {
        if (remainingPages > last) allAtOnce = true;
        last = remainingPages;
        return allAtOnce ? ALL_PAGES : PAGES_PER_TURN;
      },
    });
    // better-sqlite3 reports a step the source refused (busy) before it counted any page as a
    // finished backup of nothing: never take that for a copy.
    if (progress.totalPages === 0 || !existsSync(partial)) {
      throw new Error('o banco estava ocupado e nada foi copiado: tente de novo');
    }
    const copy = new BetterSqlite3(partial, { fileMustExist: true });
    let migration: string | null;
    try {
      copy.pragma('journal_mode = DELETE');
      if (options.check !== 'light') checkIntegrity(copy, file);
      migration = appliedMigrations(copy, file).at(-1) ?? null;
    } finally {
      copy.close();
    }
    fsyncPath(partial);
    renameSync(partial, file);
    fsyncPath(path.dirname(file));
    return {
      file,
      bytes: statSync(file).size,
      pages: progress.totalPages,
      migration,
      ms: Math.round(performance.now() - started),
    };
  } catch (err) {
    removeSqliteFiles(partial);
    throw err;
  } finally {
    if (own) conn.close();
  }
}

function checkIntegrity(conn: BetterSqlite3.Database, name: string): void {
  const lines = conn.pragma('integrity_check', { simple: false }) as { integrity_check: string }[];
  const problems = lines.map((l) => l.integrity_check).filter((l) => l !== 'ok');
  if (problems.length > 0) {
    throw new BackupRefused(
      `${name} falha no PRAGMA integrity_check: ${problems.slice(0, 3).join('; ')}`,
    );
  }
}

/** The migrations a store file ran, in order; refused when it is not a store of this app. */
function appliedMigrations(conn: BetterSqlite3.Database, name: string): string[] {
  const table = conn
    .prepare("select 1 from sqlite_master where type = 'table' and name = 'kysely_migration'")
    .get();
  if (table === undefined) {
    throw new BackupRefused(`${name} não é um banco deste app (não tem a tabela de migrações)`);
  }
  return conn.prepare('select name from kysely_migration order by name').pluck().all().map(String);
}

export interface StoreFileReport {
  /** The migrations the file ran, oldest first. */
  migrations: string[];
  /** Migrations this code has and the file has not: the server runs them when it starts. */
  pending: string[];
  terminals: number;
  journal: number;
  /** Kept sales not settled yet (aguardando envio, precisa de atenção). */
  keptWaiting: number;
}

/**
 * Checks that `file` is a sound store of this app that this code can run: an SQLite database,
 * `PRAGMA integrity_check` ok, its migrations this code's (the same names, in order; none
 * newer). Throws `BackupRefused` saying what is wrong, naming `file`. Opens `copy`
 * read-write: give it a copy of `file` (restore inspects its own copy).
 */
export function inspectStoreFile(copy: string, file = copy): StoreFileReport {
  let conn: BetterSqlite3.Database;
  try {
    conn = new BetterSqlite3(copy, { fileMustExist: true });
  } catch (err) {
    throw new BackupRefused(`não foi possível abrir ${file}: ${(err as Error).message}`);
  }
  try {
    try {
      checkIntegrity(conn, file);
    } catch (err) {
      if (err instanceof BackupRefused) throw err;
      const code = (err as { code?: string }).code;
      throw new BackupRefused(
        code === 'SQLITE_NOTADB'
          ? `${file} não é um banco SQLite, então não é um banco deste app`
          : `${file} não pode ser lido como banco: ${(err as Error).message}`,
      );
    }
    const applied = appliedMigrations(conn, file);
    const known = migrationNames();
    const newer = applied.filter((m) => !known.includes(m));
    if (newer.length > 0) {
      throw new BackupRefused(
        `${file} vem de uma versão mais nova do app (migração ${newer.join(', ')} desconhecida ` +
          `desta, que conhece até ${known.at(-1)}): atualize o app, depois restaure`,
      );
    }
    if (applied.length === 0 || applied.some((m, i) => m !== known[i])) {
      throw new BackupRefused(
        `${file} não parece um banco deste app: as migrações dele (${applied.join(', ') || 'nenhuma'}) ` +
          `não são as primeiras deste código`,
      );
    }
    const count = (sql: string) => Number(conn.prepare(sql).pluck().get());
    const has = (table: string) =>
      conn.prepare("select 1 from sqlite_master where type = 'table' and name = ?").get(table) !==
      undefined;
    return {
      migrations: applied,
      pending: known.slice(applied.length),
      terminals: count('select count(*) from terminals'),
      journal: has('posting_journal') ? count('select count(*) from posting_journal') : 0,
      keptWaiting: applied.includes('0004_contingency')
        ? count(
            "select count(*) from posting_journal where state in ('aguardando envio', 'precisa de atenção')",
          )
        : 0,
    };
  } finally {
    conn.close();
  }
}

/** 2026-11-26T19:15:00.123Z → 20261126T191500Z (sortable, safe in a file name). */
export function stamp(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

export interface RestoreResult {
  target: string;
  /** Where the previous store went (the file and its -wal/-shm if any); [] when there was none. */
  keptAside: string[];
  /** Set when the previous store could not be read (corrupt): it was kept aside as it was. */
  note: string | null;
  report: StoreFileReport;
}

const BUSY = /^SQLITE_(BUSY|LOCKED)/;
const DAMAGED = /^SQLITE_(CORRUPT|NOTADB)/;

/**
 * Makes sure no one has `target` open (the server holds a shared lock on its file as long as
 * it runs: an exclusive lock is refused at once), then folds its WAL into it so that the file
 * kept aside is whole. Returns a note when the file could not be read (corrupt: kept as is).
 */
function takeOver(target: string): string | null {
  let conn: BetterSqlite3.Database | null = null;
  try {
    conn = new BetterSqlite3(target, { fileMustExist: true });
    conn.pragma('busy_timeout = 0');
    conn.pragma('locking_mode = EXCLUSIVE');
    conn.exec('begin exclusive');
    conn.exec('commit');
    conn.pragma('wal_checkpoint(TRUNCATE)');
    conn.pragma('journal_mode = DELETE');
    return null;
  } catch (err) {
    const code = (err as { code?: string }).code ?? '';
    if (BUSY.test(code)) {
      throw new BackupRefused(
        `${target} está em uso (o servidor, ou outro comando, o tem aberto): pare o servidor ` +
          'e rode a restauração de novo. Nada foi alterado.',
      );
    }
    // A damaged store (the reason for many a restore) is replaced; any other error stops here.
    if (!DAMAGED.test(code)) throw err;
    return `o banco atual não pôde ser lido (${(err as Error).message}); guardado à parte como estava`;
  } finally {
    conn?.close();
  }
}

/**
 * Puts the backup `backup` in place of the SQLite store `target`, which no process may have
 * open. The backup is first copied beside the target and checked (`inspectStoreFile`); then the
 * current store (if any) is renamed `<target>.before-restore-<UTC time>` (with its -wal/-shm if
 * left), and the copy takes its name. Refusals change nothing.
 */
export function restoreSqlite(backup: string, target: string, now = Date.now()): RestoreResult {
  const source = path.resolve(backup);
  const dest = path.resolve(target);
  if (!existsSync(source) || !statSync(source).isFile()) {
    throw new BackupRefused(`não há arquivo ${source}`);
  }
  if (source === dest) throw new BackupRefused(`${source} é o próprio banco`);
  if (existsSync(`${source}-wal`)) {
    throw new BackupRefused(
      `${source}-wal existe ao lado dele: é um banco em uso ou deixado por uma queda, não uma ` +
        'cópia (faça uma com npm run backup)',
    );
  }
  mkdirSync(path.dirname(dest), { recursive: true });
  const partial = `${dest}.restoring-${process.pid}`;
  removeSqliteFiles(partial);
  try {
    copyFileSync(source, partial);
    const report = inspectStoreFile(partial, source);
    markRestoredKeptSales(partial);
    fsyncPath(partial);
    const keptAside: string[] = [];
    let note: string | null = null;
    if (existsSync(dest)) {
      note = takeOver(dest);
      // The WAL index of a store no one has open holds no data (its WAL is folded in).
      if (note === null) rmSync(`${dest}-shm`, { force: true });
      const aside = `${dest}.before-restore-${stamp(now)}`;
      for (const suffix of ['', '-wal', '-shm', '-journal']) {
        if (!existsSync(dest + suffix)) continue;
        if (existsSync(aside + suffix)) throw new BackupRefused(`${aside + suffix} já existe`);
        renameSync(dest + suffix, aside + suffix);
        keptAside.push(aside + suffix);
      }
    } else {
      // No store, but a -wal or -shm of an old one would be applied to the restored file.
      for (const suffix of ['-wal', '-shm', '-journal']) {
        if (!existsSync(dest + suffix)) continue;
        const aside = `${dest}.before-restore-${stamp(now)}${suffix}`;
        renameSync(dest + suffix, aside);
        keptAside.push(aside);
      }
    }
    renameSync(partial, dest);
    fsyncPath(path.dirname(dest));
    return { target: dest, keptAside, note, report };
  } finally {
    removeSqliteFiles(partial);
  }
}

/**
 * The kept sales still waiting in a restored copy may have been delivered after the backup
 * was taken: each is marked so that its customer's history is read before it is sent.
 */
function markRestoredKeptSales(file: string): void {
  const db = new BetterSqlite3(file);
  try {
    db.prepare("update posting_journal set reason = ? where state = 'aguardando envio'").run(
      RESTORED_KEPT_REASON,
    );
  } finally {
    db.close();
  }
}

/** What to run instead when the store is PostgreSQL (DATABASE_URL). */
export function postgresBackupHelp(command: 'backup' | 'restore'): string {
  const lines =
    command === 'backup'
      ? [
          'O banco é PostgreSQL (DATABASE_URL definida): faça a cópia com pg_dump, que tira uma',
          'foto consistente com os servidores rodando, por exemplo:',
          '',
          '  pg_dump --format=custom --file=app-$(date -u +%Y%m%dT%H%M%SZ).dump "$DATABASE_URL"',
          '',
          'Use o pg_dump da versão principal do servidor, ou mais nova. Veja docs/backups.md.',
        ]
      : [
          'O banco é PostgreSQL (DATABASE_URL definida): restaure um arquivo do pg_dump com',
          'pg_restore, com todos os servidores parados, num banco vazio (ou com --clean), por exemplo:',
          '',
          '  pg_restore --clean --if-exists --no-owner --single-transaction \\',
          '    --dbname="$DATABASE_URL" app-20260101T030000Z.dump',
          '',
          'depois inicie os servidores (eles o migram se a cópia for mais antiga). Veja docs/backups.md.',
        ];
  return [...lines, '', APP_SECRET_NOTE].join('\n');
}
