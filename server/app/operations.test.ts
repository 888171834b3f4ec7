// Health, metrics and a graceful restart through the real processes: the sandbox run alone,
// the fault relay in front of it and the app server (server/main.ts, live mode).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openStore, storeCounts } from '../store';
import {
  freshPhone,
  sandboxPurchases,
  startAppServer,
  startSandbox,
  type RunningProcess,
} from '../testing/processes';
import { startRelay, type Relay } from '../testing/relay';
import { credentialCookie, enrollCaixas, postPurchase } from './testing/clients';

const TOKEN = 'metrics-token-0123456789abcdef';
const TERMINALS = 10;
const POSTINGS = 50;

let dir: string;
let sandbox: RunningProcess;
let relay: Relay;
let app: RunningProcess;
let appDb: string;
const cookies: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'operations-'));
  appDb = path.join(dir, 'app.db');
  sandbox = await startSandbox(path.join(dir, 'sandbox.db'));
  relay = await startRelay(sandbox.url);
  app = await startAppServer(relay.url, {
    APP_DB: appDb,
    METRICS_TOKEN: TOKEN,
    TRUSTED_PROXIES: '127.0.0.1',
    // A posting's request answers after 300 ms; its sending goes on (what SIGTERM must wait for).
    JOURNAL_WAIT_MS: '300',
    SHUTDOWN_TIMEOUT_MS: '30000',
  });
  const names = Array.from({ length: TERMINALS }, (_, i) => `Caixa ${i + 1}`);
  for (const credential of await enrollCaixas(appDb, names)) {
    cookies.push(credentialCookie(app.url, credential));
  }
}, 90_000);

