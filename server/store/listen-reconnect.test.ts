/**
 * PostgreSQL stopped and started under a store (a replica): its queries fail while it is down
 * and work after, the process does not crash, and its LISTEN comes back by itself, so live
 * updates from other replicas (a PDV's sale to a counter, a staged sale to a kiosk) resume
 * with no restart.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openStore } from './index';
import { postgresSuite, startPgCluster, type PgCluster } from '../testing/pg-cluster';

const suite = postgresSuite();
let cluster: PgCluster | null = null;

beforeAll(async () => {
  if (!suite.skip) cluster = await startPgCluster();
}, 60_000);
afterAll(async () => {
  await cluster?.stop();
});

describe('a PostgreSQL store across a restart of PostgreSQL', suite, () => {
  test('queries fail while it is down and work after; LISTEN resumes by itself', async () => {
    const databaseUrl = await cluster!.createDatabase();
    const listening = await openStore({ databaseUrl });
    const got: string[] = [];
    await listening.listen('postings', (p) => got.push(p));
    const ping = () => listening.db.selectFrom('terminals').select('id').limit(1).execute();
    await ping();

    await cluster!.pause();
    const whileDown = await ping().then(
      () => 'answered',
      (err: unknown) => (err instanceof Error ? err.message : String(err)),
    );
    await cluster!.resume();

    // A store opened after the restart (another replica) notifies until the first one hears.
    const notifying = await openStore({ databaseUrl });
    const started = Date.now();
    let sent = 0;
    while (got.length === 0 && Date.now() - started < 20_000) {
      await notifying.notify('postings', `{"n":${++sent}}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const afterUp = await ping().then(() => 'answered');
    console.log(
      `PostgreSQL stopped and started: a query while down → "${whileDown}"; after → ${afterUp}; ` +
        `LISTEN heard again after ${Date.now() - started} ms (${sent} notifications sent, ` +
        `${got.length} heard)`,
    );
    expect(whileDown).not.toBe('answered');
    expect(afterUp).toBe('answered');
    expect(got.length).toBeGreaterThan(0);
    await notifying.close();
    await listening.close();
  }, 60_000);
});
