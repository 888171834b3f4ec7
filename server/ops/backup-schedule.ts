/**
 * The server's scheduled backups (see docs/backups.md): timestamped copies in BACKUP_DIR every
 * BACKUP_EVERY_HOURS, keeping the newest BACKUP_KEEP, each made by `backupSqlite`.
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Store } from '../store';
import { backupSqlite, stamp, type BackupResult } from './backup';

/** Scheduled backups' names: app-<UTC time>.db. */
const SCHEDULED = /^app-(\d{8}T\d{6}Z)\.db$/;

/** When the newest scheduled backup in `dir` was taken (epoch ms, from its name), or null. */
export function newestScheduledBackup(dir: string): number | null {
  const newest = readdirSync(dir)
    .map((n) => SCHEDULED.exec(n)?.[1])
    .filter((s): s is string => s !== undefined)
    .sort()
    .at(-1);
  return newest === undefined
    ? null
    : Date.parse(newest.replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/, '$1-$2-$3T$4:$5:$6Z'));
}

/** Deletes all but the newest `keep` scheduled backups in `dir`; returns the names removed. */
export function pruneBackups(dir: string, keep: number): string[] {
  const names = readdirSync(dir)
    .filter((n) => SCHEDULED.test(n))
    .sort()
    .reverse();
  const removed = names.slice(Math.max(1, keep));
  for (const name of removed) rmSync(path.join(dir, name), { force: true });
  return removed;
}

/** The pino logger's shape, as much as the schedule uses. */
export interface BackupLogger {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface BackupScheduleOptions {
  /** The server's open SQLite store (copied through its connection), or… */
  store?: Store;
  /** …the store's file (copied through a read-only connection of its own). */
  path?: string;
  /** BACKUP_DIR: where the backups go (created if missing). */
  dir: string;
  /** BACKUP_KEEP: how many of the newest to keep (at least 1). */
  keep: number;
  /** BACKUP_EVERY_HOURS in ms: the time between two backups. */
  everyMs: number;
  logger?: BackupLogger;
  /** Clock in epoch ms; tests move it. */
  now?: () => number;
}

export interface BackupSchedule {
  /** Takes a backup now (after the one running, if any) and prunes; rejects if it fails. */
  runNow(): Promise<BackupResult>;
  /** No more backups; resolves once the one running (if any) ended. Call before store.close(). */
  stop(): Promise<void>;
}

/** setTimeout's longest delay; a longer wait is taken in several. */
const MAX_DELAY = 2 ** 31 - 1;

/**
 * Backs the SQLite store up to `dir` as app-<UTC time>.db every `everyMs`, keeping the newest
 * `keep`. The first backup is due `everyMs` after the newest one already in `dir` (at once when
 * there is none or it is older), so restarts neither skip nor repeat backups. A failed backup is
 * logged and tried again at the next time. The timer does not keep the process alive.
 * server/main.ts starts it when BACKUP_DIR is set (see docs/backups.md).
 */
export function startBackupSchedule(options: BackupScheduleOptions): BackupSchedule {
  const { store, dir, everyMs, logger } = options;
  const now = options.now ?? Date.now;
  const keep = Math.max(1, Math.floor(options.keep));
  if (store?.engine === 'postgres') {
    throw new Error('BACKUP_DIR backs up the SQLite store; with DATABASE_URL use pg_dump');
  }
  const source = store ?? options.path;
  if (source === undefined) throw new Error('startBackupSchedule needs a store or a path');
  if (!(everyMs > 0)) throw new Error('everyMs must be positive');
  mkdirSync(dir, { recursive: true });

  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> = Promise.resolve();

  const newest = newestScheduledBackup(dir);
  let dueAt = newest === null ? now() : newest + everyMs;

  const once = async (): Promise<BackupResult> => {
    const at = now();
    const result = await backupSqlite(source, path.join(dir, `app-${stamp(at)}.db`), {
      check: 'light',
    });
    const removed = pruneBackups(dir, keep);
    logger?.info(
      { backup: result.file, bytes: result.bytes, ms: result.ms, removed },
      'store backup written',
    );
    return result;
  };
  const runNow = (): Promise<BackupResult> => {
    const next = running.catch(() => undefined).then(once);
    running = next;
    return next;
  };
  const arm = (): void => {
    if (stopped) return;
    timer = setTimeout(tick, Math.min(MAX_DELAY, Math.max(0, dueAt - now())));
    timer.unref();
  };
  function tick(): void {
    if (stopped) return;
    if (now() < dueAt) return arm();
    dueAt = now() + everyMs;
    runNow()
      .catch((err: unknown) => logger?.error({ err }, 'store backup failed'))
      .finally(arm);
  }
  arm();
  return {
    runNow,
    async stop() {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      await running.catch(() => undefined);
    },
  };
}
