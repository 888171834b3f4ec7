// The sandbox at a big chain's scale (`npm run bench -- --scale`): lookups among a million
// customers and pages of a two-million-record reward list, in process (`app.fetch`), against
// a database built by ./scale-db.

import { openSandbox } from '../server/sandbox/sandbox';
import { ACCESS_TOKEN, APP_TOKEN, EST } from './requests';
import type { ScaleDb } from './scale-db';
import { quantile } from './stats';

const ORIGIN = 'http://sandbox.bench';
const HEADERS = {
  'content-type': 'application/json',
  'app-token': APP_TOKEN,
  'access-token': ACCESS_TOKEN,
};

export interface LatencySet {
  label: string;
  n: number;
  p50: number;
  p99: number;
  max: number;
}

export interface ScaleResult {
  lookups: LatencySet[];
  lists: LatencySet[];
  /** Every list request, all variants together. */
  listAll: LatencySet;
}

function latencies(label: string, samples: number[]): LatencySet {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    label,
    n: sorted.length,
    p50: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    max: sorted[sorted.length - 1] ?? Number.NaN,
  };
}

/** The list variants measured: every filter alone, some together, on a fixed clock. */
export const LIST_VARIANTS: readonly { label: string; query: string }[] = [
  { label: 'no filter', query: '' },
  { label: 'status=expirado', query: 'status=expirado' },
  { label: 'status=pendente_resgate', query: 'status=pendente_resgate' },
  { label: 'status=resgatado', query: 'status=resgatado' },
  { label: 'status=estornado', query: 'status=estornado' },
  { label: 'categoria=brinde_roleta', query: 'categoria=brinde_roleta' },
  { label: 'q=caneca', query: 'q=caneca' },
  { label: 'data_conquista, one month', query: 'data_inicio=2026-03-01&data_fim=2026-03-31' },
  {
    label: 'valido_ate, one year + expirado',
    query: 'filtrar_por=valido_ate&data_inicio=2025-06-01&data_fim=2026-05-31&status=expirado',
  },
  {
    label: 'data_resgate, one year',
    query: 'filtrar_por=data_resgate&data_inicio=2025-06-01&data_fim=2026-05-31',
  },
  {
    label: 'estornado_em, two years + categoria',
    query:
      'filtrar_por=estornado_em&data_inicio=2024-11-01&data_fim=2026-11-30&categoria=premio_game',
  },
  { label: 'categoria + status', query: 'categoria=premio_surpresa&status=resgatado' },
];

export async function scaleBench(
  dbPath: string,
  built: ScaleDb,
  o: { nowIso: string; lookups: number; pagesPerVariant: number },
): Promise<ScaleResult> {
  const sandbox = openSandbox({ dbPath, now: () => new Date(o.nowIso) });
  const timed = async (req: () => Request, what: string): Promise<number> => {
    const t0 = performance.now();
    const res = await sandbox.app.fetch(req());
    const text = await res.text();
    const ms = performance.now() - t0;
    if (res.status !== 200) throw new Error(`${what}: HTTP ${res.status} ${text.slice(0, 200)}`);
    return ms;
  };
  try {
    const lookupPath = `${ORIGIN}/api/v4/estabelecimentos/${EST}/clientes/buscar`;
    const lookups: LatencySet[] = [];
    for (const by of ['celular', 'cpf', 'id_cliente'] as const) {
      const samples: number[] = [];
      for (let i = 0; i < o.lookups; i++) {
        const c = built.samples[(i * 37) % built.samples.length];
        if (c === undefined) throw new Error('no sample customers');
        const value = by === 'celular' ? c.celular : by === 'cpf' ? c.cpf : c.id;
        samples.push(
          await timed(
            () =>
              new Request(lookupPath, {
                method: 'POST',
                headers: HEADERS,
                body: JSON.stringify({ [by]: value }),
              }),
            `lookup by ${by}`,
          ),
        );
      }
      lookups.push(latencies(`lookup by ${by}`, samples));
    }

    const listPath = `${ORIGIN}/api/v4/estabelecimentos/${EST}/recompensas`;
    const lists: LatencySet[] = [];
    const every: number[] = [];
    const get = (query: string): Request =>
      new Request(`${listPath}?${query}`, { headers: HEADERS });
    // A client customer with several records, for the id_cliente variant.
    const variants = [
      ...LIST_VARIANTS,
      {
        label: `id_cliente=${built.samples[1]?.id ?? 1}`,
        query: `id_cliente=${built.samples[1]?.id ?? 1}`,
      },
    ];
    for (const v of variants) {
      const sep = v.query === '' ? '' : '&';
      // The last page from page 1's envelope, then pages spread from first to last.
      const first = await sandbox.app.fetch(get(`${v.query}${sep}itens_por_pagina=50`));
      const env = (await first.json()) as { data: { last_page: number } };
      const last = env.data.last_page;
      const samples: number[] = [];
      for (let i = 0; i < o.pagesPerVariant; i++) {
        // 1, last, then a walk through the middle: the deep pages are the costly ones.
        const page =
          i === 0
            ? 1
            : i === 1
              ? last
              : 1 + Math.floor(((i * 7919) % o.pagesPerVariant) * (last / o.pagesPerVariant));
        samples.push(
          await timed(
            () => get(`${v.query}${sep}itens_por_pagina=50&page=${page}`),
            `list ${v.label} page ${page}`,
          ),
        );
      }
      every.push(...samples);
      lists.push(latencies(v.label, samples));
    }
    return { lookups, lists, listAll: latencies('every list request', every) };
  } finally {
    sandbox.close();
  }
}
