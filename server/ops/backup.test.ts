// Backups of the SQLite store: taken while another process (or the server itself) writes,
// restored with the server stopped, refused when they are not this app's store, kept N newest
// on a schedule. The CLI runs as `npm run backup` / `npm run restore` run it.
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, test } from 'vitest';
import { addTerminal, listTerminals, migrationNames, openStore } from '../store';
import type { Store } from '../store';
import { readBackupEnv } from '../app/config-backup';
import { backupSqlite, restoreSqlite, stamp } from './backup';
import { startBackupSchedule } from './backup-schedule';
import { runProcess } from '../testing/processes';
import type { Ran } from '../testing/processes';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tmp = mkdtempSync(path.join(tmpdir(), 'backup-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let dirs = 0;
const freshDir = () => {
  const dir = path.join(tmp, `case-${++dirs}`);
  mkdirSync(dir);
  return dir;
};

/** A journal row numbered `i` (its key), `pad` bytes of snapshot to give the file some size. */
const ROW_SQL = `insert into posting_journal (key, establishment_id, fingerprint, customer_key,
  amount, state, snapshot, created_at, updated_at, lease_until)
  values (?, 1, 'f', '+5511987654321', 100, 'lançado', ?, 0, 0, 0)`;
const key = (i: number) => String(i).padStart(9, '0');

async function fill(store: Store, rows: number, pad: number): Promise<void> {
  const insert = store.sqlite!.conn.prepare(ROW_SQL);
  const filler = 'x'.repeat(pad);
  await store.sqlite!.run(
    () => {
      for (let i = 1; i <= rows; i++) insert.run(key(i), filler);
    },
    { transaction: true },
  );
}

/** count, min and max of the journal's numbered keys in a store file. */
function journalRange(file: string): { n: number; min: number; max: number } {
  const conn = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  try {
    return conn
      .prepare(
        'select count(*) as n, min(cast(key as integer)) as min, max(cast(key as integer)) as max from posting_journal',
      )
      .get() as { n: number; min: number; max: number };
  } finally {
    conn.close();
  }
}

function integrity(file: string): string {
  const conn = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  try {
    return conn.pragma('integrity_check', { simple: true }) as string;
  } finally {
    conn.close();
  }
}

/** `npm run backup|restore -- file`, as npm runs it: tsx on server/backup-cli.ts. */
function cli(
  command: 'backup' | 'restore',
  file: string,
  env: Record<string, string>,
): Promise<Ran> {
  return runProcess({
    script: 'server/backup-cli.ts',
    args: [command, file],
    sources: true,
    env: { DATABASE_URL: '', ...env },
  });
}

/**
 * Another process writing journal rows from `from + 1` on, one transaction each, printing each
 * number once committed. `last()` is the newest number printed.
 */
function writer(
  db: string,
  from: number,
): { child: ChildProcessWithoutNullStreams; last(): number; started: Promise<void> } {
  const code = `
    import { openStore } from ${JSON.stringify(path.join(root, 'server/store/index.ts'))};
    const store = await openStore({ sqlitePath: ${JSON.stringify(db)} });
    const insert = store.sqlite.conn.prepare(${JSON.stringify(ROW_SQL)});
    for (let i = ${from + 1}; ; i++) {
      await store.sqlite.run(() => insert.run(String(i).padStart(9, '0'), 'y'.repeat(300)), { transaction: true });
      process.stdout.write(i + '\\n');
      await new Promise((r) => setImmediate(r));
    }`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    cwd: root,
  });
  let last = from;
  let buffer = '';
  let begun!: () => void;
  const started = new Promise<void>((r) => (begun = r));
  child.stdout.on('data', (d: Buffer) => {
    buffer += d.toString();
    const lines = buffer.split('\n');
    buffer = lines.pop()!;
    if (lines.length > 0) {
      last = Number(lines.at(-1));
      begun();
    }
  });
  child.stderr.on('data', (d: Buffer) => process.stderr.write(d));
  return { child, last: () => last, started };
}

async function stop(child: ChildProcessWithoutNullStreams): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}

