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
import { readArgs, unknownCommand, usageError } from './cli-args';
import { appDbPath } from './cli-store';
import {
  APP_SECRET_NOTE,
  BackupRefused,
  backupSqlite,
  postgresBackupHelp,
  restoreSqlite,
} from './ops/backup';

const USAGE = `uso:
  npm run backup -- ARQUIVO    copia o banco (APP_DB, padrão data/app.db) para ARQUIVO, um arquivo novo
  npm run restore -- ARQUIVO   com o servidor parado, põe a cópia ARQUIVO no lugar do banco`;

function size(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(1)} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  if (command !== 'backup' && command !== 'restore') {
    unknownCommand(command, USAGE);
  }
  const typed = readArgs(args, {}, USAGE, { positionals: 1 }).positionals[0];
  if (typed === undefined || typed === '') usageError('falta o ARQUIVO', USAGE);
  if (process.env.DATABASE_URL?.trim()) {
    process.stderr.write(`${postgresBackupHelp(command)}\n`);
    return 2;
  }
  const store = appDbPath();
  const file = typed;
  if (command === 'backup') {
    try {
      const r = await backupSqlite(store, file);
      process.stdout.write(
        `Cópia de ${store}\n` +
          `    feita em ${r.file}\n` +
          `(${size(r.bytes)}, esquema ${r.migration ?? 'vazio'}, PRAGMA integrity_check ok, ${r.ms} ms).\n\n` +
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
      `Restaurado ${path.resolve(file)}\n` +
        `   no lugar de ${r.target}\n` +
        `Ele tem ${report.terminals} terminal(is), ${report.journal} ${report.journal === 1 ? 'lançamento' : 'lançamentos'} no diário ` +
        `e ${report.keptWaiting} venda(s) guardada(s) ainda não entregue(s); esquema ${report.migrations.at(-1)}` +
        (report.pending.length > 0
          ? ` (o servidor roda ${report.pending.join(', ')} ao iniciar).\n`
          : '.\n') +
        (r.keptAside.length > 0
          ? `O banco anterior foi guardado como ${r.keptAside.join(', ')}: apague-o depois de conferir o restaurado.\n`
          : `Não havia banco em ${r.target} antes.\n`) +
        (r.note !== null ? `Observação: ${r.note}.\n` : '') +
        `\nInicie o servidor com o APP_SECRET que ele tinha quando a cópia foi feita.\n${APP_SECRET_NOTE}\n`,
    );
    return 0;
  } catch (err) {
    return refused('restore', err);
  }
}

function refused(command: 'backup' | 'restore', err: unknown): number {
  const message = err instanceof Error ? err.message : String(err);
  const what = command === 'backup' ? 'Cópia' : 'Restauração';
  process.stderr.write(
    err instanceof BackupRefused
      ? `${what} recusada: ${message}\n`
      : `${what} falhou: ${message}\n`,
  );
  return 1;
}

process.exitCode = await main(process.argv.slice(2));
