// The conferência's duration for a day of 2,000 postings (`npm run bench -- --scale`), in
// process: a sandbox (its own SQLite file) takes 2,000 pontuar of `customers` customers, each
// journaled in the app's store as the journal would have (state lançado, sent and answered
// around the call); then the real conferência (server/app/domain/conferencia) re-reads every
// customer from that sandbox and matches them. Measured twice: with the rate unbounded
// (1,000 reads/s: the work itself) and at CONFERENCIA_LEITURAS_POR_SEGUNDO=5 on a sample of
// customers (the pacing). Reads are the bound at 5 per second, so a whole day takes
// customers / 5 s; the figure printed is that, checked against the measured sample.

import { randomUUID } from 'node:crypto';
import { createConferencia } from '../server/app/domain/conferencia/service';
import { openSandbox } from '../server/sandbox/sandbox';
import { openStore, type Store } from '../server/store';
import { ACCESS_TOKEN, APP_TOKEN, ATTENDANT_PASSWORD, EST } from './requests';
import type { TempDir } from './tmp';

export interface ConferenciaBenchResult {
  postings: number;
  customers: number;
  /** The whole day, rate unbounded: ms, reads, findings. */
  unboundedMs: number;
  reads: number;
  confirmed: number;
  findings: number;
  /** A sample of `sampleCustomers` at 5 reads per second: measured ms. */
  sampleCustomers: number;
  sampleMs: number;
  /** The whole day at 5 reads per second: customers / 5, in ms. */
  estimatedAt5Ms: number;
}

const HEADERS = {
  'content-type': 'application/json',
  'app-token': APP_TOKEN,
  'access-token': ACCESS_TOKEN,
};
const ORIGIN = 'http://sandbox.bench';

function phone(i: number): string {
  return `+551197${String(1_000_000 + i).slice(1)}`;
}

async function conferOnce(
  store: Store,
  fetcher: (req: Request) => Promise<Response>,
  readsPerSecond: number,
  day: string,
) {
  const conferencia = createConferencia({
    store,
    establishmentId: EST,
    buscar: (body, signal) =>
      fetcher(
        new Request(`${ORIGIN}/api/v4/estabelecimentos/${EST}/clientes/buscar`, {
          method: 'POST',
          headers: HEADERS,
          body: JSON.stringify(body),
          signal,
        }),
      ),
    circuitOpen: () => false,
    readsPerSecond,
    nightlyHour: 24, // never: only the run asked for here
  });
  const t0 = performance.now();
  const started = await conferencia.request({ dia: day, fuso: -180 });
  if (!started.ok) throw new Error(started.message);
  for (;;) {
    const c = await conferencia.latest({ dia: day, fuso: -180 });
    if (c?.situacao === 'concluída') {
      const ms = performance.now() - t0;
      await conferencia.stop();
      return { ms, c };
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function conferenciaBench(
  tmp: TempDir,
  o: { postings: number; customers: number; sampleCustomers: number },
): Promise<ConferenciaBenchResult> {
  const sandbox = openSandbox({ dbPath: tmp.file('conferencia-sandbox.db') });
  const fetcher = async (req: Request) => sandbox.app.fetch(req);
  const stores: Store[] = [];
  try {
    const day = new Date(Date.now() - 3 * 3_600_000).toISOString().slice(0, 10);
    const journal = async (store: Store, n: number, customers: number, first = 0) => {
      for (let i = 0; i < n; i++) {
        const celular = phone(first + (i % customers));
        const valor = 500 + ((i * 37) % 9_000);
        const sentAt = Date.now();
        const res = await fetcher(
          new Request(`${ORIGIN}/api/v4/estabelecimentos/${EST}/fidelidade/pontuar`, {
            method: 'POST',
            headers: HEADERS,
            body: JSON.stringify({
              valor_gasto: valor,
              senha_atendente: ATTENDANT_PASSWORD,
              cliente: { celular },
            }),
          }),
        );
        const text = await res.text();
        if (res.status !== 200) throw new Error(`pontuar ${res.status} ${text}`);
        const endedAt = Date.now();
        const key = randomUUID();
        await store.db
          .insertInto('posting_journal')
          .values({
            key,
            establishment_id: EST,
            terminal_id: '1',
            request_id: key,
            fingerprint: 'bench',
            customer_key: celular,
            customer_name: null,
            amount: valor,
            state: 'lançado',
            reason: null,
            answer_status: 200,
            answer_body: text,
            snapshot: null,
            reading: null,
            points: Math.floor(valor / 100),
            lost_kind: null,
            created_at: sentAt,
            sent_at: sentAt,
            ended_at: endedAt,
            updated_at: endedAt,
            settled_at: endedAt,
            owner: null,
            lease_until: 0,
            next_check_at: null,
            body: null,
            secret: null,
          })
          .execute();
      }
    };
    const whole = await openStore({ sqlitePath: tmp.file('conferencia-app.db') });
    stores.push(whole);
    await journal(whole, o.postings, o.customers);
    const unbounded = await conferOnce(whole, fetcher, 1_000, day);
    // The pacing at 5 reads per second, on a sample of customers (a store of its own).
    const sample = await openStore({ sqlitePath: tmp.file('conferencia-sample.db') });
    stores.push(sample);
    await journal(sample, o.sampleCustomers * 2, o.sampleCustomers, o.customers);
    const paced = await conferOnce(sample, fetcher, 5, day);
    return {
      postings: unbounded.c!.lancamentos,
      customers: unbounded.c!.clientes,
      unboundedMs: unbounded.ms,
      reads: unbounded.c!.leituras,
      confirmed: unbounded.c!.confirmados,
      findings: unbounded.c!.achados.length,
      sampleCustomers: paced.c!.clientes,
      sampleMs: paced.ms,
      estimatedAt5Ms: Math.max(unbounded.ms, (unbounded.c!.clientes / 5) * 1000),
    };
  } finally {
    for (const s of stores) await s.close();
    sandbox.close();
  }
}