describe('backup', () => {
  test('npm run backup while another process writes continuously: a whole, consistent store with every row committed before it began', async () => {
    const dir = freshDir();
    const db = path.join(dir, 'app.db');
    const store = await openStore({ sqlitePath: db });
    await fill(store, 20_000, 600);
    await addTerminal(store, { name: 'Caixa 1', role: 'caixa' });
    await store.close();

    const w = writer(db, 20_000);
    try {
      await w.started;
      // Let it write a while, then back up: every row it reported so far must be in the copy.
      while (w.last() < 20_050) await new Promise((r) => setTimeout(r, 20));
      const committedBefore = w.last();
      const file = path.join(dir, 'backups', 'copy.db');
      const run = await cli('backup', file, { APP_DB: db });
      const committedAfter = w.last();
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(`Cópia de ${db}`);
      expect(run.stdout).toMatch(/PRAGMA integrity_check ok/);
      expect(run.stdout).toMatch(/Guarde o APP_SECRET junto com as cópias/);

      expect(integrity(file)).toBe('ok');
      const { n, min, max } = journalRange(file);
      // One snapshot: rows 1..max with no gap, including all committed before the command.
      expect(min).toBe(1);
      expect(n).toBe(max);
      expect(max).toBeGreaterThanOrEqual(committedBefore);
      // The writer kept writing while the backup ran (the copy is a snapshot, not a pause).
      expect(committedAfter).toBeGreaterThan(committedBefore);
      // A single file, openable as the store.
      expect(readdirSync(path.dirname(file))).toEqual(['copy.db']);
      const copy = await openStore({ sqlitePath: file });
      expect((await listTerminals(copy)).map((t) => t.name)).toEqual(['Caixa 1']);
      await copy.close();
    } finally {
      await stop(w.child);
    }
  }, 60_000);

  test('from the server’s own store while it writes: consistent, and the server is not held up', async () => {
    const dir = freshDir();
    const store = await openStore({ sqlitePath: path.join(dir, 'app.db') });
    await fill(store, 10_000, 1000);
    let committed = 10_000;
    let writing = true;
    const insert = store.sqlite!.conn.prepare(ROW_SQL);
    const loop = (async () => {
      while (writing) {
        await store.sqlite!.run(() => insert.run(key(committed + 1), 'z'), { transaction: true });
        committed += 1;
        await new Promise((r) => setImmediate(r));
      }
    })();
    await new Promise((r) => setTimeout(r, 20));
    const before = committed;
    const result = await backupSqlite(store, path.join(dir, 'copy.db'), { check: 'light' });
    const during = committed - before;
    writing = false;
    await loop;
    await store.close();

    expect(result.pages).toBeGreaterThan(1024); // copied over several turns
    expect(integrity(result.file)).toBe('ok');
    const { n, min, max } = journalRange(result.file);
    expect(min).toBe(1);
    expect(n).toBe(max);
    expect(max).toBeGreaterThanOrEqual(before);
    // Writes went on between the steps (each lands in the copy too: max ≥ before + some).
    expect(during).toBeGreaterThan(0);
    expect(result.migration).toBe(migrationNames().at(-1));
  });

  test('never overwrites a file', async () => {
    const dir = freshDir();
    const store = await openStore({ sqlitePath: path.join(dir, 'app.db') });
    writeFileSync(path.join(dir, 'taken.db'), 'mine');
    await expect(backupSqlite(store, path.join(dir, 'taken.db'))).rejects.toThrow(/já existe/);
    await store.close();
    expect(readFileSync(path.join(dir, 'taken.db'), 'utf8')).toBe('mine');
  });
});

