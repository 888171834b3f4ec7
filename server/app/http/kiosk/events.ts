/**
 * GET /api/quiosque/eventos: the terminal's staged sales as Server-Sent Events, for the kiosk
 * and the counter alike. `pronto` on every (re)connection (with a kiosk's open sale), `venda`
 * for each change, a keep-alive comment when quiet. A terminal holds a few streams in this
 * process; a new one past the cap closes its oldest, which ends with `substituido`.
 */
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { SSEStreamingApi } from 'hono/streaming';
import type * as z from 'zod/mini';
import { KIOSK_EVENTS } from '#contract/api/kiosk';
import type { KioskSaleAnswer } from '#contract/api/kiosk';
import { KIOSK_ROLES } from '../../domain/kiosk/access';
import type { KioskDeps } from '../../domain/kiosk/deps';
import { listenSales, saleView } from '../../domain/kiosk/sales';
import { me } from './respond';
import type { Vars } from './respond';

export interface EventStreamOptions {
  /** SSE keep-alive interval. Default 15 s. */
  heartbeatMs?: number;
  /**
   * Event streams one terminal may hold open in this process (a screen holds one or two);
   * a new one past it closes the terminal's oldest. Default 4.
   */
  maxStreamsPerTerminal?: number;
  /** A restart's drain: every open stream ends with a short retry hint (another replica). */
  onDrain?: (listener: () => void) => () => void;
  /** Counts an open stream (metrics); the result is called when it closes. */
  streamOpened?: () => () => void;
}

/** After a drain, the browser's EventSource reconnects after this long (to another replica). */
const DRAIN_RETRY_MS = 1_000;

/**
 * Each terminal's open streams in this process, oldest first, by the function that closes
 * one. Per process: with replicas a terminal holds at most this many on each.
 */
function streamCap(max: number) {
  const streams = new Map<number, (() => void)[]>();
  return {
    /** Counts a new stream of `terminalId`, closing its oldest past the cap. */
    open(terminalId: number, close: () => void): () => void {
      const mine = streams.get(terminalId) ?? [];
      streams.set(terminalId, mine);
      mine.push(close);
      while (mine.length > max) mine.shift()!();
      return () => {
        const at = mine.indexOf(close);
        if (at >= 0) mine.splice(at, 1);
        if (mine.length === 0 && streams.get(terminalId) === mine) streams.delete(terminalId);
      };
    },
  };
}

/** Sales to send, and a way to wake the writer when one arrives or the stream ends. */
function mailbox() {
  const pending: { event: string; data: string }[] = [];
  let wake: (() => void) | null = null;
  const state = { closed: false, replaced: false, draining: false };
  return {
    state,
    pending,
    push(json: string, event: string = KIOSK_EVENTS.sale) {
      pending.push({ event, data: json });
      wake?.();
    },
    end(replaced = false, draining = false) {
      state.replaced ||= replaced;
      state.draining ||= draining;
      state.closed = true;
      wake?.();
    },
    /** Resolves true after `ms` of quiet, false when woken first. */
    quiet(ms: number): Promise<boolean> {
      return new Promise<boolean>((resolve) => {
        const t = setTimeout(() => resolve(true), ms);
        wake = () => {
          clearTimeout(t);
          resolve(false);
        };
      }).finally(() => (wake = null));
    },
  };
}

async function pump(
  stream: SSEStreamingApi,
  box: ReturnType<typeof mailbox>,
  heartbeatMs: number,
): Promise<void> {
  const { state, pending } = box;
  while (!state.closed) {
    while (pending.length > 0 && !state.closed) {
      await stream.writeSSE(pending.shift()!);
    }
    if (state.closed) break;
    const beat = await box.quiet(heartbeatMs);
    if (beat && !state.closed) await stream.write(': keep-alive\n\n');
  }
  // Closed for a newer stream of this terminal: its EventSource waits before it reconnects
  // (and would then close the oldest in turn).
  if (state.replaced) {
    await stream.writeSSE({ event: KIOSK_EVENTS.replaced, data: '{}', retry: 30_000 });
  } else if (state.draining) {
    // This process is restarting: reconnect soon (the balancer sends it to a ready replica).
    await stream.write(`retry: ${DRAIN_RETRY_MS}\n\n`);
  }
}

export function eventRoutes(deps: KioskDeps, options: EventStreamOptions = {}): Hono<Vars> {
  const app = new Hono<Vars>();
  const cap = streamCap(Math.max(1, options.maxStreamsPerTerminal ?? 4));
  const heartbeatMs = options.heartbeatMs ?? 15_000;

  app.get('/eventos', (c) => {
    const { id, role } = me(c);
    return streamSSE(c, async (stream) => {
      const box = mailbox();
      const unlisten = await listenSales(deps.store, id, box.push);
      stream.onAbort(() => box.end());
      const forget = cap.open(id, () => box.end(true));
      const undrain = options.onDrain?.(() => box.end(false, true));
      const counted = options.streamOpened?.();
      try {
        const open = KIOSK_ROLES.includes(role) ? await deps.sales.openFor(id) : null;
        const ready: z.input<typeof KioskSaleAnswer> = { venda: open ? saleView(open) : null };
        await stream.writeSSE({ event: KIOSK_EVENTS.ready, data: JSON.stringify(ready) });
        await pump(stream, box, heartbeatMs);
      } finally {
        forget();
        undrain?.();
        counted?.();
        await unlisten();
      }
    });
  });

  return app;
}
