// Load on a chain (scripts/chain.ts) through its balancer, as the stores' counters post: each
// posting is the counter's `POST …/fidelidade/pontuar` with its own Idempotency-Key, a customer
// nobody else uses and an amount no other posting has, so the service's own records tell
// whether it was posted once, twice or never. What the bench and the fault tests count with it:
// postings acknowledged and their times, the CPU of each process tree (/proc), the app
// servers' upstream calls (/metrics), and the postings in the service's (sandbox's) database.

import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { signCredential } from '../server/app/domain/credential';
import { credentialCookieName } from '../server/app/http/access/terminal';
import { enrollDirectly, openStore } from '../server/store';
import type { Chain } from './chain';

export interface CounterTerminal {
  id: number;
  cookie: string;
  /** Its store's establishment id. */
  establishment: number;
}

/**
 * `perStore` `caixa` terminals for each of `slots` stores, enrolled in the chain's store; slot
 * `s` is establishment `stores[s % stores.length]`.
 */
export async function enrollCounters(
  chain: Chain,
  stores: readonly number[],
  slots: number,
  perStore: number,
): Promise<CounterTerminal[]> {
  const store = await openStore({ databaseUrl: chain.databaseUrl });
  const name = `${credentialCookieName(chain.url)}=`;
  try {
    const out: CounterTerminal[] = [];
    for (let s = 0; s < slots; s++) {
      for (let t = 0; t < perStore; t++) {
        const establishment = stores[s % stores.length]!;
        const { terminal, nonce } = await enrollDirectly(store, {
          name: `Loja ${s + 1} caixa ${t + 1}`,
          role: 'caixa',
          establishmentId: establishment,
        });
        out.push({
          id: terminal.id,
          cookie: name + signCredential(chain.secret, terminal.id, nonce),
          establishment,
        });
      }
    }
    return out;
  } finally {
    await store.close();
  }
}

export interface Posting {
  key: string;
  /** E.164, unique to the posting. */
  celular: string;
  valor: number;
  terminal: CounterTerminal;
  /** Final HTTP status of the last attempt (0: no answer). */
  status: number;
  /** The answer's message when it was a refusal (4xx). */
  message?: string;
  /** Acknowledged: the journal said `lançado` (200, or 202 followed to `lançado`). */
  acknowledged: boolean;
  attempts: number;
  /** Request → acknowledged (ms), first attempt's start to the answer that said so. */
  ms: number | null;
  startedAt: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Backoff with jitter: half the step plus a random share of it, doubling up to `cap`. */
const backoff = (attempt: number, cap = 2_000) => {
  const step = Math.min(cap, 100 * 2 ** attempt);
  return step / 2 + Math.random() * (step / 2);
};

/** One posting through `url`: retried with the same key on no answer, a 5xx or a 429. */
export async function post(url: string, p: Posting, maxAttempts = 8): Promise<Posting> {
  const t0 = performance.now();
  p.startedAt = Date.now();
  const headers = {
    cookie: p.terminal.cookie,
    origin: url,
    'content-type': 'application/json',
    'idempotency-key': p.key,
  };
  const body = JSON.stringify({
    cliente: { celular: p.celular },
    valor_gasto: p.valor,
    senha_atendente: '1234',
  });
  const path = `/api/v4/estabelecimentos/${p.terminal.establishment}/fidelidade/pontuar`;
  for (p.attempts = 1; p.attempts <= maxAttempts; p.attempts++) {
    try {
      const res = await fetch(url + path, {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.timeout(30_000),
      });
      p.status = res.status;
      if (res.status >= 400 && res.status < 500) {
        p.message = ((await res.json().catch(() => ({}))) as { message?: string }).message;
      } else await res.body?.cancel();
      if (res.status === 200) {
        p.acknowledged = true;
        p.ms = performance.now() - t0;
        return p;
      }
      if (res.status === 202 && (await followed(url, p))) {
        p.acknowledged = true;
        p.ms = performance.now() - t0;
        return p;
      }
      // Any other 4xx is the service's (or the server's) answer: not retried.
      if (res.status >= 400 && res.status < 500 && res.status !== 429) return p;
    } catch {
      p.status = 0;
    }
    if (p.attempts < maxAttempts) await sleep(backoff(p.attempts));
  }
  return p;
}

/** A 202's posting followed with `GET /api/lancamentos/{key}?esperar=` until it ends. */
async function followed(url: string, p: Posting): Promise<boolean> {
  for (let i = 0; i < 6; i++) {
    const res = await fetch(`${url}/api/lancamentos/${p.key}?esperar=8`, {
      headers: { cookie: p.terminal.cookie, origin: url },
      signal: AbortSignal.timeout(30_000),
    }).catch(() => null);
    if (res?.status === 200) {
      const estado = ((await res.json()) as { data: { estado: string } }).data.estado;
      if (estado === 'lançado') return true;
      if (estado === 'recusado') return false;
    } else await sleep(backoff(i));
  }
  return false;
}

export interface LoadOptions {
  url: string;
  terminals: readonly CounterTerminal[];
  /** Postings per second offered (open loop: on schedule, not after the previous answer). */
  rate: number;
  seconds: number;
  /** Most postings in flight; past it the generator waits (and says so: `held`). */
  maxInFlight?: number;
  /** Called once a second with the postings so far. */
  onSecond?: (second: number, postings: readonly Posting[]) => void;
}

let runSeq = 0;

/** A fresh valid mobile number per posting: +55 11 9d + 7 digits, `d` fixed per run. */
function phones(): () => string {
  const d = 1 + ((Date.now() + runSeq++) % 9);
  let n = Math.floor(Math.random() * 5_000_000);
  return () => `+55119${d}${String(n++ % 10_000_000).padStart(7, '0')}`;
}

export async function runLoad(
  options: LoadOptions,
): Promise<{ postings: Posting[]; held: number }> {
  const postings: Posting[] = [];
  const pending = new Set<Promise<Posting>>();
  const phone = phones();
  const maxInFlight = options.maxInFlight ?? 400;
  const start = performance.now();
  const total = Math.round(options.rate * options.seconds);
  const end = start + options.seconds * 1000;
  let held = 0;
  let second = 0;
  // Sends stop at the end of the duration: a chain that cannot keep up is offered less (and
  // `held` says how often the generator waited for room), never a longer run.
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / options.rate;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    while (pending.size >= maxInFlight) {
      held += 1;
      await Promise.race(pending);
    }
    if (performance.now() > end + 1000 / options.rate) break;
    const p: Posting = {
      key: randomUUID(),
      celular: phone(),
      valor: 1000 + i,
      terminal: options.terminals[i % options.terminals.length]!,
      status: 0,
      acknowledged: false,
      attempts: 0,
      ms: null,
      startedAt: 0,
    };
    postings.push(p);
    const done = post(options.url, p);
    pending.add(done);
    void done.finally(() => pending.delete(done));
    const now = Math.floor((performance.now() - start) / 1000);
    if (now > second) {
      second = now;
      options.onSecond?.(second, postings);
    }
  }
  await Promise.all(pending);
  return { postings, held };
}

