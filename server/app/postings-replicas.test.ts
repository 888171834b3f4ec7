/**
 * The postings journal across two real app-server replicas (two `server/main.ts` processes)
 * sharing one PostgreSQL and one sandbox process: the same `Idempotency-Key` sent to both at
 * the same moment answers the one posting to both (the loser of the journal's insert reads the
 * winner's entry), never a 500, and the sandbox's own data holds one purchase per key. The two
 * start at the same moment on an empty database: both serve, and the migrations ran once.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import pg from 'pg';
import { migrationNames } from '../store';
import { postgresSuite } from '../testing/pg-cluster';
import { freshPhone, sandboxPurchases } from '../testing/processes';
import type { RunningProcess } from '../testing/processes';
import { enrolledTerminal, fetchAs, twoReplicas } from './testing/replicas';

const suite = postgresSuite();
const replicas = twoReplicas('postings-replicas', { skip: suite.skip });

/** A `caixa` terminal enrolled in the shared store; its credential works on any replica. */
async function caixa(name: string) {
  const { credential } = await enrolledTerminal(replicas.databaseUrl, 'caixa', name);
  return async (replica: RunningProcess, key: string, body: unknown) => {
    const res = await fetchAs(
      credential,
      replica,
      '/api/v4/estabelecimentos/1/fidelidade/pontuar',
      {
        method: 'POST',
        headers: { 'idempotency-key': key },
        body: JSON.stringify(body),
      },
    );
    return { status: res.status, text: await res.text() };
  };
}

/** The `store migrated` log line of a replica: the migrations it applied (none: no line). */
function migratedBy(replica: RunningProcess): string[] {
  return replica
    .output()
    .split('\n')
    .flatMap((l) => {
      try {
        const line = JSON.parse(l) as { msg?: string; migrations?: string[] };
        return line.msg?.startsWith('store migrated') === true ? (line.migrations ?? []) : [];
      } catch {
        return [];
      }
    });
}

describe('postings across two app-server replicas on one PostgreSQL', suite, () => {
  test('started at the same moment on an empty database: both ready, each migration ran once', async () => {
    const { a, b } = replicas;
    const all = migrationNames();
    const client = new pg.Client({ connectionString: replicas.databaseUrl });
    await client.connect();
    const { rows } = await client
      .query<{ name: string }>('select name from kysely_migration order by name')
      .finally(() => client.end());
    const byA = migratedBy(a);
    const byB = migratedBy(b);
    const ready = await Promise.all(
      [a, b].map(async (r) => {
        const res = await fetch(`${r.url}/readyz`);
        return { status: res.status, body: (await res.json()) as { store: string } };
      }),
    );
    // A posting through each replica: both serve on the schema the other one may have made.
    const post = await caixa('Caixa migrações');
    const posted = await Promise.all(
      [a, b].map((r) =>
        post(r, randomUUID(), {
          cliente: { celular: freshPhone() },
          valor_gasto: 1000,
          senha_atendente: '1234',
        }),
      ),
    );
    console.log(
      `two replicas on an empty database: ${rows.length} of ${all.length} migrations recorded; ` +
        `applied by A ${byA.length}, by B ${byB.length}; /readyz ${ready.map((r) => r.status).join(' ')}; ` +
        `a posting through each: ${posted.map((p) => p.status).join(' ')}`,
    );
    expect(ready).toEqual([
      { status: 200, body: expect.objectContaining({ store: 'ok' }) },
      { status: 200, body: expect.objectContaining({ store: 'ok' }) },
    ]);
    expect(posted.map((p) => p.status)).toEqual([200, 200]);
    expect(rows.map((r) => r.name)).toEqual([...all].sort());
    // Each migration was applied by exactly one of the two processes.
    expect([...byA, ...byB].sort()).toEqual([...all].sort());
  });

  test('the same key sent to both replicas at once, 50 times: no 500, one posting per key', async () => {
    const { a, b, sandbox } = replicas;
    // Five terminals of ten keys each (each terminal stays under its burst limit). Every round
    // sends five new keys, each to A and B at the same moment; then every key is sent to both
    // at once again (answered from the journal at once: the race that once answered 500 was
    // there, a terminal's password count against a success on the other replica).
    const terminals = await Promise.all([1, 2, 3, 4, 5].map((n) => caixa(`Caixa ${n}`)));
    const statuses = new Map<number, number>();
    const failures: string[] = [];
    const sales: { post: (typeof terminals)[number]; key: string; celular: string }[] = [];
    const first = new Map<string, string>();
    let sameAnswer = 0;
    const toBoth = async (s: (typeof sales)[number]) => {
      const body = { cliente: { celular: s.celular }, valor_gasto: 1000, senha_atendente: '1234' };
      const answers = await Promise.all([s.post(a, s.key, body), s.post(b, s.key, body)]);
      for (const r of answers) {
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        if (r.status !== 200) failures.push(`${s.key}: ${r.status} ${r.text}`);
      }
      // Both answers are the posting's one answer, the same on every sending.
      first.set(s.key, first.get(s.key) ?? answers[0].text);
      if (answers.every((r) => r.text === first.get(s.key))) sameAnswer += 1;
    };
    for (let round = 0; round < 10; round++) {
      const batch = terminals.map((post) => ({ post, key: randomUUID(), celular: freshPhone() }));
      sales.push(...batch);
      await Promise.all(batch.map(toBoth));
    }
    for (let i = 0; i < sales.length; i += terminals.length) {
      await Promise.all(sales.slice(i, i + terminals.length).map(toBoth));
    }
    const counted = await Promise.all(sales.map((s) => sandboxPurchases(sandbox.url, s.celular)));
    const postings = counted.reduce((sum, n) => sum + n, 0);
    const errorLines = `${a.output()}\n${b.output()}`
      .split('\n')
      .filter((l) => l.includes('"status":500'));
    console.log(
      `${sales.length} keys, each to two replicas at once, twice: statuses ${[...statuses]
        .map(([s, n]) => `${n}×${s}`)
        .join(' ')}; the same answer from both for ${sameAnswer} of ${sales.length * 2} ` +
        `sendings; postings in the sandbox ${postings} (per key: ${[...new Set(counted)].join(', ')})`,
    );
    expect(errorLines).toEqual([]);
    expect(failures).toEqual([]);
    expect(sameAnswer).toBe(sales.length * 2);
    expect(counted.every((n) => n === 1)).toBe(true);
    expect(postings).toBe(sales.length);
  }, 180_000);
});
