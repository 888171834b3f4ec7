/**
 * Liveness and readiness for a load balancer or a monitor. Ready: the store answers, its
 * migrations are done and the process is not draining. The service being unreachable is not
 * "unready" (contingency keeps the sales): the circuit and the sales waiting are in the answer.
 * Nothing here reveals configuration.
 */
import { storeHealth } from '../../../store';
import type { Store } from '../../../store';
import type { PostingService } from '../journal/service';
import type { Lifecycle } from './lifecycle';

export interface ReadinessDeps {
  store: Store;
  lifecycle: Lifecycle;
  postings?: Pick<PostingService, 'status'> | null;
}

export interface Readiness {
  ready: boolean;
  store: 'ok' | 'unreachable' | 'migrating';
  draining: boolean;
  /** The circuit to the loyalty service; null without the journal. */
  circuit: 'closed' | 'open' | null;
  /** Sales kept during an outage, waiting to be delivered. */
  waiting: number | null;
  /** Age of the oldest waiting sale, in seconds. */
  oldestWaitingSeconds: number | null;
}

export async function readiness(deps: ReadinessDeps): Promise<Readiness> {
  const draining = deps.lifecycle.draining();
  const health = await storeHealth(deps.store);
  const store = !health.reachable ? 'unreachable' : health.migrated ? 'ok' : 'migrating';
  let circuit: Readiness['circuit'] = null;
  let waiting: number | null = null;
  let oldest: number | null = null;
  if (store === 'ok' && deps.postings) {
    try {
      const status = await deps.postings.status();
      circuit = status.open ? 'open' : 'closed';
      waiting = status.waiting;
      oldest =
        status.oldestWaitingAt === null
          ? null
          : Math.max(0, Math.round((deps.store.now() - status.oldestWaitingAt) / 1000));
    } catch {
      // The store answered a moment ago; the status is extra, readiness stands on the store.
    }
  }
  return {
    ready: store === 'ok' && !draining,
    store,
    draining,
    circuit,
    waiting,
    oldestWaitingSeconds: oldest,
  };
}
