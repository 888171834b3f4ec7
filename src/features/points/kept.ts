// A sale taken while the service was down (contingency): the app server keeps it and
// delivers it when the service returns; the counter follows it while its panel is shown.
// Loaded only when a sale is kept (the counter's first load does not carry it).
import type { QueryClient } from '@tanstack/react-query';
import type { Lancamento } from '#contract/api/postings';
import { afterPosted, answeredNumber, fetchLancamento } from '@/features/points/api/post-points';
import type { PendingSale } from '@/features/points/pending-sale';

/**
 * A sale taken while the service was down (contingency): the app server keeps it and delivers
 * it when the service returns; the counter follows it while its panel is shown.
 */
export type Kept = {
  saleId: string;
  valor: number;
  celular: string;
  at: Date;
  /** waiting: kept, not delivered yet; posted: delivered; attention: refused at delivery. */
  state: 'waiting' | 'posted' | 'attention' | 'discarded';
  reason: string | null;
  id_cliente: number | null;
  saldo_atual: number | null;
  pontos: number | null;
};

/** Pauses between follow-ups of a kept sale (its delivery waits for the service). */
const KEPT_POLL_MS = 2_000;

/** What the journal says of a kept sale, for its panel. */
function keptFrom(sale: PendingSale, l: Lancamento): Kept {
  return {
    saleId: sale.id,
    valor: sale.body.valor_gasto,
    celular: sale.body.cliente.celular,
    at: new Date(sale.at),
    state:
      l.estado === 'lançado'
        ? 'posted'
        : l.estado === 'precisa de atenção'
          ? 'attention'
          : l.estado === 'descartado' || l.estado === 'recusado'
            ? 'discarded'
            : 'waiting',
    reason: l.motivo,
    id_cliente: answeredNumber(l, 'id_cliente') ?? l.cliente?.id_cliente ?? null,
    saldo_atual: answeredNumber(l, 'saldo_atual') ?? l.cliente?.saldo_atual ?? null,
    pontos: l.pontos,
  };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });
}

/** Shows the kept sale (`show`) and follows it until it is delivered or needs a manager. */
export async function followKept(
  sale: PendingSale,
  first: Lancamento,
  signal: AbortSignal,
  qc: QueryClient,
  show: (kept: Kept) => void,
): Promise<void> {
  let kept = keptFrom(sale, first);
  if (!signal.aborted) show(kept);
  while (kept.state === 'waiting' && !signal.aborted) {
    await sleep(KEPT_POLL_MS, signal);
    if (signal.aborted) return;
    try {
      kept = keptFrom(sale, await fetchLancamento(sale.id, { signal }));
    } catch {
      continue; // our server unreachable for a moment: the sale is safe there
    }
    if (signal.aborted) return;
    show(kept);
    if (kept.state === 'posted' && kept.id_cliente !== null) {
      void afterPosted(qc, {
        id_cliente: kept.id_cliente,
        saldo_atual: kept.saldo_atual ?? 0,
        saldo_carencia: 0,
      });
    }
  }
}
