/**
 * Vigilância: the rules over the store's own data, evaluated as each posting settles (off its
 * path: a queue this process works through one entry at a time, after the answer has left)
 * and again each night for the day before (claimed once across replicas); a PDV's cancel of
 * a posted sale recorded once (rule 8); and what a manager reads and decides (view.ts).
 */
import { randomInt } from 'node:crypto';
import type { Logger } from 'pino';
import { addDays, DAY_MS, localDate, localParts, startOfLocalDay } from '#contract/rules/time';
import { createAlertsStore } from '../../../store';
import type {
  AlertRow,
  AlertsStore,
  NewAlert,
  PdvSaleRow,
  PostingFact,
  Store,
} from '../../../store';
import type { WebhookEvent } from '#contract/api/vigilancia-webhook';
import { brl, evaluateEntry } from './evaluate';
import type { EvalDeps } from './evaluate';
import { createSettings } from './settings';
import { alertWire } from './view';
import { deliveryList, DELIVERY_RETENTION_MS, pruneDeliveries } from './webhook';
import type { AlertWebhook } from './webhook';

export interface VigilanciaDeps {
  store: Store;
  establishmentId: number;
  log?: Pick<Logger, 'warn' | 'info'>;
  /** CONFERENCIA_HORA: the local hour of the night's re-evaluation of the day before. Default 3. */
  nightlyHour?: number;
  /** Told of each new alert (the metrics' counter per rule). */
  onAlert?: (rule: string) => void;
  /** Most entries waiting for evaluation; past it they wait for the night. Default 10,000. */
  maxQueue?: number;
  /** ALERT_WEBHOOK_URL's sender: each alert event recorded for delivery; absent: none. */
  webhook?: AlertWebhook | null;
  /** ALERT_WEBHOOK_RETENCAO_DIAS: settled deliveries older than this go at night. 30 days. */
  webhookRetentionMs?: number;
}

const NIGHT_CHECK_MS = 60_000;

/**
 * The rules' reads with what is kept in this process: each store's 30-day percentile for the
 * day, and which counters have an integrated PDV (read once a minute, not at every posting).
 */
function cachedReads(alerts: AlertsStore, store: Store): EvalDeps {
  const quantiles = new Map<string, Promise<number | null>>();
  // Which counters have an integrated PDV: read once a minute, not at every posting.
  const integrated = new Map<number, { at: number; yes: Promise<boolean> }>();
  return {
    alerts: {
      ...alerts,
      integratedCounter(counterId) {
        const hit = integrated.get(counterId);
        if (hit !== undefined && store.now() - hit.at < 60_000) return hit.yes;
        const yes = alerts.integratedCounter(counterId);
        integrated.set(counterId, { at: store.now(), yes });
        return yes;
      },
    },
    p99(establishmentId, day) {
      const k = `${establishmentId}:${day}`;
      let hit = quantiles.get(k);
      if (hit === undefined) {
        const to = startOfLocalDay(day);
        hit = alerts.amountQuantile(establishmentId, to - 30 * DAY_MS, to, 0.99, 200);
        hit.catch(() => quantiles.delete(k));
        if (quantiles.size > 16) quantiles.delete(quantiles.keys().next().value!);
        quantiles.set(k, hit);
      }
      return hit;
    },
  };
}

/** Rule 8's alert: the PDV cancelled `sale` after its points were posted. */
function cancelAlert(
  sale: PdvSaleRow,
  posting: PostingFact | null,
  establishmentId: number,
  now: number,
): NewAlert {
  const points = sale.points ?? null;
  return {
    establishmentId: posting?.establishment_id ?? establishmentId,
    rule: 'estorno_apos_pontuacao',
    dedup: `estorno_apos_pontuacao:${sale.id}`,
    terminalId: sale.counter_id === null ? (posting?.terminal_id ?? null) : String(sale.counter_id),
    customerKey: posting?.customer_key ?? null,
    day: localDate(now),
    amount: Number(sale.amount),
    postingKeys: sale.posting_key === null ? [] : [sale.posting_key],
    summary:
      `Venda ${sale.sale_id} (${brl(Number(sale.amount))}) cancelada no PDV depois de pontuada` +
      (points === null ? '' : ` com ${points} pontos`) +
      ': estorne os pontos no painel do programa e reconheça este alerta.',
    evidence: {
      venda_pdv: {
        id_venda: sale.sale_id,
        valor: Number(sale.amount),
        pontos: points,
        estado: sale.state,
        quando: new Date(Number(sale.created_at)).toISOString(),
      },
      cancelada_em: new Date(now).toISOString(),
      estornar: points === null ? 'os pontos desta venda' : `${points} pontos`,
    },
  };
}

/** The night's re-evaluation of `day` for the store, once across replicas (see runNight). */
async function reevaluateDay(
  deps: VigilanciaDeps,
  alerts: AlertsStore,
  evaluateKey: (key: string) => Promise<number>,
  stopped: () => boolean,
  day: string,
): Promise<{ ran: boolean; evaluated: number; created: number }> {
  if (!(await alerts.claimNight(deps.establishmentId, day)))
    return { ran: false, evaluated: 0, created: 0 };
  const from = startOfLocalDay(day);
  const keys = await alerts.settledKeys(
    deps.establishmentId,
    from,
    startOfLocalDay(addDays(day, 1)),
  );
  let created = 0;
  for (const key of keys) {
    if (stopped()) break;
    created += await evaluateKey(key);
  }
  await alerts.finishNight(deps.establishmentId, day);
  // The webhook's old deliveries go with the night (whether or not the webhook is on now).
  const pruned = await pruneDeliveries(
    deps.store,
    deps.establishmentId,
    deps.webhookRetentionMs ?? DELIVERY_RETENTION_MS,
  );
  deps.log?.info(
    { dia: day, lancamentos: keys.length, alertas: created, entregas_apagadas: pruned },
    'vigilância: noite',
  );
  return { ran: true, evaluated: keys.length, created };
}