describe('restore', () => {
  /** A stopped server's store with two terminals and a kept sale, and a backup of it. */
  async function storeAndBackup(dir: string): Promise<{ db: string; backup: string }> {
    const db = path.join(dir, 'app.db');
    const store = await openStore({ sqlitePath: db });
    await addTerminal(store, { name: 'Caixa 1', role: 'caixa' });
    await addTerminal(store, { name: 'Gerência', role: 'gerente' });
    await fill(store, 3, 10);
    await store.db
      .updateTable('posting_journal')
      .set({ state: 'aguardando envio', body: '{}', secret: 'v1.sealed' })
      .where('key', '=', key(3))
      .execute();
    const backup = (await backupSqlite(store, path.join(dir, 'backup.db'))).file;
    // After the backup: a third terminal, which the restore takes back.
    await addTerminal(store, { name: 'Caixa 2', role: 'caixa' });
    await store.close();
    return { db, backup };
  }

  test('npm run restore puts the backup back, keeps the previous store aside and says so', async () => {
    const dir = freshDir();
    const { db, backup } = await storeAndBackup(dir);
    const run = await cli('restore', backup, { APP_DB: db });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const aside = readdirSync(dir).filter((n) => n.startsWith('app.db.before-restore-'));
    expect(aside).toEqual([expect.stringMatching(/^app\.db\.before-restore-\d{8}T\d{6}Z$/)]);
    expect(run.stdout).toContain(`no lugar de ${db}`);
    expect(run.stdout).toContain(
      'Ele tem 2 terminal(is), 3 lançamentos no diário e 1 venda(s) guardada(s) ainda não entregue(s)',
    );
    expect(run.stdout).toContain(`O banco anterior foi guardado como ${path.join(dir, aside[0]!)}`);
    expect(run.stdout).toMatch(/APP_SECRET/);
    // Only the store, its backup and the previous store: nothing half-done left behind.
    expect(readdirSync(dir).sort()).toEqual(['app.db', aside[0], 'backup.db'].sort());

    const restored = await openStore({ sqlitePath: db });
    expect((await listTerminals(restored)).map((t) => t.name)).toEqual(['Caixa 1', 'Gerência']);
    const kept = await restored.db
      .selectFrom('posting_journal')
      .select(['state', 'secret'])
      .where('key', '=', key(3))
      .executeTakeFirst();
    expect(kept).toEqual({ state: 'aguardando envio', secret: 'v1.sealed' });
    await restored.close();
    const previous = await openStore({ sqlitePath: path.join(dir, aside[0]!) });
    expect(await listTerminals(previous)).toHaveLength(3);
    await previous.close();
  });

  test('into a folder with no store yet (a new machine)', () => {
    const dir = freshDir();
    return storeAndBackup(dir).then(({ backup }) => {
      const target = path.join(dir, 'new', 'app.db');
      const r = restoreSqlite(backup, target);
      expect(r).toMatchObject({ target, keptAside: [], note: null });
      expect(integrity(target)).toBe('ok');
    });
  });

  test('over a damaged store: replaces it, keeping it aside as it was', async () => {
    const dir = freshDir();
    const { db, backup } = await storeAndBackup(dir);
    writeFileSync(db, 'garbage '.repeat(1000));
    const r = restoreSqlite(backup, db, Date.parse('2026-11-26T10:00:00Z'));
    expect(r.note).toMatch(/^o banco atual não pôde ser lido \(file is not a database\)/);
    expect(r.keptAside).toEqual([`${db}.before-restore-20261126T100000Z`]);
    expect(readFileSync(r.keptAside[0]!, 'utf8')).toBe('garbage '.repeat(1000));
    expect(integrity(db)).toBe('ok');
  });

  /**
   * Runs `npm run restore -- file` expecting a refusal that leaves the store as it was (`before`:
   * its bytes, read before the store was opened: closing a file this process reads would drop
   * the POSIX locks SQLite holds on it).
   */
  async function refused(
    dir: string,
    db: string,
    file: string,
    before = readFileSync(db),
  ): Promise<string> {
    const listing = readdirSync(dir).sort();
    const run = await cli('restore', file, { APP_DB: db });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(readFileSync(db).equals(before)).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(listing);
    return run.stderr;
  }

  test('refuses a file that is not a store of this app, or one from a newer version', async () => {
    const dir = freshDir();
    const { db, backup } = await storeAndBackup(dir);

    const text = path.join(dir, 'notes.txt');
    writeFileSync(text, 'not a database\n'.repeat(100));
    expect(await refused(dir, db, text)).toBe(
      `Restauração recusada: ${text} não é um banco SQLite, então não é um banco deste app\n`,
    );

    const other = path.join(dir, 'other.db');
    const conn = new BetterSqlite3(other);
    conn.exec('create table t (x)');
    conn.close();
    expect(await refused(dir, db, other)).toMatch(
      /não é um banco deste app \(não tem a tabela de migrações\)/,
    );

    const newer = path.join(dir, 'newer.db');
    copyFileSync(backup, newer);
    const edit = new BetterSqlite3(newer);
    edit
      .prepare('insert into kysely_migration (name, timestamp) values (?, ?)')
      .run('9999_from_the_future', new Date().toISOString());
    edit.close();
    expect(await refused(dir, db, newer)).toMatch(
      /vem de uma versão mais nova do app \(migração 9999_from_the_future desconhecida desta/,
    );

    expect(await refused(dir, db, path.join(dir, 'missing.db'))).toMatch(/não há arquivo/);
    // Four real CLI processes, each a few seconds when the machine is busy.
  }, 60_000);

  test('refuses while the store is open (a server running), then restores once it is closed', async () => {
    const dir = freshDir();
    const { db, backup } = await storeAndBackup(dir);
    const before = readFileSync(db);
    const running = await openStore({ sqlitePath: db });
    try {
      expect(await refused(dir, db, backup, before)).toMatch(
        /app\.db está em uso \(o servidor, ou outro comando, o tem aberto\): pare o servidor/,
      );
    } finally {
      await running.close();
    }
    expect((await cli('restore', backup, { APP_DB: db })).code).toBe(0);
  }, 60_000);

  test('with DATABASE_URL both commands explain pg_dump / pg_restore instead', async () => {
    const env = {
      DATABASE_URL: 'postgres://app@127.0.0.1:1/app',
      APP_DB: path.join(tmp, 'none.db'),
    };
    const backup = await cli('backup', 'x.dump', env);
    expect(backup.code).toBe(2);
    expect(backup.stderr).toMatch(/pg_dump --format=custom/);
    expect(backup.stderr).toMatch(/Guarde o APP_SECRET junto com as cópias/);
    const restore = await cli('restore', 'x.dump', env);
    expect(restore.code).toBe(2);
    expect(restore.stderr).toMatch(/pg_restore --clean --if-exists/);
    expect(existsSync(path.join(tmp, 'none.db'))).toBe(false);
  });
});

describe('backup schedule', () => {
  test('keeps the newest BACKUP_KEEP timestamped backups and nothing else of the folder', async () => {
    const dir = freshDir();
    const store = await openStore({ sqlitePath: path.join(dir, 'app.db') });
    const backups = path.join(dir, 'backups');
    mkdirSync(backups);
    let t = Date.parse('2026-11-26T03:00:00Z');
    // Made 30 minutes ago (before a restart): the next is due in 30 minutes, not now.
    writeFileSync(path.join(backups, `app-${stamp(t - 30 * 60_000)}.db`), '');
    writeFileSync(path.join(backups, 'notes.txt'), 'keep me');
    const logged: object[] = [];
    const schedule = startBackupSchedule({
      store,
      dir: backups,
      keep: 3,
      everyMs: 3_600_000,
      now: () => t,
      logger: { info: (o) => logged.push(o), error: (o) => logged.push(o) },
    });
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      made.push(path.basename((await schedule.runNow()).file));
      t += 3_600_000;
    }
    await schedule.stop();
    await store.close();
    expect(made).toEqual([
      'app-20261126T030000Z.db',
      'app-20261126T040000Z.db',
      'app-20261126T050000Z.db',
      'app-20261126T060000Z.db',
      'app-20261126T070000Z.db',
    ]);
    expect(readdirSync(backups).sort()).toEqual([...made.slice(2), 'notes.txt']);
    expect(logged).toHaveLength(5);
    expect(logged.at(-1)).toMatchObject({ removed: ['app-20261126T040000Z.db'] });
    for (const name of made.slice(2)) expect(integrity(path.join(backups, name))).toBe('ok');
  });

  test('runs on its own: at once when no backup is there, then every interval; stop ends it', async () => {
    const dir = freshDir();
    const db = path.join(dir, 'app.db');
    const store = await openStore({ sqlitePath: db });
    await store.close();
    const backups = path.join(dir, 'backups');
    let written = 0;
    const schedule = startBackupSchedule({
      path: db,
      dir: backups,
      keep: 2,
      everyMs: 1_050,
      logger: { info: () => (written += 1), error: (o) => expect.fail(JSON.stringify(o)) },
    });
    while (written < 3) await new Promise((r) => setTimeout(r, 50));
    await schedule.stop();
    const names = readdirSync(backups);
    expect(names).toHaveLength(2);
    expect(names.every((n) => /^app-\d{8}T\d{6}Z\.db$/.test(n))).toBe(true);
    await new Promise((r) => setTimeout(r, 1_200));
    expect(written).toBe(3);
  }, 15_000);

  test('BACKUP_DIR, BACKUP_KEEP and BACKUP_EVERY_HOURS', () => {
    expect(readBackupEnv({})).toEqual({ ok: true, backup: null });
    expect(readBackupEnv({ BACKUP_DIR: 'bk' })).toEqual({
      ok: true,
      backup: { dir: path.resolve('bk'), keep: 7, everyMs: 24 * 3_600_000 },
    });
    expect(
      readBackupEnv({ BACKUP_DIR: '/b', BACKUP_KEEP: '30', BACKUP_EVERY_HOURS: '0.5' }),
    ).toEqual({
      ok: true,
      backup: { dir: '/b', keep: 30, everyMs: 1_800_000 },
    });
    for (const [env, error] of [
      [{ BACKUP_DIR: '/b', BACKUP_KEEP: '0' }, /BACKUP_KEEP must be an integer from 1/],
      [{ BACKUP_DIR: '/b', BACKUP_EVERY_HOURS: 'daily' }, /BACKUP_EVERY_HOURS must be a number/],
      [{ BACKUP_KEEP: '3' }, /need BACKUP_DIR/],
      [{ BACKUP_DIR: '/b', DATABASE_URL: 'postgres://x/y' }, /with DATABASE_URL use pg_dump/],
    ] as const) {
      const r = readBackupEnv(env);
      expect(r.ok).toBe(false);
      expect(!r.ok && r.error).toMatch(error);
    }
  });
});
