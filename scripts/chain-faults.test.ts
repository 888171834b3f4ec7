/**
 * Faults of a chain's deployment under load, through the real processes `npm run chain` starts
 * (scripts/chain.ts): PostgreSQL, the sandbox as the service, two app-server replicas and
 * HAProxy in front. Counters post through the balancer (scripts/chain-load.ts) while
 * PostgreSQL is stopped and started again, then while a replica is killed with SIGKILL. Each
 * test counts, in the service's own records, every posting: acknowledged ones must be there
 * exactly once; unacknowledged ones once or not at all, and once after being sent again with
 * the same Idempotency-Key.
 */
import { describe, expect, test } from 'vitest';
import { waitForStatus } from './chain';
import { enrollCounters, runLoad, type CounterTerminal, type Posting } from './chain-load';
import { settle, settledLine, statuses } from './chain-faults-kit';
import { ownChain } from './chain-suite';

const STORES = [1];
let terminals: CounterTerminal[] = [];
const own = ownChain(
  'faults',
  {
    replicas: 2,
    stores: STORES,
    checkIntervalMs: 500,
    // A dead replica's postings are taken over after this lease (15 s by default), and one
    // whose fate it cannot tell is read again every 2 s and known not posted after 10 s.
    env: {
      JOURNAL_LEASE_MS: '3000',
      JOURNAL_RECHECK_MS: '2000',
      JOURNAL_UNKNOWN_HORIZON_MS: '10000',
    },
  },
  async (chain) => {
    terminals = await enrollCounters(chain, STORES, 3, 3);
  },
);

/**
 * 30 postings within 30 ms, the fault `after` ms into them: postings in flight (journaled,
 * leased, sent to the service or waiting for its answer) when it strikes.
 */
async function burstWith(fault: () => Promise<void>, after = 40): Promise<Posting[]> {
  const burst = runLoad({ url: own.chain.url, terminals, rate: 1000, seconds: 0.03 });
  await new Promise((r) => setTimeout(r, after));
  await fault();
  return (await burst).postings;
}

describe('a chain behind HAProxy under load', own.suite, () => {
  test('PostgreSQL stopped and started: /readyz 503 then 200, every posting once', async () => {
    const c = own.chain;
    const readyz = () =>
      Promise.all(c.replicas.map((r) => fetch(`${r.url}/readyz`).then((res) => res.status)));
    const load = runLoad({ url: c.url, terminals, rate: 8, seconds: 25 });
    await new Promise((r) => setTimeout(r, 6_000));
    const down = performance.now();
    const cut = burstWith(() => c.pg.pause());
    await Promise.all(c.replicas.map((r) => waitForStatus(`${r.url}/readyz`, 503, 20_000)));
    const whileDown = await readyz();
    await new Promise((r) => setTimeout(r, 3_000));
    await c.pg.resume();
    await Promise.all(c.replicas.map((r) => waitForStatus(`${r.url}/readyz`, 200, 30_000)));
    const outage = performance.now() - down;
    const afterUp = await readyz();
    const postings = [...(await load).postings, ...(await cut)];
    const acknowledged = postings.filter((p) => p.acknowledged).length;
    const settled = await settle(c, postings);
    const { before, after } = settled;
    if (settled.verdicts.length > 0) console.log(settled.verdicts.join('\n'));
    console.log(
      `PostgreSQL down ${(outage / 1000).toFixed(1)} s under ${postings.length} postings: ` +
        `/readyz while down ${whileDown.join(' ')}, after ${afterUp.join(' ')} (no replica ` +
        `restarted); answers ${statuses(postings)}; ` +
        `${postings.filter((p) => p.attempts > 1).length} needed more than one sending; acknowledged ` +
        `${acknowledged}; ${settledLine(settled)}`,
    );
    expect(whileDown).toEqual(c.replicas.map(() => 503));
    expect(afterUp).toEqual(c.replicas.map(() => 200));
    expect(before.doubles).toBe(0);
    expect(before.lost).toBe(0);
    expect(after).toMatchObject({ once: postings.length, doubles: 0, lost: 0 });
    expect(postings.every((p) => p.acknowledged)).toBe(true);
  }, 180_000);

  test('one replica killed with SIGKILL: the other takes over, 0 doubles, 0 lost', async () => {
    const c = own.chain;
    const load = runLoad({ url: c.url, terminals, rate: 8, seconds: 20 });
    await new Promise((r) => setTimeout(r, 6_000));
    const cut = await burstWith(() => c.killReplica(0));
    const postings = [...(await load).postings, ...cut];
    const acknowledged = postings.filter((p) => p.acknowledged).length;
    const settled = await settle(c, postings);
    const { before, after } = settled;
    if (settled.verdicts.length > 0) console.log(settled.verdicts.join('\n'));
    const survivor = await fetch(`${c.replicas[1]!.url}/readyz`).then((r) => r.status);
    const retried = postings.filter((p) => p.attempts > 1).length;
    console.log(
      `replica 1 killed (SIGKILL) under ${postings.length} postings: answers ` +
        `${statuses(postings)}; ${retried} needed more than one sending; acknowledged ` +
        `${acknowledged}; ${settledLine(settled)}; replica 2 /readyz ${survivor}`,
    );
    expect(before.doubles).toBe(0);
    expect(before.lost).toBe(0);
    expect(after).toMatchObject({ once: postings.length, doubles: 0, lost: 0 });
    expect(postings.every((p) => p.acknowledged)).toBe(true);
    expect(survivor).toBe(200);
  }, 180_000);
  // One store's token revoked at the service: scripts/chain-revoked.test.ts (3 stores).
});
