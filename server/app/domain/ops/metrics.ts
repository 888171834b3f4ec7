/**
 * The app server's metrics in Prometheus' text format (prom-client), on a registry of its own.
 * Labels are routes, operations, outcomes and states: never a customer, a phone or a token.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { createDeliveryStore, storeCounts } from '../../../store';
import type { Store } from '../../../store';
import { RULE_CODES } from '#contract/api/vigilancia';
import type { Fetcher } from '../../upstream/client';
import type { JournalObserver } from '../journal/context';
import type { PostingService } from '../journal/service';

export interface MetricsDeps {
  store: Store;
  postings?: Pick<PostingService, 'status'> | null;
  /** Collects the process defaults (CPU, memory, event loop); off in unit tests. */
  processDefaults?: boolean;
}

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** `/api/v4/estabelecimentos/7/clientes/42/premios?x` → `clientes/:id/premios`. */
export function operationOf(pathname: string): string {
  const service = /^\/api\/v4\/estabelecimentos\/[^/]+\/(.*)$/.exec(pathname);
  const rest = service ? service[1]! : pathname;
  return (
    rest
      .split('/')
      .slice(0, 6)
      .map((part) => (/\d/.test(part) || part.length > 40 ? ':id' : part))
      .join('/') || '/'
  );
}

/** A request's route label: the service's operation, the app's own API, or a page. */
export function routeOf(pathname: string): string {
  if (pathname.startsWith('/api/v4/')) return `service:${operationOf(pathname)}`;
  if (pathname.startsWith('/api/')) return operationOf(pathname);
  if (pathname.startsWith('/assets/')) return '/assets';
  return ['/healthz', '/readyz', '/metrics'].includes(pathname) ? pathname : 'page';
}

/** The conferência's gauges: the latest finished run's findings by kind, and whether any needs attention. */
function conferenciaGauges(registry: Registry) {
  let latest: (() => Promise<Record<string, number> | null>) | null = null;
  const attention = new Gauge({
    name: 'pdv_reconciliation_attention',
    help: '1 when the latest finished conferência found something that needs attention, else 0.',
    registers: [registry],
  });
  const findings = new Gauge({
    name: 'pdv_reconciliation_findings',
    help: 'Findings of the latest finished conferência, by kind (absent before the first).',
    labelNames: ['kind'],
    registers: [registry],
    async collect() {
      const last = latest === null ? null : await latest();
      findings.reset();
      for (const [kind, n] of Object.entries(last ?? {})) findings.set({ kind }, n);
      const needs = Object.entries(last ?? {}).some(
        ([k, n]) => k !== 'nao_lancado_por_nos' && n > 0,
      );
      attention.set(needs ? 1 : 0);
    },
  });
  return {
    watch(read: () => Promise<Record<string, number> | null>): void {
      latest = read;
    },
  };
}

/** Vigilância's alerts by rule: every code shown from 0, nothing else counted. */
function vigilanciaCounter(registry: Registry): (rule: string) => void {
  const alerts = new Counter({
    name: 'pdv_vigilancia_alerts_total',
    help: 'Vigilância alerts raised by this process, by rule (the eight rule codes).',
    labelNames: ['rule'],
    registers: [registry],
  });
  for (const rule of RULE_CODES) alerts.inc({ rule }, 0);
  return (rule) => {
    if ((RULE_CODES as readonly string[]).includes(rule)) alerts.inc({ rule });
  };
}

/**
 * Vigilância's webhook: the deliveries this process settled, by store and outcome, and the
 * ones pending in the store (every replica reads the same), by store. The stores are the
 * chain's: bounded labels.
 */
function webhookMetrics(registry: Registry, store: Store) {
  const settled = new Counter({
    name: 'pdv_alert_webhook_deliveries_total',
    help: 'Webhook deliveries this process settled, by store and estado (entregue, falhou).',
    labelNames: ['estabelecimento', 'estado'],
    registers: [registry],
  });
  const deliveries = createDeliveryStore(store);
  new Gauge({
    name: 'pdv_alert_webhook_deliveries_pending',
    help: 'Webhook deliveries pending (not yet delivered nor failed), by store.',
    labelNames: ['estabelecimento'],
    registers: [registry],
    async collect() {
      const pending = await deliveries.pendingByStore();
      this.reset();
      for (const [id, n] of pending) this.set({ estabelecimento: String(id) }, n);
    },
  });
  return (establishmentId: number, estado: 'entregue' | 'falhou'): void => {
    settled.inc({ estabelecimento: String(establishmentId), estado });
  };
}

