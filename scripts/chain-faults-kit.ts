// What the chain's fault tests (scripts/chain-faults.test.ts, scripts/chain-revoked.test.ts)
// and the chain bench's faults (`npm run bench -- --chain-faults`) do to a running chain and
// how they settle its postings afterwards: the service revoking a store's token, every
// replica's circuits watched, and unacknowledged postings sent again with their keys until the
// journal knows their fate.

import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import type { Chain } from './chain';
import { countInService, post, tally, type Posting } from './chain-load';

/** The service revokes a store's access-token (the sandbox's record of it changes). */
export function revokeToken(dbPath: string, establishment: number): void {
  const db = new Database(dbPath, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    db.prepare('UPDATE estabelecimentos SET access_token = ? WHERE id = ?').run(
      `revogado-${establishment}-${Date.now()}`,
      establishment,
    );
  } finally {
    db.close();
  }
}

/** Every replica's `pdv_store_circuit_open` samples that were 1, by store, while it runs. */
export function watchCircuits(replicas: readonly { url: string }[]) {
  const opened = new Map<string, number>();
  let samples = 0;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      for (const r of replicas) {
        const text = await fetch(`${r.url}/metrics`, { signal: AbortSignal.timeout(5_000) })
          .then((res) => res.text())
          .catch(() => '');
        for (const m of text.matchAll(
          /^pdv_store_circuit_open\{estabelecimento="(\d+)"\} (\d+)/gm,
        )) {
          if (m[2] !== '0') opened.set(m[1]!, (opened.get(m[1]!) ?? 0) + 1);
        }
      }
      samples += 1;
      await new Promise((r) => setTimeout(r, 400 + Math.random() * 200));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return { samples, opened };
    },
  };
}

export const byStore = (ps: readonly Posting[], id: number) =>
  ps.filter((p) => p.terminal.establishment === id);

/** Answers by HTTP status, for a printed line: `12×200 3×no answer`. */
export function statuses(ps: readonly Posting[]): string {
  const m = new Map<number, number>();
  for (const p of ps) m.set(p.status, (m.get(p.status) ?? 0) + 1);
  return [...m].map(([s, n]) => `${n}×${s === 0 ? 'no answer' : s}`).join(' ');
}

/**
 * The journal's state of a posting (GET /api/lancamentos/{key}, long poll of `esperar` s), or
 * `sem resposta` when the balancer answered instead (its 502/503 page: no replica in time).
 */
async function stateOf(url: string, p: Posting, esperar = 0): Promise<string> {
  const res = await fetch(`${url}/api/lancamentos/${p.key}?esperar=${esperar}`, {
    headers: { cookie: p.terminal.cookie, origin: url },
  }).catch(() => null);
  if (res?.status !== 200) {
    await res?.body?.cancel();
    await new Promise((r) => setTimeout(r, 500 + Math.random() * 500));
    return 'sem resposta';
  }
  return ((await res.json()) as { data: { estado: string } }).data.estado;
}

/**
 * Sends every unacknowledged posting again with its key. One the journal cannot tell
 * (`desconhecido`: the replica died with it sent) is never sent again by it: it is read again
 * until known, posted (`lançado`) or, past JOURNAL_UNKNOWN_HORIZON_MS, verified not posted
 * (`recusado`), which the cashier then posts as a new sale (a new key). Counts before and after.
 */
export async function settle(chain: Chain, ps: Posting[]) {
  const before = tally(countInService(chain.sandbox.dbPath, ps), ps);
  const unacknowledged = ps.filter((p) => !p.acknowledged);
  await Promise.all(unacknowledged.map((p) => post(chain.url, p)));
  const unknown = ps.filter((p) => !p.acknowledged);
  const verdicts = await Promise.all(
    unknown.map(async (p) => {
      let estado = await stateOf(chain.url, p);
      const open = ['desconhecido', 'verificando', 'enviando', 'sem resposta'];
      for (let i = 0; i < 10 && open.includes(estado); i++) {
        estado = await stateOf(chain.url, p, 8);
      }
      if (estado === 'recusado') {
        const again: Posting = { ...p, key: randomUUID(), acknowledged: false, attempts: 0 };
        await post(chain.url, again);
        p.acknowledged = again.acknowledged;
      }
      return `${p.key}: ${estado}, a new sale → ${p.acknowledged ? 'lançado' : 'not acknowledged'}`;
    }),
  );
  const after = tally(countInService(chain.sandbox.dbPath, ps), ps);
  return { before, resent: unacknowledged.length, unknown: unknown.length, verdicts, after };
}

/** The line both fault tests and the bench print for a settled set of postings. */
export function settledLine(s: Awaited<ReturnType<typeof settle>>): string {
  const { before, resent, unknown, after } = s;
  return (
    `in the service: ${before.once} once, ${before.doubles} doubles, ${before.lost} ` +
    `acknowledged lost, ${before.absentUnacknowledged} unacknowledged absent; ${resent} sent ` +
    `again (${unknown} unknown, then a new sale once known not posted) → ${after.once} once, ` +
    `${after.doubles} doubles, ${after.lost + after.absentUnacknowledged} absent`
  );
}
