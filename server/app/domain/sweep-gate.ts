/**
 * The chain's sweep gate: every store's app sweeps its journal and its PDV sales every second,
 * and a chain of 200 stores made that 800 statements a second per replica with nothing to do.
 * The gate asks the shared store once a second which stores have something to sweep
 * (store/sweep-probe.ts, a superset) and lets only those stores' ticks through. Every
 * `forceEvery`-th tick of a store goes through anyway (its first, at start: the recovery;
 * then its hourly pruning and anything the probe could miss), and a probe that fails lets
 * every tick through, as without a gate.
 */
import { storesToSweep, type Store, type StoresToSweep } from '../../store';

export type SweepKind = 'journal' | 'pdv';

export interface SweepGate {
  /** Whether this tick of a store's sweep should run. `orUnnamed`: the default store's. */
  due(kind: SweepKind, establishmentId: number, orUnnamed?: boolean): Promise<boolean>;
}

export function createSweepGate(
  store: Store,
  { everyMs = 1_000, forceEvery = 30 }: { everyMs?: number; forceEvery?: number } = {},
): SweepGate {
  let probe: { at: number; result: Promise<StoresToSweep | null> } | null = null;
  const ticks = new Map<string, number>();

  function current(): Promise<StoresToSweep | null> {
    const now = Date.now();
    // A little under the interval, so the ticks of one second share one probe.
    if (probe === null || now - probe.at >= everyMs * 0.8) {
      probe = { at: now, result: storesToSweep(store, store.now()).catch(() => null) };
    }
    return probe.result;
  }

  return {
    async due(kind, establishmentId, orUnnamed = false) {
      const id = `${kind}:${establishmentId}`;
      const tick = ticks.get(id) ?? 0;
      ticks.set(id, tick + 1);
      if (tick % forceEvery === 0) return true;
      const found = await current();
      if (found === null) return true;
      if (kind === 'journal') return found.journal.has(establishmentId);
      return found.pdv.has(establishmentId) || (orUnnamed && found.pdv.has(null));
    },
  };
}
