// `npm run bench -- --chain-faults`: the chain of `--chain` (stores × 3 counters, 3 replicas
// behind HAProxy, PostgreSQL, the sandbox as the service) under a steady load, and three faults
// in turn while it posts: PostgreSQL stopped and started again, one replica killed with
// SIGKILL, and one store's access-token revoked at the service. Counted from the replicas'
// /readyz and /metrics and from the service's own records: every acknowledged posting there
// once, none twice, none in another store's establishment; after the run, every posting not
// acknowledged is sent again with its key (as a counter does) and counted again.

import { waitForStatus, type Chain } from '../scripts/chain';
import { startBenchChain } from './chain-bench';
import { countInService, runLoad, tally, type Posting } from '../scripts/chain-load';
import {
  byStore,
  revokeToken,
  settle,
  settledLine,
  statuses,
  watchCircuits,
} from '../scripts/chain-faults-kit';
import type { Check } from './report';

export interface ChainFaultsOptions {
  stores: number;
  terminalsPerStore: number;
  replicas: number;
  /** Offered postings per second, below what the host sustains: the faults, not a queue. */
  rate: number;
}

/** Seconds into the load when each fault strikes; the load runs `LOAD_SECONDS` in all. */
const AT = { postgres: 20, replica: 70, revoke: 110 };
const LOAD_SECONDS = 150;
/** The store whose token the service revokes (establishment 3: the sandbox's first chain store). */
const REVOKED = 3;
/** The sandbox reads its establishments' tokens again every 5 s; a margin past it. */
const TOKEN_TTL_MS = 6_000;

export interface ChainFaultsResult {
  postings: number;
  acknowledged: number;
  postgres: { downSeconds: number; whileDown: number[]; after: number[] };
  replica: { killed: string; survivors: number[] };
  revoked: {
    store: number;
    /** Its postings once the service's tokens were read again: answers by status + message. */
    refusals: Map<string, number>;
    count: number;
    /** Other stores' postings acknowledged after the revocation. */
    othersAcknowledgedAfter: number;
    circuitsOpened: Map<string, number>;
    circuitSamples: number;
  };
  /** The counts before and after every unacknowledged posting was sent again. */
  settledLine: string;
  doubles: number;
  lost: number;
  crossStore: number;
  /** Postings of the stores still served that ended unacknowledged after sending again. */
  unacknowledgedAfter: number;
  answers: string;
}

const sleepUntil = (t0: number, seconds: number) =>
  new Promise((r) => setTimeout(r, Math.max(0, t0 + seconds * 1000 - performance.now())));

const readyz = (c: Chain, replicas = c.replicas) =>
  Promise.all(
    replicas.map((r) =>
      fetch(`${r.url}/readyz`, { signal: AbortSignal.timeout(5_000) })
        .then((res) => res.status)
        .catch(() => 0),
    ),
  );

export async function chainFaultsBench(
  dir: string,
  o: ChainFaultsOptions,
  print: (line: string) => void,
): Promise<ChainFaultsResult> {
  // As in scripts/chain-faults.test.ts: a dead replica's postings are taken over after 3 s
  // instead of 15, and one whose fate is unknown is settled within the run.
  const { chain, terminals } = await startBenchChain(dir, o, {
    checkIntervalMs: 500,
    env: {
      JOURNAL_LEASE_MS: '3000',
      JOURNAL_RECHECK_MS: '2000',
      JOURNAL_UNKNOWN_HORIZON_MS: '10000',
    },
  });
  try {
    print(
      `chain up: ${o.replicas} replicas, ${o.stores} stores × ${o.terminalsPerStore} counters; ` +
        `${o.rate} postings/s for ${LOAD_SECONDS} s; PostgreSQL stopped at ${AT.postgres} s, ` +
        `replica ${o.replicas} killed at ${AT.replica} s, store ${REVOKED}'s token revoked at ` +
        `${AT.revoke} s`,
    );
    const t0 = performance.now();
    const load = runLoad({
      url: chain.url,
      terminals,
      rate: o.rate,
      seconds: LOAD_SECONDS,
      onSecond: (s, ps) => {
        if (s % 30 === 0) {
          print(
            `  ${s} s: ${ps.length} sent, ${ps.filter((p) => p.acknowledged).length} acknowledged`,
          );
        }
      },
    });

    await sleepUntil(t0, AT.postgres);
    const down = performance.now();
    await chain.pg.pause();
    await Promise.all(chain.replicas.map((r) => waitForStatus(`${r.url}/readyz`, 503, 30_000)));
    const whileDown = await readyz(chain);
    await new Promise((r) => setTimeout(r, 3_000));
    await chain.pg.resume();
    await Promise.all(chain.replicas.map((r) => waitForStatus(`${r.url}/readyz`, 200, 60_000)));
    const postgres = {
      downSeconds: (performance.now() - down) / 1000,
      whileDown,
      after: await readyz(chain),
    };
    print(
      `  PostgreSQL down ${postgres.downSeconds.toFixed(1)} s: /readyz while down ` +
        `${whileDown.join(' ')}, after ${postgres.after.join(' ')} (no replica restarted)`,
    );

    await sleepUntil(t0, AT.replica);
    const victim = chain.replicas.length - 1;
    await chain.killReplica(victim);
    await new Promise((r) => setTimeout(r, 2_000));
    const replica = {
      killed: chain.replicas[victim]!.name,
      survivors: await readyz(chain, chain.replicas.slice(0, victim)),
    };
    print(
      `  ${replica.killed} killed (SIGKILL): the others' /readyz ${replica.survivors.join(' ')}`,
    );

    await sleepUntil(t0, AT.revoke);
    const circuits = watchCircuits(chain.replicas.slice(0, victim));
    const revokedAt = Date.now();
    revokeToken(chain.sandbox.dbPath, REVOKED);
    print(`  store ${REVOKED}'s access-token revoked at the service`);
    const postings = (await load).postings;
    const { samples, opened } = await circuits.stop();

    // The revoked store's postings after the revocation are refusals: not sent again.
    const refused = (p: Posting) => p.terminal.establishment === REVOKED && p.startedAt > revokedAt;
    const served = postings.filter((p) => !refused(p));
    const answers = statuses(postings);
    const settled = await settle(chain, served);
    for (const v of settled.verdicts) print(`  ${v}`);
    const afterTtl = byStore(postings, REVOKED).filter(
      (p) => p.startedAt > revokedAt + TOKEN_TTL_MS,
    );
    const refusals = new Map<string, number>();
    for (const p of afterTtl) {
      const k = `${p.status} ${p.message ?? ''}`;
      refusals.set(k, (refusals.get(k) ?? 0) + 1);
    }
    const all = tally(countInService(chain.sandbox.dbPath, postings), postings);
    return {
      postings: postings.length,
      acknowledged: postings.filter((p) => p.acknowledged).length,
      postgres,
      replica,
      revoked: {
        store: REVOKED,
        refusals,
        count: afterTtl.length,
        othersAcknowledgedAfter: postings.filter(
          (p) => p.terminal.establishment !== REVOKED && p.startedAt > revokedAt && p.acknowledged,
        ).length,
        circuitsOpened: opened,
        circuitSamples: samples,
      },
      settledLine: settledLine(settled),
      doubles: all.doubles,
      lost: all.lost,
      crossStore: all.crossStore,
      unacknowledgedAfter: served.filter((p) => !p.acknowledged).length,
      answers,
    };
  } finally {
    await chain.stop();
  }
}

