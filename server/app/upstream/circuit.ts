/**
 * Whether the loyalty service is reachable, as this app server sees it: a circuit over every
 * upstream request (the proxy's and the journal's). `failures` failures in a row (no answer,
 * a timeout, a 5xx) open it; while open, the counter works in contingency (lookups answer at
 * once that the service is unavailable, postings are kept for later) and a light probe runs
 * every `probeMs`; the first answer below 500 closes it. Each replica keeps its own circuit
 * (its own view of the link); what waits is in the shared store.
 */
import type { Logger } from 'pino';
import type { Fetcher } from './client';

export interface CircuitOptions {
  /** Failures in a row that open the circuit. Default 3. */
  failures?: number;
  /** Interval of the probe while open. Default 5 s. */
  probeMs?: number;
  /** A light request to the service: true when it answered (any status below 500). */
  probe: () => Promise<boolean>;
  logger?: Logger;
  now?: () => number;
}

export interface Circuit {
  isOpen(): boolean;
  /** When it opened (epoch ms), or null while closed. */
  openedAt(): number | null;
  /** One upstream outcome: an answer below 500 (true), or no answer / a 5xx (false). */
  record(ok: boolean): void;
  /** The upstream, with every request's outcome recorded. */
  wrap(upstream: Fetcher): Fetcher;
  /** Called on every change (open / closed); returns the unsubscribe. */
  onChange(listener: (open: boolean) => void): () => void;
  stop(): void;
}

export function createCircuit(options: CircuitOptions): Circuit {
  const threshold = Math.max(1, options.failures ?? 3);
  const probeMs = options.probeMs ?? 5_000;
  const now = options.now ?? Date.now;
  const listeners = new Set<(open: boolean) => void>();
  let inARow = 0;
  let opened: number | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  function schedule(): void {
    if (stopped || opened === null || timer !== undefined) return;
    // Jittered (±20 %), so the replicas of a store do not all probe at the same moment.
    const delay = Math.round(probeMs * (0.8 + 0.4 * Math.random()));
    timer = setTimeout(() => {
      timer = undefined;
      void options
        .probe()
        .catch(() => false)
        .then((ok) => {
          record(ok);
          schedule();
        });
    }, delay);
    timer.unref?.();
  }

  function change(open: boolean): void {
    options.logger?.[open ? 'warn' : 'info'](
      { failures: inARow },
      open ? 'upstream unreachable: contingency on' : 'upstream back: contingency off',
    );
    for (const l of listeners) l(open);
  }

  function record(ok: boolean): void {
    if (ok) {
      inARow = 0;
      if (opened !== null) {
        opened = null;
        if (timer !== undefined) clearTimeout(timer);
        timer = undefined;
        change(false);
      }
      return;
    }
    inARow += 1;
    if (opened === null && inARow >= threshold) {
      opened = now();
      change(true);
      schedule();
    }
  }

  return {
    isOpen: () => opened !== null,
    openedAt: () => opened,
    record,
    wrap: (upstream) => ({
      async fetch(req) {
        try {
          const res = await upstream.fetch(req);
          record(res.status < 500);
          return res;
        } catch (err) {
          record(false);
          throw err;
        }
      },
    }),
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}
