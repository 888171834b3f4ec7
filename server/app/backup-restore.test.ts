// Backups of a running server, through the real processes: the schedule started by BACKUP_DIR,
// `npm run backup` while postings are written, and `npm run restore` into a fresh server that
// finds the journal, the terminals and the kept sales (delivered with the same APP_SECRET),
// none of them twice: the ones the first server delivered after the backup are found in the
// customers' history and left to a manager.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, expect, test } from 'vitest';
import { openStore, storeCounts } from '../store';
import {
  freshPhone,
  sandboxPurchases,
  startAppServer,
  startSandbox,
  type RunningProcess,
} from '../testing/processes';
import { startRelay } from '../testing/relay';
import { root } from '../testing/spawn';
import { credentialCookie, enrollCaixas, postPurchase } from './testing/clients';

const POSTINGS = 200;
const dir = mkdtempSync(path.join(tmpdir(), 'backup-restore-'));
const running: RunningProcess[] = [];
afterAll(async () => {
  for (const p of running) await p.kill9();
  rmSync(dir, { recursive: true, force: true });
});

function cli(command: 'backup' | 'restore', file: string, appDb: string) {
  return new Promise<{ code: number | null; out: string }>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'server/backup-cli.ts', command, file],
      {
        cwd: root,
        env: { ...process.env, DATABASE_URL: '', APP_DB: appDb },
      },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, out }));
  });
}

test(`a backup taken while ${POSTINGS} postings are written restores into a fresh server`, async () => {
  const appDb = path.join(dir, 'app.db');
  const backups = path.join(dir, 'scheduled');
  const sandbox = await startSandbox(path.join(dir, 'sandbox.db'));
  running.push(sandbox);
  const relay = await startRelay(sandbox.url);
  const env = {
    JOURNAL_WAIT_MS: '300',
    CONTINGENCY_FAILURES: '1',
    CONTINGENCY_PROBE_MS: '200',
    RATE_LIMIT_BURST: '10000/10',
    RATE_LIMIT_SUSTAINED: '100000/600',
    CONTINGENCY_MAX_WAITING: '1000',
  };
  const app = await startAppServer(relay.url, {
    ...env,
    APP_DB: appDb,
    BACKUP_DIR: backups,
    BACKUP_KEEP: '2',
  });
  running.push(app);
  // BACKUP_DIR started the schedule: with no backup there yet, one is taken at start.
  await expect.poll(() => readdirSync(backups), { timeout: 15_000 }).toHaveLength(1);

  const credentials = await enrollCaixas(appDb, ['Caixa 1', 'Caixa 2']);
  const credential = credentials[0]!;
  const cookies = credentials.map((c) => credentialCookie(app.url, c));

  // The service is down: this sale is kept, its password sealed with APP_SECRET.
  relay.setDown(true);
  const kept = freshPhone();
  const keptRes = await postPurchase(app.url, cookies[0]!, kept);
  expect(keptRes.status).toBeLessThan(300);
  await expect
    .poll(async () => (await (await fetch(`${app.url}/readyz`)).json()).waiting, {
      timeout: 10_000,
    })
    .toBe(1);

  // Postings written while the backup runs (4 at a time per terminal, two terminals), kept
  // too: the service stays down until this server has stopped.
  let written = 0;
  const writer = (async () => {
    for (let i = 0; i < POSTINGS / 8; i++) {
      const batch = await Promise.all(
        Array.from({ length: 8 }, (_, j) => postPurchase(app.url, cookies[j % 2]!, freshPhone())),
      );
      for (const r of batch) {
        if (r.status < 300) written += 1;
        else throw new Error(`posting answered ${r.status}: ${await r.text()}`);
      }
    }
  })();
  await expect.poll(() => written, { timeout: 30_000 }).toBeGreaterThan(20);
  const file = path.join(dir, 'copy.db');
  const backup = await cli('backup', file, appDb);
  expect(backup.code).toBe(0);
  expect(backup.out).toMatch(/PRAGMA integrity_check ok/);
  await writer;
  expect(written).toBe(POSTINGS);
  // The service returns before this server stops: it delivers kept sales after the backup,
  // the first one among them.
  relay.setDown(false);
  await expect.poll(() => sandboxPurchases(sandbox.url, kept), { timeout: 30_000 }).toBe(1);
  await app.stop();

  const integrity = new BetterSqlite3(file, { readonly: true });
  expect(integrity.pragma('integrity_check', { simple: true })).toBe('ok');
  const copied = integrity.prepare('select count(*) as n from posting_journal').get() as {
    n: number;
  };
  const waiting = integrity
    .prepare("select count(*) as n from posting_journal where state = 'aguardando envio'")
    .get() as { n: number };
  const inCopy = (
    integrity.prepare('select customer_key as phone from posting_journal').all() as {
      phone: string;
    }[]
  ).map((r) => r.phone);
  integrity.close();
  console.log(`[backup] copy holds ${copied.n} of ${POSTINGS + 1} journal entries, all kept`);
  expect(copied.n).toBeGreaterThan(20);
  expect(waiting.n).toBe(copied.n);

  // A new machine: restore with no server running, then start one with the same APP_SECRET.
  const freshDb = path.join(dir, 'fresh', 'app.db');
  const restore = await cli('restore', file, freshDb);
  expect(restore.code).toBe(0);
  const restored = await openStore({ sqlitePath: freshDb });
  const counts = await storeCounts(restored);
  await restored.close();
  expect(Object.values(counts.postingsByState).reduce((a, b) => a + b, 0)).toBe(copied.n);

  const again = await startAppServer(relay.url, { ...env, APP_DB: freshDb });
  running.push(again);
  // The terminal enrolled before the backup is still enrolled.
  const config = await fetch(`${again.url}/api/config`, {
    headers: { cookie: credentialCookie(again.url, credential) },
  });
  expect((await config.json()).data.terminal).toMatchObject({ name: 'Caixa 1', role: 'caixa' });
  // Every kept sale of the backup ends posted once: by the first server after the backup (the
  // fresh one reads the customer's history, finds it and leaves it to a manager) or by the
  // fresh server, unsealed with the same APP_SECRET.
  const unsettled = async () => {
    const s = await openStore({ sqlitePath: freshDb });
    try {
      const c = await storeCounts(s);
      return (c.postingsByState['aguardando envio'] ?? 0) + (c.postingsByState.enviando ?? 0);
    } finally {
      await s.close();
    }
  };
  await expect.poll(unsettled, { timeout: 60_000, interval: 500 }).toBe(0);
  const purchases = await Promise.all(inCopy.map((p) => sandboxPurchases(sandbox.url, p)));
  const after = await openStore({ sqlitePath: freshDb });
  const byState = (await storeCounts(after)).postingsByState;
  await after.close();
  console.log(
    `[restore] ${inCopy.length} kept sales in the backup: posted once ${purchases.filter((n) => n === 1).length}, ` +
      `twice ${purchases.filter((n) => n > 1).length}, lost ${purchases.filter((n) => n === 0).length}; ` +
      `delivered by the fresh server ${byState['lançado'] ?? 0}, found delivered after the backup ` +
      `${byState['precisa de atenção'] ?? 0}`,
  );
  expect(purchases.every((n) => n === 1)).toBe(true);
  expect(byState['precisa de atenção'] ?? 0).toBeGreaterThanOrEqual(1); // the first kept sale
  await again.stop();
  await relay.close();
}, 120_000);
