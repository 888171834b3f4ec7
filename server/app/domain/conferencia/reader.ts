/**
 * The conferência's reads of the service: `clientes/buscar` only (it never changes anything
 * there), at a bounded rate, paused while the circuit is open, and retried after a failure
 * with a capped backoff with jitter. A refusal (a 4xx) is an answer, never an outage.
 */
import { backoffMs } from '../journal/backoff';

export interface ReaderDeps {
  /** One `clientes/buscar` of this establishment. */
  buscar: (body: Record<string, unknown>, signal: AbortSignal) => Promise<Response>;
  circuitOpen: () => boolean;
  /** Reads per second at most (CONFERENCIA_LEITURAS_POR_SEGUNDO). */
  readsPerSecond: number;
  /** Longest wait for one read. */
  readLimitMs: number;
  now: () => number;
  /**
   * Waits `ms` (the caller renews its lease meanwhile); false when the wait should end the
   * work (the process stops, or the run is no longer this process's).
   */
  pause: (ms: number) => Promise<boolean>;
}

export type CustomerRead =
  | { kind: 'read'; data: unknown }
  | { kind: 'absent' }
  | { kind: 'refused'; status: number; message: string | null }
  | { kind: 'failed' }
  /** The work was told to stop while waiting. */
  | { kind: 'stopped' };

/** Failed reads of one customer (no answer, 5xx) before it is reported as not read. */
export const MAX_FAILED_READS = 8;
const RETRY_BASE_MS = 500;
const RETRY_CAP_MS = 30_000;
/** Waits while the circuit is open: from 1 s, doubling, at most 30 s each. */
const OPEN_BASE_MS = 1_000;

function envelopeMessage(text: string): string | null {
  try {
    const m = (JSON.parse(text) as { message?: unknown } | null)?.message;
    return typeof m === 'string' ? m : null;
  } catch {
    return null;
  }
}

/** A reader with its own pace: reads start at least 1 / readsPerSecond apart. */
export function createReader(deps: ReaderDeps) {
  const spacing = 1000 / Math.max(0.01, deps.readsPerSecond);
  let nextAt = 0;

  /** Waits for the next read's turn (bounded rate); false when told to stop. */
  async function turn(): Promise<boolean> {
    const now = deps.now();
    const wait = nextAt - now;
    nextAt = Math.max(now, nextAt) + spacing;
    return wait > 0 ? deps.pause(wait) : true;
  }

  async function once(body: Record<string, unknown>): Promise<CustomerRead> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), deps.readLimitMs);
    try {
      const res = await deps.buscar(body, controller.signal);
      const text = await res.text();
      if (res.status === 404) return { kind: 'absent' };
      if (res.status === 200) {
        try {
          return { kind: 'read', data: (JSON.parse(text) as { data?: unknown }).data };
        } catch {
          return { kind: 'failed' };
        }
      }
      if (res.status >= 400 && res.status < 500 && res.status !== 408) {
        return { kind: 'refused', status: res.status, message: envelopeMessage(text) };
      }
      return { kind: 'failed' };
    } catch {
      return { kind: 'failed' };
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Reads one customer: waits its turn and while the circuit is open, retries a failure (and
   * a 429, "not now") with backoff; answers `failed` after MAX_FAILED_READS failures.
   * `onRead` counts every request sent.
   */
  async function read(body: Record<string, unknown>, onRead: () => void): Promise<CustomerRead> {
    let failures = 0;
    let closedWaits = 0;
    for (;;) {
      if (deps.circuitOpen()) {
        closedWaits += 1;
        if (!(await deps.pause(backoffMs(closedWaits, OPEN_BASE_MS, RETRY_CAP_MS)))) {
          return { kind: 'stopped' };
        }
        continue;
      }
      if (!(await turn())) return { kind: 'stopped' };
      onRead();
      const r = await once(body);
      const busy = r.kind === 'refused' && r.status === 429;
      if (r.kind !== 'failed' && !busy) return r;
      failures += 1;
      if (failures >= MAX_FAILED_READS) return busy ? r : { kind: 'failed' };
      if (!(await deps.pause(backoffMs(failures, RETRY_BASE_MS, RETRY_CAP_MS)))) {
        return { kind: 'stopped' };
      }
    }
  }

  return { read };
}
