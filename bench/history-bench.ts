// A customer with a long history, in process (`sandbox.app.fetch`): one phone posted to
// `earlier` times, then, per round, the latency of further postings and of the lookup (whose
// answer carries the whole wallet history) and that answer's size.

import { openSandbox } from '../server/sandbox/sandbox';
import type { Sandbox } from '../server/sandbox/sandbox';
import { POSTING_PATH, SERVICE_HEADERS, expectSuccess, postingBody } from './requests';
import { median } from './stats';

const ORIGIN = 'http://sandbox.bench';
const LOOKUP = `/api/v4/estabelecimentos/1/clientes/buscar`;
/** No seeded customer has it. */
const PHONE = '+5562991110000';

export interface HistoryRound {
  postingP50Ms: number;
  lookupP50Ms: number;
  lookupBytes: number;
}

export interface HistoryBench {
  earlier: number;
  buildMs: number;
  round(o: { postings: number; lookups: number }): Promise<HistoryRound>;
  close(): void;
}

const send = (sandbox: Sandbox, path: string, body: string): Promise<Response> =>
  Promise.resolve(
    sandbox.app.fetch(
      new Request(ORIGIN + path, { method: 'POST', headers: SERVICE_HEADERS, body }),
    ),
  );

/** R$ 1,00 … R$ 30,99: small purchases, so rewards are won now and then, not every time. */
const amount = (i: number): number => 100 + ((i * 7919) % 3_000);

export async function historyBench(dbPath: string, earlier: number): Promise<HistoryBench> {
  const sandbox = openSandbox({ dbPath });
  const started = performance.now();
  let n = 0;
  for (; n < earlier; n++) {
    await expectSuccess(
      await send(sandbox, POSTING_PATH, postingBody(PHONE, amount(n))),
      'posting',
    );
  }
  const buildMs = performance.now() - started;
  return {
    earlier,
    buildMs,
    async round(o) {
      const postings: number[] = [];
      for (let i = 0; i < o.postings; i++) {
        const t0 = performance.now();
        await expectSuccess(
          await send(sandbox, POSTING_PATH, postingBody(PHONE, amount(n++))),
          'posting (long history)',
        );
        postings.push(performance.now() - t0);
      }
      const lookups: number[] = [];
      let bytes = 0;
      for (let i = 0; i < o.lookups; i++) {
        const t0 = performance.now();
        const res = await send(sandbox, LOOKUP, JSON.stringify({ celular: PHONE }));
        const body = await res.arrayBuffer();
        lookups.push(performance.now() - t0);
        if (res.status !== 200) throw new Error(`lookup (long history): HTTP ${res.status}`);
        bytes = body.byteLength;
      }
      return { postingP50Ms: median(postings), lookupP50Ms: median(lookups), lookupBytes: bytes };
    },
    close: () => sandbox.close(),
  };
}