export function createVigilancia(deps: VigilanciaDeps) {
  const { store } = deps;
  const alerts: AlertsStore = createAlertsStore(store);
  const settings = createSettings(alerts, () => store.now());
  const evalDeps = cachedReads(alerts, store);
  const queue = new Set<string>();
  const maxQueue = deps.maxQueue ?? 10_000;
  let working: Promise<void> | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  /**
   * Records an alert's event for the webhook (when there is one). Never throws: a delivery
   * not recorded is logged, the alert stays.
   */
  async function announce(event: WebhookEvent, row: AlertRow | null): Promise<void> {
    if (!deps.webhook || row === null) return;
    await deps.webhook
      .enqueue(event, alertWire(row, new Map()))
      .catch((err: unknown) =>
        deps.log?.warn({ alerta: row.id, err: String(err) }, 'webhook: entrega não registrada'),
      );
  }

  async function recordAll(found: readonly NewAlert[]): Promise<number> {
    let created = 0;
    for (const a of found) {
      const r = await alerts.record(a);
      if (r.created) {
        created += 1;
        deps.onAlert?.(a.rule);
        deps.log?.info({ alerta: r.id, regra: a.rule }, 'vigilância: alerta');
        if (deps.webhook)
          await announce('alerta.criado', await alerts.get(a.establishmentId, r.id));
      }
    }
    return created;
  }

  /** Evaluates one journal entry now; answers how many new alerts it raised. */
  async function evaluateKey(key: string): Promise<number> {
    const e = await alerts.posting(key);
    if (e === null) return 0;
    const s = await settings.get(e.establishment_id);
    return recordAll(await evaluateEntry(evalDeps, s, e));
  }

  function drain(): void {
    if (working !== null || queue.size === 0) return;
    working = (async () => {
      while (queue.size > 0) {
        const key = queue.values().next().value!;
        queue.delete(key);
        await evaluateKey(key).catch((err: unknown) =>
          deps.log?.warn({ key, err: String(err) }, 'vigilância: avaliação falhou'),
        );
      }
    })().finally(() => {
      working = null;
      drain();
    });
  }

  /** The night's re-evaluation of `day` for this store, once across replicas. */
  const runNight = (day: string) => reevaluateDay(deps, alerts, evaluateKey, () => stopped, day);

  async function nightCheck(): Promise<void> {
    const now = store.now();
    if (localParts(now).hour < (deps.nightlyHour ?? 3)) return;
    await runNight(addDays(localDate(now), -1));
  }

  return {
    alerts,
    settings,
    /**
     * A journal entry settled: evaluated soon, off the caller's path (never awaited, never
     * throws). Past the queue's bound the entry waits for the night's re-evaluation.
     */
    onSettled(key: string): void {
      if (stopped) return;
      if (queue.size >= maxQueue) return;
      queue.add(key);
      setImmediate(drain);
    },
    evaluateKey,
    /** A manager's decision on an alert, for the webhook (when there is one). */
    announce,
    /** Whether alert events are sent to a webhook (ALERT_WEBHOOK_URL). */
    webhookOn: Boolean(deps.webhook),
    /** This store's latest webhook deliveries. */
    deliveries: () => deliveryList(store, deps.establishmentId, Boolean(deps.webhook)),
    /** Resolves once the queue is empty (tests, shutdown). */
    async idle(): Promise<void> {
      while (working !== null || queue.size > 0) {
        drain();
        await (working ?? Promise.resolve());
      }
    },
    /**
     * Rule 8: the PDV cancelled a sale whose points were posted. Recorded once per sale (a
     * re-sent cancel finds the same alert); the answer to the PDV stays its 409.
     */
    async recordPostedCancel(sale: PdvSaleRow): Promise<{ created: boolean; id: number } | null> {
      const s = await settings.get(deps.establishmentId);
      if (!s.estorno_apos_pontuacao.on) return null;
      const posting = sale.posting_key === null ? null : await alerts.posting(sale.posting_key);
      const a = cancelAlert(sale, posting, deps.establishmentId, store.now());
      const r = await alerts.record(a);
      if (r.created) {
        deps.onAlert?.('estorno_apos_pontuacao');
        if (deps.webhook)
          await announce('alerta.criado', await alerts.get(a.establishmentId, r.id));
      }
      return r;
    },
    runNight,
    /** Checks every minute (jittered) whether last night's re-evaluation is due. */
    start(): void {
      const schedule = (ms: number) => {
        if (stopped) return;
        timer = setTimeout(() => {
          void nightCheck()
            .catch((err: unknown) =>
              deps.log?.warn({ err: String(err) }, 'vigilância: noite falhou'),
            )
            .finally(() => schedule(NIGHT_CHECK_MS + randomInt(0, 10_000)));
        }, ms);
        timer.unref?.();
      };
      schedule(randomInt(1_000, 5_000));
    },
    async stop(): Promise<void> {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      queue.clear();
      await working;
    },
  };
}

export type Vigilancia = ReturnType<typeof createVigilancia>;
