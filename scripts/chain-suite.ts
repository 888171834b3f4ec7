/**
 * Whether the chain's tests through the real processes (scripts/chain.ts) can run here: they
 * need PostgreSQL and HAProxy. Skipped (with the reason in the tests' meta) without them;
 * under CI=true, a failure.
 */
import { postgresSuite } from '../server/testing/pg-cluster';
import { haproxyUnavailableReason } from './chain';

export function chainSuite(what: string) {
  const pgSuite = postgresSuite();
  if (pgSuite.skip) return pgSuite;
  const reason = haproxyUnavailableReason();
  if (reason === null) return { skip: false };
  if (process.env.CI === 'true') throw new Error(`CI=true and ${reason}`);
  console.warn(`skipping ${what}: ${reason}`);
  return { skip: true, meta: { leftOut: { needs: 'HAProxy', why: reason } } };
}
