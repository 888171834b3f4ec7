/**
 * Backups of the app server's store (docs/backups.md):
 *
 *   npm run backup -- FILE    a consistent copy of the SQLite store, also while the server runs
 *   npm run restore -- FILE   puts a backup back, with the server stopped
 *
 * Uses the same store as the app server: APP_DB (default data/app.db). With DATABASE_URL
 * (PostgreSQL) both explain pg_dump / pg_restore instead and exit 2.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveAppDb } from './app/config';
import {
  APP_SECRET_NOTE,
  BackupRefused,
  backupSqlite,
  postgresBackupHelp,
  restoreSqlite,
} from './ops/backup';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const USAGE = `usage:
  npm run backup -- FILE     copy the store (APP_DB, default data/app.db) to FILE, a new file
  npm run restore -- FILE    with the server stopped, put the backup FILE in the store's place`;

function size(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(1)} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  if ((command !== 'backup' && command !== 'restore') || args.length !== 1 || args[0] === '') {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  if (process.env.DATABASE_URL?.trim()) {
    process.stderr.write(`${postgresBackupHelp(command)}\n`);
    return 2;
  }
  const store = resolveAppDb(process.env.APP_DB?.trim() || null, root);
  const file = args[0]!;
  if (command === 'backup') {
    try {
      const r = await backupSqlite(store, file);
      process.stdout.write(
        `Backed up ${store}\n` +
          `       to ${r.file}\n` +
          `(${size(r.bytes)}, schema ${r.migration ?? 'empty'}, PRAGMA integrity_check ok, ${r.ms} ms).\n\n` +
          `${APP_SECRET_NOTE}\n`,
      );
      return 0;
    } catch (err) {
      return refused('backup', err);
    }
  }
  try {
    const r = restoreSqlite(file, store);
    const { report } = r;
    process.stdout.write(
      `Restored ${path.resolve(file)}\n` +
        `    into ${r.target}\n` +
        `It holds ${report.terminals} terminal(s), ${report.journal} journal entr${report.journal === 1 ? 'y' : 'ies'} ` +
        `and ${report.keptWaiting} kept sale(s) not yet delivered; schema ${report.migrations.at(-1)}` +
        (report.pending.length > 0
          ? ` (the server runs ${report.pending.join(', ')} when it starts).\n`
          : '.\n') +
        (r.keptAside.length > 0
          ? `The previous store was kept as ${r.keptAside.join(', ')}: delete it once the restored store is checked.\n`
          : `There was no store at ${r.target} before.\n`) +
        (r.note !== null ? `Note: ${r.note}.\n` : '') +
        `\nStart the server with the APP_SECRET it had when the backup was made.\n${APP_SECRET_NOTE}\n`,
    );
    return 0;
  } catch (err) {
    return refused('restore', err);
  }
}

function refused(command: string, err: unknown): number {
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(
    err instanceof BackupRefused
      ? `${command} refused: ${message}\n`
      : `${command} failed: ${message}\n`,
  );
  return 1;
}

process.exitCode = await main(process.argv.slice(2));
