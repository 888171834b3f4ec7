/**
 * The chain's view (the `rede` role, docs/operations/chain.md): the stores the deployment
 * serves and the roll-up of a period, each store's row taken from that store's own dashboard
 * (domain/painel.ts, run by the store's app: its journal, its PDV, its conferência, its
 * Vigilância, and its service read with its own token) and summed. The stores are read a few
 * at a time; a store that fails or is too slow is `indisponivel` in its row and the others
 * still show.
 */
import type { PainelPeriod, PainelWire } from '#contract/api/painel';
import type { RedeLojas, RedePainelWire } from '#contract/api/rede';

/** What the chain's dispatcher (app/chain.ts) offers every store's app. */
export interface ChainNetwork {
  /** The stores served now: the default one first, then by establishment id. */
  stores(): Promise<{ id: number; nome: string | null; padrao: boolean }[]>;
  /** One store's dashboard of a period, as its own app computes it (throws when it cannot). */
  painel(id: number, period: PainelPeriod): Promise<PainelWire>;
}

/** How many stores are read at once, and the longest wait for one. */
export const ROLLUP_CONCURRENCY = 4;
export const ROLLUP_STORE_TIMEOUT_MS = 8_000;

type Row = RedePainelWire['lojas'][number];
type Figures = NonNullable<Row['figuras']>;

const storeName = (s: { id: number; nome: string | null }) => s.nome ?? `Loja ${s.id}`;

export async function redeLojas(network: ChainNetwork): Promise<RedeLojas> {
  const stores = await network.stores();
  return { lojas: stores.map((s) => ({ id: s.id, nome: storeName(s), padrao: s.padrao })) };
}

/** The figures of one store's dashboard that the roll-up shows. */
function figuresOf(p: PainelWire): Figures {
  return {
    lancamentos: p.totais.lancamentos,
    pontos: p.totais.pontos,
    valor: p.totais.valor,
    pdv_vendas: p.pdv?.total ?? 0,
    pdv_identificadas: p.pdv?.identificadas ?? 0,
    guardadas: p.guardadas.total,
    achados: (p.conferencias ?? []).reduce((n, c) => n + c.achados, 0),
    alertas_abertos: p.alertas_abertos?.total ?? 0,
  };
}

/** Runs `work` over `items`, at most `limit` at a time, keeping their order. */
async function bounded<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** One store's row: its figures, or `indisponivel` when its app failed or was too slow. */
async function rowOf(
  network: ChainNetwork,
  store: { id: number; nome: string | null },
  period: PainelPeriod,
  timeoutMs: number,
): Promise<Row> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
  });
  try {
    const p = await Promise.race([network.painel(store.id, period), late]);
    const premios =
      p.premios === null
        ? null
        : { aguardando_retirada: p.premios.aguardando_retirada, vencendo: p.premios.vencendo };
    return { id: store.id, nome: storeName(store), situacao: 'ok', figuras: figuresOf(p), premios };
  } catch {
    return {
      id: store.id,
      nome: storeName(store),
      situacao: 'indisponivel',
      figuras: null,
      premios: null,
    };
  } finally {
    clearTimeout(timer);
  }
}

/** The chain's roll-up of a period: every store's row and the sums of those that answered. */
export async function redePainel(
  network: ChainNetwork,
  period: PainelPeriod,
  options: { concurrency?: number; timeoutMs?: number } = {},
): Promise<Omit<RedePainelWire, 'de' | 'ate'>> {
  const stores = await network.stores();
  const lojas = await bounded(stores, options.concurrency ?? ROLLUP_CONCURRENCY, (s) =>
    rowOf(network, s, period, options.timeoutMs ?? ROLLUP_STORE_TIMEOUT_MS),
  );
  const sum: Figures = {
    lancamentos: 0,
    pontos: 0,
    valor: 0,
    pdv_vendas: 0,
    pdv_identificadas: 0,
    guardadas: 0,
    achados: 0,
    alertas_abertos: 0,
  };
  const premios = { aguardando_retirada: 0, vencendo: 0, lojas: 0 };
  for (const row of lojas) {
    if (row.figuras !== null) {
      for (const key of Object.keys(sum) as (keyof Figures)[]) sum[key] += row.figuras[key];
    }
    if (row.premios !== null) {
      premios.aguardando_retirada += row.premios.aguardando_retirada;
      premios.vencendo += row.premios.vencendo;
      premios.lojas += 1;
    }
  }
  const down = lojas.filter((l) => l.situacao === 'indisponivel').length;
  return {
    lojas,
    totais: { ...sum, lojas: lojas.length, lojas_indisponiveis: down, premios },
  };
}