/** A posting's records in the service: in its own store's establishment, and in any other. */
export interface ServiceCount {
  own: number;
  elsewhere: number;
}

/**
 * How many times each posting is in the service's records (the sandbox's SQLite database,
 * read directly): postings of its customer with its amount, in its terminal's establishment
 * and in any other one (a posting that crossed stores).
 */
export function countInService(
  dbPath: string,
  postings: readonly Posting[],
): Map<string, ServiceCount> {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare(
        `SELECT c.celular AS celular, p.valor_gasto AS valor,
                p.estabelecimento_id AS estabelecimento, count(*) AS n
           FROM pontos p JOIN clientes c ON c.id = p.cliente_id
          GROUP BY c.celular, p.valor_gasto, p.estabelecimento_id`,
      )
      .all() as { celular: string; valor: number; estabelecimento: number; n: number }[];
    const found = new Map<string, { estabelecimento: number; n: number }[]>();
    for (const r of rows) {
      const key = `${r.celular.slice(-11)}/${r.valor}`;
      found.set(key, [...(found.get(key) ?? []), r]);
    }
    return new Map(
      postings.map((p) => {
        const count: ServiceCount = { own: 0, elsewhere: 0 };
        for (const r of found.get(`${p.celular.slice(-11)}/${p.valor}`) ?? []) {
          if (r.estabelecimento === p.terminal.establishment) count.own += r.n;
          else count.elsewhere += r.n;
        }
        return [p.key, count];
      }),
    );
  } finally {
    db.close();
  }
}

/**
 * Doubles (in its store's records more than once), lost (acknowledged, absent), the absent
 * rest, and cross-store (in another establishment's records at all).
 */
export function tally(counts: Map<string, ServiceCount>, postings: readonly Posting[]) {
  let once = 0;
  let doubles = 0;
  let lost = 0;
  let absentUnacknowledged = 0;
  let crossStore = 0;
  for (const p of postings) {
    const { own: n, elsewhere } = counts.get(p.key) ?? { own: 0, elsewhere: 0 };
    if (elsewhere > 0) crossStore += 1;
    if (n === 1) once += 1;
    else if (n > 1) doubles += 1;
    else if (p.acknowledged) lost += 1;
    else absentUnacknowledged += 1;
  }
  return { once, doubles, lost, absentUnacknowledged, crossStore };
}

/** CPU time (ms) of `pid` and its descendants, reaped children included; 0 when it is gone. */
export function treeCpuMs(pid: number): number {
  const stats = new Map<number, { ppid: number; ticks: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const text = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command (which may hold spaces), from field 3 (state).
      const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
      // utime, stime, cutime, cstime: fields 14–17 (1-based), here 11–14 from 0.
      const ticks = Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
      stats.set(Number(entry), { ppid: Number(f[1]), ticks });
    } catch {
      // Gone between the listing and the read.
    }
  }
  let ticks = 0;
  const tree = new Set([pid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [p, s] of stats) {
      if (!tree.has(p) && tree.has(s.ppid)) {
        tree.add(p);
        grew = true;
      }
    }
  }
  for (const p of tree) ticks += stats.get(p)?.ticks ?? 0;
  // Linux's USER_HZ is 100 on every architecture Node.js runs on.
  return ticks * 10;
}

/** The sum of a counter's samples in a replica's /metrics (loopback: no token needed). */
export async function metricSum(replicaUrl: string, name: string): Promise<number> {
  const res = await fetch(`${replicaUrl}/metrics`, { signal: AbortSignal.timeout(5_000) });
  const text = await res.text();
  let sum = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith(`${name}{`) || line.startsWith(`${name} `)) {
      sum += Number(line.slice(line.lastIndexOf(' ') + 1));
    }
  }
  return sum;
}
