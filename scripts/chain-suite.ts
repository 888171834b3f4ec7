// The chain's tests through the real processes (scripts/chain.ts): whether they can run here,
// and the chain each test file starts for itself.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { postgresSuite } from '../server/testing/pg-cluster';
import { haproxyUnavailableReason, startChain, type Chain, type ChainOptions } from './chain';

/**
 * Whether the chain's tests can run here: they need PostgreSQL and HAProxy. Skipped (with the
 * reason in the tests' meta) without them; under CI=true, a failure.
 */
export function chainSuite(what: string) {
  const pgSuite = postgresSuite();
  if (pgSuite.skip) return pgSuite;
  const reason = haproxyUnavailableReason();
  if (reason === null) return { skip: false };
  if (process.env.CI === 'true') throw new Error(`CI=true and ${reason}`);
  console.warn(`skipping ${what}: ${reason}`);
  return { skip: true, meta: { leftOut: { needs: 'HAProxy', why: reason } } };
}

/** A test file's own chain, set once it has started. */
export interface OwnChain {
  /** The describe options: skipped where the chain cannot run. */
  readonly suite: ReturnType<typeof chainSuite>;
  readonly chain: Chain;
  /** Its folder (logs, databases). */
  readonly dir: string;
}

/**
 * Registers the file's beforeAll/afterAll around a chain of its own, started from the sources
 * (the run's build of them, server/testing/server-build.ts, when there is one) in a fresh
 * temporary folder (when the suite can run) with `ready` run on it once it serves
 * (enrolling terminals, say); stopped after the tests and its folder removed (kept when
 * CHAIN_KEEP is set, to read its logs).
 */
export function ownChain(
  name: string,
  options: Omit<ChainOptions, 'dir' | 'fromSources' | 'serverBuild'> & { timeoutMs?: number },
  ready: (chain: Chain) => Promise<void> = async () => undefined,
): OwnChain {
  const suite = chainSuite(`the chain's ${name} test`);
  let dir = '';
  let chain: Chain | null = null;
  const { timeoutMs = 180_000, ...chainOptions } = options;
  beforeAll(async () => {
    if (suite.skip) return;
    dir = mkdtempSync(path.join(tmpdir(), `chain-${name}-`));
    chain = await startChain({
      ...chainOptions,
      dir,
      fromSources: true,
      serverBuild: process.env.SERVER_BUILD,
    });
    await ready(chain);
  }, timeoutMs);
  afterAll(async () => {
    await chain?.stop();
    if (dir && process.env.CHAIN_KEEP === undefined) rmSync(dir, { recursive: true, force: true });
  }, 60_000);
  return {
    suite,
    get chain() {
      if (chain === null) throw new Error(`the chain's ${name} test: the chain has not started`);
      return chain;
    },
    get dir() {
      return dir;
    },
  };
}
