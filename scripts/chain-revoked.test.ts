/**
 * A chain's fault: one store's token revoked at the service while every store's counters post,
 * through the real processes `npm run chain` starts (scripts/chain.ts): PostgreSQL, the sandbox
 * as the service, two app-server replicas serving stores 1, 3 and 4, and HAProxy in front.
 * The sandbox keeps each establishment's token in its database (`estabelecimentos`), read again
 * every 5 s: the test revokes store 3's by changing it there, as the service's panel would.
 * Then store 3's counters get the service's refusal (a 4xx, in Portuguese: not an outage), the
 * other stores keep posting, no store's circuit opens on any replica, and the service's own
 * records hold every acknowledged posting once.
 */
import { describe, expect, test } from 'vitest';
import {
  countInService,
  enrollCounters,
  post,
  runLoad,
  tally,
  type CounterTerminal,
  type Posting,
} from './chain-load';
import { byStore, revokeToken, watchCircuits } from './chain-faults-kit';
import { ownChain } from './chain-suite';

const STORES = [1, 3, 4];
const REVOKED = 3;
/** The sandbox reads its establishments again after 5 s; a margin past it. */
const TOKEN_TTL_MS = 6_000;
let terminals: CounterTerminal[] = [];
const own = ownChain('revoked', { replicas: 2, stores: STORES }, async (chain) => {
  terminals = await enrollCounters(chain, STORES, STORES.length, 2);
});

describe('a chain of 3 stores behind HAProxy under load', own.suite, () => {
  test("one store's token revoked at the service: its counters are refused, the others keep posting", async () => {
    const c = own.chain;
    const circuits = watchCircuits(c.replicas);
    const load = runLoad({ url: c.url, terminals, rate: 9, seconds: 24 });
    await new Promise((r) => setTimeout(r, 6_000));
    const revokedAt = Date.now();
    revokeToken(c.sandbox.dbPath, REVOKED);
    const postings = (await load).postings;
    const { samples, opened } = await circuits.stop();

    // Unacknowledged postings of the stores still served are sent again with their keys.
    const others = postings.filter((p) => p.terminal.establishment !== REVOKED);
    await Promise.all(others.filter((p) => !p.acknowledged).map((p) => post(c.url, p)));

    const after = (ps: readonly Posting[]) => ps.filter((p) => p.startedAt > revokedAt);
    const settled = (ps: readonly Posting[]) =>
      ps.filter((p) => p.startedAt > revokedAt + TOKEN_TTL_MS);
    const revoked = settled(byStore(postings, REVOKED));
    const refusals = new Map<string, number>();
    for (const p of revoked) {
      const k = `${p.status} ${p.message ?? ''}`;
      refusals.set(k, (refusals.get(k) ?? 0) + 1);
    }
    const counts = tally(countInService(c.sandbox.dbPath, postings), postings);
    const lines = STORES.map((id) => {
      const mine = byStore(postings, id);
      const ok = after(mine).filter((p) => p.acknowledged).length;
      return `store ${id}: ${mine.length} postings, ${mine.filter((p) => p.acknowledged).length} acknowledged, ${ok} acknowledged after the revocation`;
    });
    console.log(
      `token of store ${REVOKED} revoked at the service under ${postings.length} postings ` +
        `(9/s over ${STORES.length} stores, 2 replicas):\n  ${lines.join('\n  ')}\n` +
        `  store ${REVOKED} after the sandbox read its tokens again: ${revoked.length} postings, answers ` +
        `${[...refusals].map(([k, n]) => `${n}× ${k}`).join('; ')}\n` +
        `  circuits open in ${samples} samples of /metrics on each replica: ` +
        `${opened.size === 0 ? 'none' : [...opened].map(([id, n]) => `store ${id} ×${n}`).join(', ')}\n` +
        `  in the service: ${counts.once} once, ${counts.doubles} doubles, ${counts.lost} acknowledged lost, ` +
        `${counts.absentUnacknowledged} unacknowledged absent`,
    );

    if (process.env.CHAIN_DEBUG)
      console.log(
        byStore(postings, REVOKED)
          .map(
            (p) =>
              `${p.startedAt - revokedAt} ${p.terminal.id} ${p.status} ${p.attempts} ${p.message ?? ''}`,
          )
          .join('\n'),
      );
    // Store 3's counters: the service's refusal, a 4xx with a message, never an outage.
    expect(revoked.length).toBeGreaterThan(0);
    for (const p of revoked) {
      expect(p.acknowledged).toBe(false);
      expect(p.status).toBeGreaterThanOrEqual(400);
      expect(p.status).toBeLessThan(500);
      expect(p.message ?? '').toMatch(/acesso|token|autoriza/i);
      expect(p.message ?? '').not.toMatch(/indispon|contingência/i);
    }
    // The other stores keep posting: every posting acknowledged, some after the revocation.
    for (const id of STORES.filter((s) => s !== REVOKED)) {
      expect(after(byStore(postings, id)).filter((p) => p.acknowledged).length).toBeGreaterThan(0);
      expect(byStore(postings, id).every((p) => p.acknowledged)).toBe(true);
    }
    expect(opened.size).toBe(0);
    expect(counts.doubles).toBe(0);
    expect(counts.lost).toBe(0);
  }, 180_000);
});
