/**
 * The one two-engine store fixture of the store tests: SQLite files in a temporary folder and,
 * when PostgreSQL is installed (under CI=true it must be), a throwaway cluster on a free port,
 * started once for the file and stopped after it. Call `storeFixture` at a test file's top
 * level; run the suites with `describeEngines`, and open a new empty store a test (or a suite)
 * with `open(engine)`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { openStore } from '../store';
import type { AuditFilter, Store } from '../store';
import type { StoreOptions } from '../store/store';
import { startPgCluster, storeEngines } from './pg-cluster';
import type { PgCluster } from './pg-cluster';

export type StoreEngine = 'sqlite' | 'postgres';

/** Where a store lives: a PostgreSQL database, or a SQLite file. */
export type StoreLocation = { databaseUrl: string } | { sqlitePath: string };

export interface StoreFixture {
  /** A new empty place for a store on `engine`: a new database, or a new SQLite file. */
  location(engine: StoreEngine): Promise<StoreLocation>;
  /** A store opened on a new location of `engine`, with `options` (a clock, a query log). */
  open(
    engine: StoreEngine,
    options?: Omit<StoreOptions, 'databaseUrl' | 'sqlitePath'>,
  ): Promise<Store>;
  /**
   * A new empty store on `engine` for each test of the suite, handed to `use` before the test
   * (`let store: Store; stores.openEach(engine, (s) => (store = s));`) and closed after it.
   */
  openEach(engine: StoreEngine, use: (store: Store) => void): void;
  /** The file's temporary folder (SQLite files and anything else the tests write). */
  dir: string;
}

/** `name` names the temporary folder (`<name>-XXXXXX`). */
export function storeFixture(name: string): StoreFixture {
  const engines = storeEngines();
  let cluster: PgCluster | null = null;
  const dir = mkdtempSync(path.join(tmpdir(), `${name}-`));
  let files = 0;

  beforeAll(async () => {
    if (engines.includes('postgres')) cluster = await startPgCluster();
  }, 60_000);
  afterAll(async () => {
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function location(engine: StoreEngine): Promise<StoreLocation> {
    if (engine === 'sqlite') return { sqlitePath: path.join(dir, `app-${++files}.db`) };
    if (cluster === null) throw new Error('the PostgreSQL cluster is not running');
    return { databaseUrl: await cluster.createDatabase() };
  }
  const open: StoreFixture['open'] = async (engine, options = {}) =>
    openStore({ ...(await location(engine)), ...options });
  return {
    location,
    open,
    openEach(engine, use) {
      let store: Store | undefined;
      beforeEach(async () => {
        store = await open(engine);
        use(store);
      });
      afterEach(async () => {
        await store?.close();
        store = undefined;
      });
    },
    dir,
  };
}

/** A read of the audit trail with no period, action or terminal: the first page of ten. */
export const everyAuditEntry = (over: Partial<AuditFilter> = {}): AuditFilter => ({
  from: null,
  to: null,
  action: null,
  terminalId: null,
  offset: 0,
  limit: 10,
  ...over,
});
