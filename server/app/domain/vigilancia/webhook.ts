/**
 * Vigilância's outbound webhook (ALERT_WEBHOOK_URL): each alert event (an alert raised,
 * acknowledged or dismissed) is recorded as a delivery in the store (store/alert-webhook.ts)
 * where it happens, and sent later by a sender that runs off every posting's path:
 *
 * - a JSON POST whose headers carry the event, the delivery's id (the same at every attempt:
 *   the receiver's idempotency key), a Unix timestamp and `X-Fidelidade-Signature:
 *   sha256=<hex HMAC-SHA256 of "<timestamp>.<body>" under ALERT_WEBHOOK_SECRET>`;
 * - a 2xx is delivered; a 4xx other than 408 and 429 (or a 3xx: never followed) is the
 *   receiver's answer, final (`falhou` after that attempt); no answer, a 5xx, 408 or 429 is
 *   tried again after an exponential backoff with jitter, up to `maxAttempts` in all;
 * - the rows are claimed under a lease, so replicas sharing the store send each once at a
 *   time, and a restarted process resumes what was pending.
 */
import { createHmac, randomInt, randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { AlertWire } from '#contract/api/vigilancia';
import { DELIVERY_LIST_LIMIT } from '#contract/api/vigilancia-webhook';
import type { DeliveryList, DeliveryWire, WebhookEvent } from '#contract/api/vigilancia-webhook';
import { createDeliveryStore } from '../../../store';
import type { AttemptResult, DeliveryRow, Store } from '../../../store';

export interface AlertWebhookOptions {
  store: Store;
  url: string;
  secret: string;
  log?: Pick<Logger, 'warn' | 'info'>;
  /** Attempts in all before a delivery is `falhou`. Default 8. */
  maxAttempts?: number;
  /** The first retry's delay; each next one doubles, with jitter. Default 5 s. */
  baseDelayMs?: number;
  /** The longest delay between two attempts. Default 15 min. */
  maxDelayMs?: number;
  /** One attempt's limit. Default 10 s. */
  timeoutMs?: number;
  /** How often the store is looked at for deliveries due (with jitter). Default 2 s. */
  pollMs?: number;
  /** HTTP client (tests); default the global fetch. */
  fetch?: typeof fetch;
  /** Told of each delivery this process settled as delivered or failed (the metrics). */
  onSettled?: (establishmentId: number, status: 'entregue' | 'falhou') => void;
}

/** A store's settled deliveries are kept this long (ALERT_WEBHOOK_RETENCAO_DIAS: 30 days). */
export const DELIVERY_RETENTION_MS = 30 * 86_400_000;
/** Rows one delete takes, and deletes one night runs at most (the rest waits a night). */
const PRUNE_BATCH = 500;
const PRUNE_BATCHES = 20;

/**
 * Deletes a store's delivered and failed deliveries older than the retention, in bounded
 * batches (the night's work; pending ones stay); answers how many.
 */
export async function pruneDeliveries(
  store: Store,
  establishmentId: number,
  retentionMs: number,
): Promise<number> {
  const deliveries = createDeliveryStore(store);
  const before = store.now() - retentionMs;
  let pruned = 0;
  for (let i = 0; i < PRUNE_BATCHES; i++) {
    const n = await deliveries.prune(establishmentId, before, PRUNE_BATCH);
    pruned += n;
    if (n < PRUNE_BATCH) break;
  }
  return pruned;
}

const BATCH = 16;
const CONCURRENCY = 4;

/** `sha256=<hex>`: HMAC-SHA256 of `<timestamp>.<body>` under the secret. */
export function signWebhook(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/**
 * The wait before the attempt after `attempts` failed ones: base × 2^(attempts−1), capped,
 * then a random half to whole of it (jitter, so receivers coming back are not hit at once).
 */
export function retryDelayMs(
  attempts: number,
  baseMs: number,
  capMs: number,
  random: () => number = Math.random,
): number {
  const full = Math.min(capMs, baseMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(full * (0.5 + random() * 0.5));
}

/** An answer's HTTP status read as the delivery's fate. */
function fateOf(status: number): 'entregue' | 'falhou' | 'retry' {
  if (status >= 200 && status < 300) return 'entregue';
  if (status === 408 || status === 429 || status >= 500) return 'retry';
  return 'falhou';
}

function errorText(err: unknown, timeoutMs: number): string {
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError'))
    return `sem resposta em ${Math.round(timeoutMs / 1000)} s`;
  const cause = (err as { cause?: { code?: string } } | null)?.cause?.code;
  return cause === 'ECONNREFUSED'
    ? 'conexão recusada'
    : `falha de rede${cause ? ` (${cause})` : ''}`;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function deliveryWire(d: DeliveryRow): DeliveryWire {
  return {
    id: d.id,
    evento: d.event,
    alerta: d.alert_id,
    estado: d.status as DeliveryWire['estado'],
    tentativas: d.attempts,
    ultimo_status: d.last_status,
    ultimo_erro: d.last_error,
    proxima_tentativa: d.status === 'pendente' ? iso(d.next_attempt_at) : null,
    criado_em: new Date(d.created_at).toISOString(),
    entregue_em: iso(d.delivered_at),
  };
}

/** A store's latest deliveries, for its manager (whether or not the webhook is on now). */
export async function deliveryList(
  store: Store,
  establishmentId: number,
  on: boolean,
): Promise<DeliveryList> {
  const rows = await createDeliveryStore(store).list(establishmentId, DELIVERY_LIST_LIMIT);
  return { ativo: on, itens: rows.map(deliveryWire) };
}

export function createAlertWebhook(o: AlertWebhookOptions) {
  const deliveries = createDeliveryStore(o.store);
  const maxAttempts = o.maxAttempts ?? 8;
  const baseMs = o.baseDelayMs ?? 5_000;
  const capMs = o.maxDelayMs ?? 15 * 60_000;
  const timeoutMs = o.timeoutMs ?? 10_000;
  const pollMs = o.pollMs ?? 2_000;
  const leaseMs = timeoutMs * 3;
  const send = o.fetch ?? fetch;
  const owner = `webhook-${randomUUID()}`;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<number> | null = null;
  let stopped = true;

  /** One attempt at one claimed delivery: what to write back. */
  async function attempt(d: DeliveryRow): Promise<AttemptResult> {
    const attempts = d.attempts + 1;
    const timestamp = Math.floor(Date.now() / 1000);
    let status: number | null = null;
    let error: string | null = null;
    try {
      const res = await send(o.url, {
        method: 'POST',
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
        headers: {
          'content-type': 'application/json',
          'user-agent': 'FidelidadePDV-Webhook/1',
          'x-fidelidade-evento': d.event,
          'x-fidelidade-entrega': String(d.id),
          'x-fidelidade-timestamp': String(timestamp),
          'x-fidelidade-signature': signWebhook(o.secret, timestamp, d.body),
        },
        body: d.body,
      });
      status = res.status;
      await res.body?.cancel().catch(() => {});
    } catch (err) {
      error = errorText(err, timeoutMs);
    }
    const fate = status === null ? 'retry' : fateOf(status);
    const final = fate === 'retry' && attempts >= maxAttempts ? 'falhou' : fate;
    return {
      status: final === 'retry' ? 'pendente' : final,
      attempts,
      lastStatus: status,
      lastError: error,
      nextAttemptAt:
        final === 'retry' ? o.store.now() + retryDelayMs(attempts, baseMs, capMs) : o.store.now(),
    };
  }

  async function deliver(d: DeliveryRow): Promise<void> {
    const result = await attempt(d);
    const kept = await deliveries.settle(d.id, owner, result);
    if (kept && result.status !== 'pendente') o.onSettled?.(d.establishment_id, result.status);
    const fields = { entrega: d.id, evento: d.event, tentativa: result.attempts };
    if (!kept) o.log?.warn(fields, 'webhook: lease lost before the answer was written');
    else if (result.status === 'falhou')
      o.log?.warn(
        { ...fields, status: result.lastStatus, erro: result.lastError },
        'webhook: entrega falhou',
      );
  }

  /** Sends what is due now (up to a batch, a few at once); answers how many were claimed. */
  async function runOnce(): Promise<number> {
    const now = o.store.now();
    const claimed = await deliveries.claimDue(now, owner, now + leaseMs, BATCH);
    for (let i = 0; i < claimed.length; i += CONCURRENCY) {
      await Promise.all(claimed.slice(i, i + CONCURRENCY).map(deliver));
    }
    return claimed.length;
  }

  function schedule(ms: number): void {
    if (stopped) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      running = runOnce().catch((err: unknown) => {
        o.log?.warn({ err: String(err) }, 'webhook: could not read the deliveries');
        return 0;
      });
      void running.then((n) => {
        running = null;
        schedule(n === BATCH ? 0 : pollMs + randomInt(0, Math.max(1, Math.round(pollMs / 2))));
      });
    }, ms);
    timer.unref?.();
  }

  return {
    deliveries,
    runOnce,
    /** Records an alert's event for delivery (once per alert and event) and sends it soon. */
    async enqueue(event: WebhookEvent, alert: AlertWire): Promise<void> {
      const body = JSON.stringify({ evento: event, loja: alert.loja, alerta: alert });
      const fresh = await deliveries.enqueue({
        establishmentId: alert.loja,
        event,
        alertId: alert.id,
        dedup: `${event}:${alert.id}`,
        body,
      });
      if (fresh && running === null) schedule(0);
    },
    start(): void {
      stopped = false;
      schedule(0);
    },
    /** Stops looking for work; an attempt under way finishes (its outcome written). */
    async stop(): Promise<void> {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      await running;
    },
  };
}

export type AlertWebhook = ReturnType<typeof createAlertWebhook>;