/** The section's table and its checks (`--chain-faults`). */
export function chainFaultsReport(r: ChainFaultsResult): { rows: string[][]; checks: Check[] } {
  const list = (m: Map<string, number>) =>
    m.size === 0 ? 'none' : [...m].map(([k, n]) => `${n}× ${k}`).join('; ');
  const rows = [
    ['postings offered / acknowledged', `${r.postings} / ${r.acknowledged}`],
    ['answers (last sending)', r.answers],
    ['PostgreSQL down (s)', r.postgres.downSeconds.toFixed(1)],
    [
      '/readyz of each replica while down · after',
      `${r.postgres.whileDown.join(' ')} · ${r.postgres.after.join(' ')}`,
    ],
    [`/readyz of the others after ${r.replica.killed} was killed`, r.replica.survivors.join(' ')],
    [`store ${r.revoked.store}'s postings after its token was revoked`, String(r.revoked.count)],
    ['their answers', list(r.revoked.refusals)],
    ['other stores acknowledged after the revocation', String(r.revoked.othersAcknowledgedAfter)],
    [
      `circuits open (${r.revoked.circuitSamples} samples of /metrics)`,
      list(r.revoked.circuitsOpened),
    ],
    ['settled', r.settledLine],
    ['double postings (service records)', String(r.doubles)],
    ['acknowledged postings lost (service records)', String(r.lost)],
    ['cross-store postings (service records)', String(r.crossStore)],
    ["served stores' postings unacknowledged after sending again", String(r.unacknowledgedAfter)],
  ];
  const refusedRight = [...r.revoked.refusals.keys()].every(
    (k) =>
      /^4\d\d /.test(k) && /acesso|token|autoriza/i.test(k) && !/indispon|contingência/i.test(k),
  );
  const checks: Check[] = [
    {
      name: 'chain faults: /readyz 503 while PostgreSQL is down, 200 after',
      figure: `${r.postgres.whileDown.join(' ')} → ${r.postgres.after.join(' ')}`,
      target: 'all 503, then all 200',
      pass:
        r.postgres.whileDown.every((s) => s === 503) && r.postgres.after.every((s) => s === 200),
    },
    {
      name: 'chain faults: the replicas left serve after a kill -9',
      figure: r.replica.survivors.join(' '),
      target: 'all 200',
      pass: r.replica.survivors.every((s) => s === 200),
    },
    {
      name: 'chain faults: a revoked store is refused, the others post, no circuit opens',
      figure: `${r.revoked.count} refused, ${r.revoked.othersAcknowledgedAfter} others, ${r.revoked.circuitsOpened.size} circuits`,
      target: '4xx, > 0, 0',
      pass:
        r.revoked.count > 0 &&
        refusedRight &&
        r.revoked.othersAcknowledgedAfter > 0 &&
        r.revoked.circuitsOpened.size === 0,
    },
    {
      name: 'chain faults: doubles, losses, cross-store, unacknowledged after sending again',
      figure: `${r.doubles}, ${r.lost}, ${r.crossStore}, ${r.unacknowledgedAfter}`,
      target: '0, 0, 0, 0',
      pass: r.doubles === 0 && r.lost === 0 && r.crossStore === 0 && r.unacknowledgedAfter === 0,
    },
  ];
  return { rows, checks };
}