afterAll(async () => {
  await app?.kill9();
  await relay?.close();
  await sandbox?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const post = (cookie: string, celular: string) => postPurchase(app.url, cookie, celular);

const metrics = async () =>
  (await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();

function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

/** Prometheus' text format: each family announced by HELP and TYPE, each sample a number. */
function parsePrometheus(text: string): Map<string, string> {
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const type = /^# TYPE ([a-zA-Z_:][\w:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) {
      types.set(type[1]!, type[2]!);
      continue;
    }
    if (line.startsWith('# HELP ')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(\{(?:[a-zA-Z_]\w*="(?:[^"\\]|\\.)*",?)*\})? (\S+)$/.exec(line);
    if (m === null) throw new Error(`not Prometheus text: ${line}`);
    // prom-client writes an empty gauge's mean as "Nan"; Prometheus reads NaN in any case.
    if (Number.isNaN(Number(m[3])) && m[3]!.toLowerCase() !== 'nan')
      throw new Error(`not a number: ${line}`);
    const family = m[1]!.replace(/_(bucket|sum|count)$/, '');
    if (!types.has(m[1]!) && !types.has(family)) throw new Error(`no TYPE for ${line}`);
  }
  return types;
}

test('/healthz and /readyz answer without a terminal', async () => {
  const health = await fetch(`${app.url}/healthz`);
  expect(health.status).toBe(200);
  const ready = await fetch(`${app.url}/readyz`);
  expect(ready.status).toBe(200);
  expect(await ready.json()).toEqual({
    status: 'ready',
    ready: true,
    store: 'ok',
    draining: false,
    circuit: 'closed',
    waiting: 0,
    oldestWaitingSeconds: null,
  });
});

test('/metrics parses as Prometheus text and its counters move with a posting', async () => {
  const before = await metrics();
  const types = parsePrometheus(before);
  expect(types.get('pdv_http_requests_total')).toBe('counter');
  expect(types.get('pdv_upstream_calls_total')).toBe('counter');
  expect(types.get('process_cpu_seconds_total')).toBe('counter');
  expect(types.get('pdv_store_query_duration_seconds')).toBe('histogram');
  // The runtime the server runs on (the one npm brings, as this test's).
  const [major, minor, patch] = process.versions.node.split('.');
  expect(before).toContain(
    `nodejs_version_info{version="${process.version}",major="${major}",minor="${minor}",patch="${patch}"} 1`,
  );
  expect(types.get('pdv_posting_upstream_calls')).toBe('histogram');
  expect(types.get('pdv_posting_snapshots_total')).toBe('counter');
  const phone = freshPhone();
  const res = await post(cookies[0]!, phone);
  expect(res.status).toBeLessThan(300);
  await expect.poll(() => sandboxPurchases(sandbox.url, phone), { timeout: 10_000 }).toBe(1);
  // The service may record the purchase a moment before the app has counted its answer.
  const route =
    'pdv_http_requests_total{route="service:fidelidade/pontuar",method="POST",status="200"}';
  await expect
    .poll(async () => sample(await metrics(), route), { timeout: 10_000 })
    .toBeGreaterThan(sample(before, route));
  const after = await metrics();
  parsePrometheus(after);
  const upstream = 'pdv_upstream_calls_total{operation="fidelidade/pontuar",outcome="ok"}';
  expect(sample(after, upstream)).toBe(sample(before, upstream) + 1);
  const queries = 'pdv_store_query_duration_seconds_count{outcome="ok"}';
  expect(sample(after, queries)).toBeGreaterThan(sample(before, queries));
  // No lookup before it: the posting read the customer (its snapshot), then sent: two calls.
  expect(sample(after, 'pdv_posting_snapshots_total{source="read"}')).toBe(
    sample(before, 'pdv_posting_snapshots_total{source="read"}') + 1,
  );
  await expect
    .poll(async () => sample(await metrics(), 'pdv_posting_upstream_calls_sum'))
    .toBe(sample(before, 'pdv_posting_upstream_calls_sum') + 2);
  expect(after).not.toContain(phone.slice(3));
  expect(after).not.toContain('demo-access-token');
});

test('/metrics is refused to a client that is not on loopback, unless it has the token', async () => {
  const far = { 'x-forwarded-for': '10.9.8.7' };
  expect((await fetch(`${app.url}/metrics`, { headers: far })).status).toBe(403);
  expect(
    (
      await fetch(`${app.url}/metrics`, {
        headers: { ...far, authorization: 'Bearer not-the-token-at-all' },
      })
    ).status,
  ).toBe(403);
  const ok = await fetch(`${app.url}/metrics`, {
    headers: { ...far, authorization: `Bearer ${TOKEN}` },
  });
  expect(ok.status).toBe(200);
  expect((await fetch(`${app.url}/metrics`)).status).toBe(200);
});

test(`SIGTERM during ${POSTINGS} postings in flight settles every one and exits 0`, async () => {
  const rule = relay.add({
    match: '/fidelidade/pontuar',
    // Long enough for all of them to be held at once however slowly they arrive; well within
    // the server's 30 s drain (SHUTDOWN_TIMEOUT_MS).
    fault: { kind: 'delay', ms: 10_000 },
    times: POSTINGS,
  });
  const phones = Array.from({ length: POSTINGS }, freshPhone);
  const answers = Promise.all(phones.map((p, i) => post(cookies[i % TERMINALS]!, p)));
  // 50 postings through the journal to the relay: seconds on a quiet machine, much more when
  // other suites share its two cores.
  await expect.poll(() => rule.inFlight, { timeout: 60_000 }).toBe(POSTINGS);
  const exited = new Promise<number | null>((r) => app.child.once('exit', (code) => r(code)));
  app.child.kill('SIGTERM');
  const code = await exited;
  for (const res of await answers) expect(res.status).toBeLessThan(300);
  const line = /\[shutdown\] in flight=(\d+) settled=(\d+) left=(\d+)/.exec(app.output());
  console.log(line?.[0]);
  expect(code).toBe(0);
  expect(line?.slice(1)).toEqual([String(POSTINGS), String(POSTINGS), '0']);

  const store = await openStore({ sqlitePath: appDb });
  const { postingsByState } = await storeCounts(store);
  await store.close();
  expect(postingsByState['enviando'] ?? 0).toBe(0);
  expect(postingsByState['verificando'] ?? 0).toBe(0);
  const purchases = await Promise.all(phones.map((p) => sandboxPurchases(sandbox.url, p)));
  expect(purchases.every((n) => n === 1)).toBe(true);
}, 150_000);
