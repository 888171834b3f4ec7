/**
 * PostgreSQL for test suites: the cluster itself is in `pg-server.ts`; here, how a suite that
 * needs it runs, skips or fails.
 */
import { describe } from 'vitest';
import { pgUnavailableReason } from './pg-server';

export { startPgCluster, type PgCluster } from './pg-server';

/** The store engines a suite runs on when both can. */
const STORE_ENGINES = ['sqlite', 'postgres'] as const;

/**
 * What a test left out of the run says in its meta (Vitest's JSON report carries it):
 * `scripts/test-summary.mjs` counts these by `why`, so a run without PostgreSQL says so on the
 * line before its last instead of looking like a full run.
 */
export interface LeftOut {
  /** What the test needs: "PostgreSQL". */
  needs: string;
  why: string;
}

declare module 'vitest' {
  interface TaskMeta {
    leftOut?: LeftOut;
  }
}

/** `describe` options: skipped, with the reason in each of its tests' meta, or run. */
type SuiteOptions = { skip: boolean; meta?: { leftOut: LeftOut } };

/**
 * Options for a `describe` that needs PostgreSQL. Without it the suite is skipped, each of its
 * tests reported as skipped with the reason (not silently absent from the run); under CI=true
 * a missing PostgreSQL throws instead, failing the file.
 */
export function postgresSuite(): SuiteOptions {
  const reason = pgUnavailableReason();
  if (reason === null) return { skip: false };
  if (process.env.CI === 'true') throw new Error(`CI=true and ${reason}`);
  console.warn(`skipping PostgreSQL tests: ${reason}`);
  return { skip: true, meta: { leftOut: { needs: 'PostgreSQL', why: reason } } };
}

/**
 * `describe.each(STORE_ENGINES)(name, fn)`, `%s` in `name` being the engine, with each
 * engine's options: the PostgreSQL suite is skipped with its reason when PostgreSQL is not
 * installed (see `postgresSuite`).
 */
export function describeEngines(
  name: string,
  fn: (engine: (typeof STORE_ENGINES)[number]) => void,
): void {
  for (const engine of STORE_ENGINES) {
    const options = engine === 'postgres' ? postgresSuite() : { skip: false };
    describe(name.replace('%s', engine), options, () => fn(engine));
  }
}

/**
 * For a test file: the engines its store suite runs on here, for its shared setup (a cluster
 * is started only when the PostgreSQL half runs). SQLite always; PostgreSQL when installed
 * (under CI=true it must be).
 */
export function storeEngines(): ('sqlite' | 'postgres')[] {
  const reason = pgUnavailableReason();
  if (reason === null) return ['sqlite', 'postgres'];
  if (process.env.CI === 'true') throw new Error(`CI=true and ${reason}`);
  return ['sqlite'];
}