/** What the postings journal tells of its postings: their calls, snapshots and points. */
function journalMetrics(registry: Registry): JournalObserver {
  const postingCalls = new Histogram({
    name: 'pdv_posting_upstream_calls',
    help:
      'Calls to the loyalty service one posting took here, from its journaling to its verdict ' +
      '(the snapshot read, pontuar, the points read, verification reads).',
    buckets: [0, 1, 2, 3, 4, 6, 10],
    registers: [registry],
  });
  const snapshots = new Counter({
    name: 'pdv_posting_snapshots_total',
    help: "How postings' snapshots were had: the terminal's lookup moments before, or a read.",
    labelNames: ['source'],
    registers: [registry],
  });
  const points = new Counter({
    name: 'pdv_posting_points_total',
    help:
      "How postings' points were learned: their answer, a counter's read after it (lookup), " +
      "or a read of the journal's own.",
    labelNames: ['source'],
    registers: [registry],
  });
  return {
    snapshot: (source) => snapshots.inc({ source }),
    points: (source) => points.inc({ source }),
    postingCalls: (calls) => postingCalls.observe(calls),
  };
}

/**
 * A chain's stores: the calls and the circuit of each, labelled by its establishment (only the
 * stores the deployment serves: the label's values are bounded by the list).
 */
function storeMetrics(registry: Registry) {
  const calls = new Counter({
    name: 'pdv_store_upstream_calls_total',
    help: 'Calls to the loyalty service by store (establishment) and outcome (ok, 4xx, 5xx, error).',
    labelNames: ['estabelecimento', 'outcome'],
    registers: [registry],
  });
  const circuits = new Map<number, { isOpen(): boolean }>();
  new Gauge({
    name: 'pdv_store_circuit_open',
    help: "1 while a store's circuit to the loyalty service is open (its contingency), else 0.",
    labelNames: ['estabelecimento'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [id, c] of circuits) this.set({ estabelecimento: String(id) }, c.isOpen() ? 1 : 0);
    },
  });
  return {
    calls,
    /** A store's circuit, read at each scrape (its latest app's). */
    watch(establishmentId: number, circuit: { isOpen(): boolean }): void {
      circuits.set(establishmentId, circuit);
    },
  };
}

/** The contingency as the journal tells it at each scrape: the circuit and the sales kept. */
function contingencyGauges(
  registry: Registry,
  status: () => Promise<Awaited<ReturnType<PostingService['status']>> | null>,
  now: () => number,
): void {
  new Gauge({
    name: 'pdv_circuit_open',
    help: '1 while the circuit to the loyalty service is open (contingency), else 0.',
    registers: [registry],
    async collect() {
      this.set((await status())?.open ? 1 : 0);
    },
  });
  new Gauge({
    name: 'pdv_sales_waiting',
    help: 'Sales kept during an outage and waiting to be delivered.',
    registers: [registry],
    async collect() {
      this.set((await status())?.waiting ?? 0);
    },
  });
  new Gauge({
    name: 'pdv_sales_waiting_oldest_age_seconds',
    help: 'Age of the oldest sale waiting to be delivered (0 when none waits).',
    registers: [registry],
    async collect() {
      const at = (await status())?.oldestWaitingAt ?? null;
      this.set(at === null ? 0 : Math.max(0, (now() - at) / 1000));
    },
  });
}

