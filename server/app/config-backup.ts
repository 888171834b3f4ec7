// The scheduled backups' part of the environment (BACKUP_*), read with the rest of it by
// ./config.ts. Here rather than beside the backup itself (server/ops/backup.ts) because ops
// sits above the app server: it imports the app's configuration, never the other way.
import path from 'node:path';

export interface BackupEnv {
  dir: string;
  keep: number;
  everyMs: number;
}

export type BackupEnvResult = { ok: true; backup: BackupEnv | null } | { ok: false; error: string };

/**
 * Reads BACKUP_DIR (relative to the working folder), BACKUP_KEEP (default 7) and
 * BACKUP_EVERY_HOURS (default 24; decimals allowed). `backup` is null without BACKUP_DIR: no
 * scheduled backups. Part of the app server's configuration (./config.ts); the schedule
 * itself is server/ops/backup.ts's.
 */
export function readBackupEnv(env: Readonly<Record<string, string | undefined>>): BackupEnvResult {
  const value = (name: string) => env[name]?.trim() || undefined;
  const dir = value('BACKUP_DIR');
  const keepText = value('BACKUP_KEEP');
  const everyText = value('BACKUP_EVERY_HOURS');
  const errors: string[] = [];
  const keep = keepText === undefined ? 7 : /^\d+$/.test(keepText) ? Number(keepText) : NaN;
  if (!(keep >= 1 && keep <= 10_000)) errors.push('BACKUP_KEEP must be an integer from 1 to 10000');
  const hours =
    everyText === undefined ? 24 : /^\d+(\.\d+)?$/.test(everyText) ? Number(everyText) : NaN;
  if (!(hours >= 0.01 && hours <= 8760)) {
    errors.push('BACKUP_EVERY_HOURS must be a number of hours from 0.01 to 8760');
  }
  if (dir === undefined && (keepText !== undefined || everyText !== undefined)) {
    errors.push('BACKUP_KEEP and BACKUP_EVERY_HOURS need BACKUP_DIR');
  }
  if (dir !== undefined && value('DATABASE_URL') !== undefined) {
    errors.push(
      'BACKUP_DIR backs up the SQLite store; with DATABASE_URL use pg_dump (docs/backups.md)',
    );
  }
  if (errors.length > 0) return { ok: false, error: errors.join('; ') };
  return {
    ok: true,
    backup:
      dir === undefined
        ? null
        : { dir: path.resolve(dir), keep, everyMs: Math.round(hours * 3_600_000) },
  };
}
