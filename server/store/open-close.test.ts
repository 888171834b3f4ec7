/**
 * The SQLite store opened and closed 1,000 times in a Vitest worker, with connections and
 * statements left to the garbage collector and collections forced, then the same in worker
 * threads that exit with their connections open. On Node.js 24, better-sqlite3 12 aborted the
 * process as such an object was collected or its thread ended (`Assertion failed: (env) !=
 * nullptr` in node::RemoveEnvironmentCleanupHook): the worker running this file would die, and
 * Vitest fail the file (server/ops/runtime.test.ts checks that this runtime is a supported one).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Worker } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, expect, test } from 'vitest';
import { addTerminal, listTerminals, openStore } from './index';

const tmp = mkdtempSync(path.join(tmpdir(), 'store-open-close-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

// `gc()` without starting the worker with --expose-gc: the flag set now, the function taken
// from a context created after it.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

test('the store opens and closes 1,000 times, collected as it goes, without an abort', async () => {
  const file = path.join(tmp, 'app.db');
  const opens = 1000;
  let collections = 0;
  let abandoned = 0;
  for (let i = 0; i < opens; i++) {
    const store = await openStore({ sqlitePath: file });
    // Through the query builder, and a statement prepared on the connection itself.
    if (i % 100 === 0) await addTerminal(store, { role: 'caixa', name: `Caixa ${i}` });
    const terminals = await listTerminals(store);
    const count = await store.sqlite!.run((c) =>
      c.prepare('select count(*) from terminals').pluck().get(),
    );
    expect(count).toBe(terminals.length);
    // A connection and a statement nobody closes: only the collector ends them.
    const orphan = new BetterSqlite3(file, { readonly: true });
    orphan.prepare('select id from terminals').all();
    abandoned += 1;
    await store.close();
    if (i % 50 === 49) {
      gc();
      collections += 1;
    }
  }
  gc();
  collections += 1;
  const store = await openStore({ sqlitePath: file });
  const terminals = await listTerminals(store);
  await store.close();
  console.log(
    `Node.js ${process.version}: ${opens} opens and closes, ${abandoned} connections left to the collector, ${collections} collections forced, ${terminals.length} terminals kept`,
  );
  expect(terminals).toHaveLength(opens / 100);
}, 120_000);

test('worker threads ending with their connections and statements open do not abort', async () => {
  const file = path.join(tmp, 'threads.db');
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  // Plain JavaScript in the thread (the store's TypeScript is not loadable there): the driver
  // the store uses, left open when the thread's environment is torn down.
  const code = `
    const { workerData, parentPort } = require('node:worker_threads');
    const Database = require(workerData.driver);
    const db = new Database(workerData.file);
    db.pragma('journal_mode = WAL');
    db.exec('create table if not exists t (n integer)');
    const insert = db.prepare('insert into t (n) values (?)');
    for (let i = 0; i < 100; i++) insert.run(i);
    new Database(workerData.file, { readonly: true }).prepare('select count(*) from t').get();
    parentPort.postMessage(db.prepare('select count(*) as n from t').get().n);
  `;
  const threads = 20;
  const exits: number[] = [];
  for (let i = 0; i < threads; i++) {
    const worker = new Worker(code, { eval: true, workerData: { driver, file } });
    const [rows, exit] = await Promise.all([
      new Promise<number>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      }),
      new Promise<number>((resolve) => worker.once('exit', resolve)),
    ]);
    expect(rows).toBe((i + 1) * 100);
    exits.push(exit);
    gc();
  }
  console.log(`${threads} threads ended with open connections; exit codes ${[...new Set(exits)]}`);
  expect(exits).toEqual(Array.from({ length: threads }, () => 0));
}, 60_000);