export function createMetrics(deps: MetricsDeps) {
  const registry = new Registry();
  if (deps.processDefaults !== false) collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'pdv_http_requests_total',
    help: 'Requests answered, by route and status.',
    labelNames: ['route', 'method', 'status'],
    registers: [registry],
  });
  const requestSeconds = new Histogram({
    name: 'pdv_http_request_duration_seconds',
    help: 'Time to answer a request (until its headers), by route.',
    labelNames: ['route'],
    buckets: SECONDS,
    registers: [registry],
  });
  const upstream = new Counter({
    name: 'pdv_upstream_calls_total',
    help: 'Calls to the loyalty service, by operation and outcome (ok, 4xx, 5xx, error).',
    labelNames: ['operation', 'outcome'],
    registers: [registry],
  });
  const upstreamSeconds = new Histogram({
    name: 'pdv_upstream_call_duration_seconds',
    help: 'Time of a call to the loyalty service, by operation.',
    labelNames: ['operation'],
    buckets: SECONDS,
    registers: [registry],
  });
  const journal = journalMetrics(registry);
  const stores = storeMetrics(registry);
  const storeSeconds = new Histogram({
    name: 'pdv_store_query_duration_seconds',
    help: 'Time of a store query through the query builder, by outcome (ok, error).',
    labelNames: ['outcome'],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers: [registry],
  });
  let streams = 0;
  new Gauge({
    name: 'pdv_event_streams_open',
    help: 'Event streams (kiosk and counter) open in this process.',
    registers: [registry],
    collect() {
      this.set(streams);
    },
  });
  let postings = deps.postings ?? null;
  const status = async () => (postings ? postings.status() : null);
  contingencyGauges(registry, status, () => deps.store.now());
  const counts = new Gauge({
    name: 'pdv_postings',
    help: 'Postings in the journal (within its retention), by state.',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      const c = await storeCounts(deps.store);
      counts.reset();
      for (const [state, n] of Object.entries(c.postingsByState)) counts.set({ state }, n);
      kiosk.set(c.kioskOpen);
    },
  });
  const conferencia = conferenciaGauges(registry);
  const alertRaised = vigilanciaCounter(registry);
  const webhookSettled = webhookMetrics(registry, deps.store);
  const kiosk = new Gauge({
    name: 'pdv_kiosk_sales_staged',
    help: 'Kiosk sales staged and not settled yet.',
    registers: [registry],
  });
  return {
    contentType: registry.contentType,
    /** What the postings journal tells of its postings (its snapshots, points and calls). */
    journal,
    /** The journal, once started (its circuit and sales waiting are read at each scrape). */
    watch(service: Pick<PostingService, 'status'>): void {
      postings = service;
    },
    /** A chain's store's circuit, read at each scrape (its latest app's). */
    watchStore: stores.watch,
    /** One new Vigilância alert (its rule is one of the eight codes: bounded labels). */
    alertRaised,
    /** One webhook delivery settled here: delivered or failed. */
    webhookSettled,
    /** The conferência's latest findings by kind, read at each scrape. */
    watchConferencia: conferencia.watch,
    text: () => registry.metrics(),
    request(route: string, method: string, status: number, seconds: number): void {
      requests.inc({ route, method, status: String(status) });
      requestSeconds.observe({ route }, seconds);
    },
    /** One store query (the store's `onQuery`). */
    storeQuery(ms: number, ok: boolean): void {
      storeSeconds.observe({ outcome: ok ? 'ok' : 'error' }, ms / 1000);
    },
    /** Counts one open event stream; call the result when it closes. */
    streamOpened(): () => void {
      streams += 1;
      let open = true;
      return () => {
        if (open) streams -= 1;
        open = false;
      };
    },
    /** The upstream, with every call counted and timed. */
    wrap(fetcher: Fetcher, establishmentId?: number): Fetcher {
      const estabelecimento = establishmentId === undefined ? null : String(establishmentId);
      return {
        async fetch(req) {
          const operation = operationOf(new URL(req.url).pathname);
          const stop = upstreamSeconds.startTimer({ operation });
          try {
            const res = await fetcher.fetch(req);
            const outcome = res.status < 400 ? 'ok' : res.status < 500 ? '4xx' : '5xx';
            upstream.inc({ operation, outcome });
            if (estabelecimento !== null) stores.calls.inc({ estabelecimento, outcome });
            return res;
          } catch (err) {
            upstream.inc({ operation, outcome: 'error' });
            if (estabelecimento !== null) stores.calls.inc({ estabelecimento, outcome: 'error' });
            throw err;
          } finally {
            stop();
          }
        },
      };
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
