// The store's PDV through the real app server (node dist-server/main.js, sandbox mode): the
// time from the PDV's `POST /api/integracao/vendas` to the `venda_pdv` event arriving on the
// paired counter's event stream (`GET /api/quiosque/eventos`, the counter's cookie), and, for a
// sale with a known customer's CPF, from the POST to an answer saying `lançada` (the POST's
// own answer, or the bounded long poll `GET …/vendas/{id}?aguardar=…` when it was not yet).
// One sale at a time, over loopback.

import { randomUUID } from 'node:crypto';
import { signCredential } from '../server/app/domain/credential';
import { addIntegration, enrollDirectly, openStore } from '../server/store';
import { startServer } from './server-process';

/** Maria, in the sandbox's seed. */
const MARIA_CPF = '52998224725';
const SECRET = 'bench-app-secret-0123456789abcdef';

export interface PdvBenchResult {
  /** POST → `venda_pdv` (aguardando) on the counter's stream, per sale (ms). */
  toCounterMs: number[];
  /** POST → an answer saying `lançada`, per sale with a known CPF (ms). */
  toPostedMs: number[];
  /** Of those, how many needed the long poll (the POST answered before the posting ended). */
  longPolls: number;
}

/** The counter's event stream: resolves each sale's `venda_pdv` by its `id_venda`. */
async function counterStream(url: string, cookie: string) {
  const waiting = new Map<string, (at: number) => void>();
  const early = new Map<string, number>();
  const abort = new AbortController();
  const res = await fetch(`${url}/api/quiosque/eventos`, {
    headers: { cookie, accept: 'text/event-stream' },
    signal: abort.signal,
  });
  if (!res.ok || res.body === null) throw new Error(`event stream: HTTP ${res.status}`);
  let ready: () => void = () => {};
  const isReady = new Promise<void>((resolve) => (ready = resolve));
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: '', done: true }));
      if (done) return;
      const at = performance.now();
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event === 'pronto') ready();
        if (event !== 'venda_pdv' || data === undefined) continue;
        const venda = JSON.parse(data) as { id_venda: string; estado: string };
        if (venda.estado !== 'aguardando') continue;
        const resolve = waiting.get(venda.id_venda);
        if (resolve) resolve(at);
        else early.set(venda.id_venda, at);
      }
    }
  })();
  await isReady;
  return {
    arrival(idVenda: string): Promise<number> {
      const at = early.get(idVenda);
      if (at !== undefined) return Promise.resolve(at);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no venda_pdv for ${idVenda}`)), 10_000);
        waiting.set(idVenda, (t) => {
          clearTimeout(timer);
          resolve(t);
        });
      });
    },
    close: () => abort.abort(),
  };
}

export async function pdvBench(
  root: string,
  files: { sandboxDb: string; appDb: string },
  options: { sales: number; posted: number; warmup: number },
): Promise<PdvBenchResult> {
  const server = await startServer(root, files.sandboxDb, {
    APP_DB: files.appDb,
    APP_SECRET: SECRET,
    // One PDV sending sales back to back: above its own limit otherwise (120 per 10 s).
    RATE_LIMIT_INTEGRACAO: '100000/10',
  });
  try {
    const store = await openStore({ sqlitePath: files.appDb });
    let cookie: string;
    let token: string;
    try {
      const counter = await enrollDirectly(store, { name: 'Caixa bench', role: 'caixa' });
      cookie =
        `pdv_terminal_${new URL(server.url).port}=` +
        signCredential(SECRET, counter.terminal.id, counter.nonce);
      token = (await addIntegration(store, { name: 'PDV bench', counterId: counter.terminal.id }))
        .token;
    } finally {
      await store.close();
    }
    const auth = { authorization: `Bearer ${token}` };
    const send = async (body: Record<string, unknown>) => {
      const res = await fetch(`${server.url}/api/integracao/vendas`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (res.status !== 201) throw new Error(`POST vendas: HTTP ${res.status}`);
      return ((await res.json()) as { data: { venda: { estado: string } } }).data.venda;
    };
    const stream = await counterStream(server.url, cookie);
    const toCounterMs: number[] = [];
    try {
      for (let i = 0; i < options.warmup + options.sales; i++) {
        const id = `bench-${randomUUID()}`;
        const t0 = performance.now();
        const arrived = stream.arrival(id);
        await send({ id_venda: id, valor_gasto: 1000 + i });
        const at = await arrived;
        if (i >= options.warmup) toCounterMs.push(at - t0);
      }
    } finally {
      stream.close();
    }
    const toPostedMs: number[] = [];
    let longPolls = 0;
    for (let i = 0; i < options.warmup + options.posted; i++) {
      const id = `bench-cpf-${randomUUID()}`;
      const t0 = performance.now();
      let venda = await send({ id_venda: id, valor_gasto: 500 + i, cpf: MARIA_CPF });
      if (venda.estado !== 'lançada') {
        longPolls += 1;
        const res = await fetch(`${server.url}/api/integracao/vendas/${id}?aguardar=20`, {
          headers: auth,
        });
        venda = ((await res.json()) as { data: { venda: { estado: string } } }).data.venda;
      }
      if (venda.estado !== 'lançada') throw new Error(`sale ${id} ended ${venda.estado}`);
      if (i >= options.warmup) toPostedMs.push(performance.now() - t0);
    }
    return { toCounterMs, toPostedMs, longPolls };
  } finally {
    await server.stop();
  }
}
