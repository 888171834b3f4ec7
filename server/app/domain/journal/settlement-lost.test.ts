/**
 * A posting's settlement is committed without a flush (context.ts `settle`), after its answer
 * has reached the cashier: the premise is that a settlement lost with its process (a crash, a
 * power cut) is reached again from the service's records by the next process's sweep, and
 * the sale is never posted a second time. Here the settlement never lands at all.
 */
import { randomUUID } from 'node:crypto';
import { expect, test } from 'vitest';
import {
  createJournalStore,
  openStore,
  type JournalEntry,
  type JournalStore,
} from '../../../store';
import { describeEngines } from '../../../testing/pg-cluster';
import { storeFixture } from '../../../testing/store-fixture';
import { cleanupAfterEach, FAST_JOURNAL, scriptedUpstream } from '../../../testing/journal-support';
import { createPostingService, type PostingService } from './service';
import { startedOn } from '../../testing/journal';

const stores = storeFixture('settlement-lost');
const cleanup = cleanupAfterEach();

const sale = (celular: string) => ({
  valor_gasto: 2590,
  senha_atendente: '1234',
  cliente: { celular },
});

/**
 * The journal store of a process that dies as its settlement is being written: that write,
 * and every write after it, never lands (its lease is no longer renewed either).
 */
function dyingAtSettlement(real: JournalStore): { store: JournalStore; dead: () => boolean } {
  let dead = false;
  const never = new Promise<never>(() => undefined);
  const store = new Proxy(real, {
    get(target, prop, receiver) {
      if (prop === 'finish') {
        return () => {
          dead = true;
          return never;
        };
      }
      if (dead && (prop === 'update' || prop === 'completePoints' || prop === 'releaseSlot')) {
        return () => never;
      }
      return Reflect.get(target, prop, receiver) as unknown;
    },
  });
  return { store, dead: () => dead };
}

async function settledBy(service: PostingService, key: string): Promise<JournalEntry> {
  const until = Date.now() + 5_000;
  for (;;) {
    const e = await service.get(key);
    if (e !== null && e.state !== 'enviando' && e.state !== 'verificando') return e;
    if (Date.now() > until) throw new Error(`not settled: ${e?.state ?? 'missing'}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describeEngines('a settlement lost with its process, on %s', (engine) => {
  test('the cashier saw "lançado"; the next process settles it so from the service, posting nothing again', async () => {
    const where = await stores.location(engine);
    const upstream = scriptedUpstream();
    const phone = '+5511900000071';

    // The process that answers the cashier, then dies before its settlement is written.
    const first = await openStore(where);
    cleanup.push(() => first.close());
    const real = createJournalStore(first);
    const dying = dyingAtSettlement(real);
    const gone = createPostingService({
      store: dying.store,
      call: upstream.call,
      establishmentId: 1,
      ...FAST_JOURNAL,
      // Its lease would outlive the test: it is made to run out below, as a dead one's does.
      leaseMs: 60_000,
    });
    const key = randomUUID();
    const answered = await gone.submit({
      key,
      terminalId: null,
      requestId: null,
      body: sale(phone),
    });
    expect(answered.kind === 'entry' && answered.entry.state).toBe('lançado');
    await new Promise((r) => setTimeout(r, 50));
    expect(dying.dead()).toBe(true);
    // In the store, the sale is still being sent: its settlement never landed.
    const left = await real.get(key);
    expect(left).toMatchObject({ state: 'enviando', settledAt: null });
    expect(left?.snapshot).not.toBeNull();
    await real.update(key, left!.owner!, { leaseUntil: Date.now() - 1 }, Date.now());

    // The next process, on the same store: its sweep takes the sale over.
    const second = await openStore(where);
    cleanup.push(() => second.close());
    const next = startedOn(cleanup, createJournalStore(second), upstream.call, FAST_JOURNAL);
    const settled = await settledBy(next, key);
    expect(settled.state).toBe('lançado');
    // Posted once: the verdict came from the customer's records, not from sending again.
    expect(upstream.commits(phone)).toBe(1);
    expect(upstream.calls()).toBe(1);
    console.log(
      `${engine}: settlement lost, sweep verdict ${settled.state}, ` +
        `pontuar calls ${upstream.calls()}, commits ${upstream.commits(phone)}, ` +
        `reads ${upstream.buscarCalls()}`,
    );
  });
});
