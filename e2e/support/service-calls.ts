// Calls to the loyalty service per customer served at the counter, as the app server counts
// them on /metrics (`pdv_upstream_calls_total`, by operation: the lookup's, the journal's and
// the counter's refreshes alike). One customer served: the phone typed (the lookup leaves at
// its last digit), the customer's panel and rewards on screen, the amount and Enter, the result
// on screen with its points and rewards, the journal told the posting's points, Esc. Used by
// e2e/service-calls.spec.ts and by `npm run bench` (bench/calls-bench.ts).
import type { Page } from '@playwright/test';

/** Calls by operation (`clientes/buscar`, `fidelidade/pontuar`, `recompensas`…). */
export type Calls = Record<string, number>;

export interface Served {
  label: string;
  /** Every call to the service while this customer was served. */
  total: number;
  byOperation: Calls;
  /** The journal's own calls for the posting (its histogram on /metrics). */
  postingCalls: number;
  /** How the posting's snapshot and points were had (`lookup`, `read`, `answer`). */
  snapshot: string;
  points: string;
}

/** The samples of a /metrics family, summed by the value of `label`. */
function byLabel(metrics: string, family: string, label: string): Calls {
  const out: Calls = {};
  const line = new RegExp(`^${family}\\{([^}]*)\\}\\s+(\\d+(?:\\.\\d+)?)$`, 'gm');
  for (const m of metrics.matchAll(line)) {
    const key = new RegExp(`${label}="([^"]*)"`).exec(m[1]!)?.[1] ?? '?';
    out[key] = (out[key] ?? 0) + Number(m[2]);
  }
  return out;
}

/** A sample without labels (a histogram's `_sum`), or 0. */
function plain(metrics: string, series: string): number {
  const m = new RegExp(`^${series}\\s+(\\d+(?:\\.\\d+)?)$`, 'm').exec(metrics);
  return m ? Number(m[1]) : 0;
}

/** What moved between two readings of a family (only what did). */
function moved(after: Calls, before: Calls): Calls {
  const out: Calls = {};
  for (const [k, n] of Object.entries(after))
    if (n > (before[k] ?? 0)) out[k] = n - (before[k] ?? 0);
  return out;
}

const sum = (calls: Calls): number => Object.values(calls).reduce((a, b) => a + b, 0);

export async function readMetrics(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/metrics`, { signal: AbortSignal.timeout(5_000) });
  if (!res.ok) throw new Error(`/metrics answered ${res.status}`);
  return res.text();
}

/** Polls `read` until `done` holds (or `ms` passed: then it throws). */
async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > end) throw new Error('timed out waiting for the server');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Opens the counter's shift with the attendant password (the search field takes the focus). */
export async function openShift(page: Page, password = '1234'): Promise<void> {
  const dialog = page.getByRole('dialog', { name: /abrir turno/i });
  await dialog.getByLabel('Senha do atendente').fill(password);
  await dialog.getByRole('button', { name: /abrir turno/i }).click();
  await dialog.waitFor({ state: 'hidden' });
}

/** Serves one customer on an open counter and counts the calls to the service it took. */
export async function serveCustomer(
  page: Page,
  baseUrl: string,
  customer: { label: string; phoneDigits: string; cents: string },
): Promise<Served> {
  const before = await readMetrics(baseUrl);
  const field = page.getByLabel(/buscar cliente/i);
  await field.click();
  await field.pressSequentially(customer.phoneDigits);
  const amount = page.getByLabel('Valor da compra');
  await amount.waitFor();
  await page.getByText('Buscando prêmios a entregar…').waitFor({ state: 'hidden' });
  await amount.pressSequentially(customer.cents);
  await amount.press('Enter');
  const result = page.getByRole('heading', { name: /Pontos lançados/ });
  await result.waitFor();
  await page.getByText('Verificando prêmios…').waitFor({ state: 'hidden' });
  await page.getByTestId('earned-points').waitFor();
  // The journal learns the posting's points after its answer (from the counter's refresh, or
  // by a read of its own a few seconds later): counted only once it has.
  const pointsBefore = sum(byLabel(before, 'pdv_posting_points_total', 'source'));
  await until(
    () => readMetrics(baseUrl),
    (m) => sum(byLabel(m, 'pdv_posting_points_total', 'source')) > pointsBefore,
  );
  await page.keyboard.press('Escape');
  await result.waitFor({ state: 'hidden' });
  const after = await readMetrics(baseUrl);
  const byOperation = moved(
    byLabel(after, 'pdv_upstream_calls_total', 'operation'),
    byLabel(before, 'pdv_upstream_calls_total', 'operation'),
  );
  const source = (family: string) =>
    Object.keys(moved(byLabel(after, family, 'source'), byLabel(before, family, 'source'))).join(
      '+',
    );
  return {
    label: customer.label,
    total: sum(byOperation),
    byOperation,
    postingCalls:
      plain(after, 'pdv_posting_upstream_calls_sum') -
      plain(before, 'pdv_posting_upstream_calls_sum'),
    snapshot: source('pdv_posting_snapshots_total'),
    points: source('pdv_posting_points_total'),
  };
}

/** One line for a person: `Carlos: 3 calls (clientes/buscar 2, fidelidade/pontuar 1); …`. */
export function describeServed(s: Served): string {
  const ops = Object.entries(s.byOperation)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([op, n]) => `${op} ${n}`)
    .join(', ');
  return (
    `${s.label}: ${s.total} calls to the service (${ops}); the posting itself ` +
    `${s.postingCalls}, its snapshot from ${s.snapshot || '-'}, its points from ${s.points || '-'}`
  );
}
