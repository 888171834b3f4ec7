// What the counter shows as a posting's answer comes: the journal's state of the sale, the
// posted sale (then the customer's refresh and the rewards it won), a kept sale, a refusal.
// Part of the posting flow's chunk (posting-flow.ts sends and follows; this shows).
import type { Customer, RewardRecord } from '@/api/schemas';
import { toApiError, type ApiError } from '@/api/errors';
import type { Lancamento } from '#contract/api/postings';
import {
  answeredNumber,
  applyPointsResult,
  type Posted as PostedAnswer,
} from '@/features/points/api/post-points';
import { pendingRewardsQuery } from '@/features/points/api/pending-rewards';
import { clearPendingSale, type PendingSale } from '@/features/points/pending-sale';
import type { FlowContext, Posted, Snapshot } from '@/features/points/posting-types';
import { REWARD_CATEGORIES } from '#contract/wire';

/**
 * The points a purchase earned, from a read of its customer after it: the newest credit of
 * the history, when exactly this one purchase was added since `before` (else unknown).
 */
export function earnedFrom(before: Snapshot, after: Customer): number | null {
  if (after.compras !== (before?.compras ?? 0) + 1 || !after.ultima_compra) return null;
  const credit = after.carteira.historico?.find((e) => e.tipo.toLowerCase() === 'credito');
  return credit?.pontos ?? null;
}

/** Rewards ever won, over the five categories (`conquistados_*`). */
export function rewardsWon(customer: Customer): number {
  return REWARD_CATEGORIES.reduce((sum, cat) => sum + (customer[`conquistados_${cat}`] ?? 0), 0);
}

/** The `count` rewards a posting won: the newest of those waiting (newest first). */
function newestOf(records: readonly RewardRecord[], count: number): RewardRecord[] {
  const newestFirst = (a: RewardRecord, b: RewardRecord) =>
    (a.data_conquista < b.data_conquista ? 1 : a.data_conquista > b.data_conquista ? -1 : 0) ||
    b.id_premio_cliente - a.id_premio_cliente;
  return [...records].sort(newestFirst).slice(0, count);
}

/** The result of a posting the journal says landed. */
function postedFrom(sale: PendingSale, l: Lancamento): Posted {
  return {
    saleId: sale.id,
    id_cliente:
      answeredNumber(l, 'id_cliente') ?? l.cliente?.id_cliente ?? sale.before?.id_cliente ?? 0,
    id_ponto: answeredNumber(l, 'id_ponto'),
    saldo_atual: answeredNumber(l, 'saldo_atual') ?? l.cliente?.saldo_atual ?? 0,
    saldo_carencia: answeredNumber(l, 'saldo_carencia') ?? l.cliente?.saldo_carencia ?? 0,
    valor: sale.body.valor_gasto,
    pontos: l.pontos,
    at: new Date(),
    verified: true,
    rewards: { state: 'checking' },
  };
}

/** The result of a posting the service answered at once. */
export function postedFromResult(sale: PendingSale, result: PostedAnswer): Posted {
  return {
    saleId: sale.id,
    id_cliente: result.id_cliente,
    id_ponto: result.id_ponto,
    saldo_atual: result.saldo_atual,
    saldo_carencia: result.saldo_carencia,
    valor: sale.body.valor_gasto,
    pontos: result.resultado.pontos,
    at: new Date(),
    verified: false,
    rewards: { state: 'checking' },
  };
}

/** Whether the posting is settled, and the refusal to hand back when it was refused. */
export type Outcome = { done: false } | { done: true; error: ApiError | null };

/** The steps that show a posting's answer, on the posting hook's state and refs. */
export function createPostingAnswers(ctx: FlowContext) {
  const { qc, setPhase, landed, shown, keptFollow } = ctx;
  const depsRef = ctx.deps;

  /** Shows a kept sale and follows it until it settles (its code loads only then). */
  const showKept = (sale: PendingSale, l: Lancamento) => {
    landed.current = true;
    clearPendingSale(sale.id);
    keptFollow.current?.abort();
    const ac = new AbortController();
    keptFollow.current = ac;
    void import('@/features/points/kept').then((m) =>
      // Aborted by the next customer (reset): it never shows over another sale.
      m.followKept(sale, l, ac.signal, qc, (kept) => setPhase({ name: 'kept', kept })),
    );
  };

  /**
   * The rewards the posting won, by the customer's counters before and after it; when some
   * were, the customer's rewards waiting are read again (once: the panel's list and these).
   */
  const findRewards = async (before: Snapshot, after: Customer | null, posted: Posted) => {
    if (!after) return { state: 'unknown' as const };
    const count = rewardsWon(after) - (before?.won ?? 0);
    if (count <= 0) return { state: 'done' as const, count: 0, names: [], records: [] };
    try {
      const page = await qc.fetchQuery({ ...pendingRewardsQuery(posted.id_cliente), staleTime: 0 });
      const records = newestOf(page.data, count);
      return { state: 'done' as const, count, names: records.map((r) => r.nome), records };
    } catch {
      return { state: 'done' as const, count, names: [], records: [] };
    }
  };

  /**
   * Shows the posted sale from its answer at once; then the customer's one refresh (the
   * panel's), which also tells the points when the answer did not, and the rewards won.
   */
  const settle = async (posted: Posted, sale: PendingSale) => {
    const before = sale.before;
    landed.current = true;
    shown.current = posted.saleId;
    setPhase({ name: 'posted', posted });
    applyPointsResult(qc, posted);
    let after: Customer | null;
    try {
      after = await depsRef.current.reread({ celular: sale.body.cliente.celular });
    } catch {
      after = null;
    }
    // The cashier went on to the next customer while the refresh was out: this customer's
    // panel must not open again over theirs.
    if (shown.current !== posted.saleId) return;
    // A customer the posting registered opens from what was just read.
    depsRef.current.onPosted?.(posted);
    const pontos = posted.pontos ?? (after ? earnedFrom(before, after) : null);
    const rewards = await findRewards(before, after, posted);
    setPhase((p) =>
      p.name === 'posted' && p.posted.saleId === posted.saleId
        ? { name: 'posted', posted: { ...p.posted, pontos, rewards } }
        : p,
    );
  };

  const refused = (sale: PendingSale, error: ApiError): { done: true; error: ApiError } => {
    clearPendingSale(sale.id);
    if (error.fieldErrors.senha_atendente) depsRef.current.onPasswordRejected();
    setPhase({ name: 'failed', error });
    return { done: true, error };
  };

  /** Shows what the journal says; done when the posting is settled. */
  const apply = (sale: PendingSale, l: Lancamento): Outcome => {
    // Its answer lost as the service went down: kept, checked and delivered by the server.
    if (l.guardado && (l.estado === 'verificando' || l.estado === 'desconhecido')) {
      showKept(sale, l);
      return { done: true, error: null };
    }
    switch (l.estado) {
      case 'lançado':
        clearPendingSale(sale.id);
        void settle(postedFrom(sale, l), sale);
        return { done: true, error: null };
      case 'recusado':
        if (l.resposta) {
          return refused(sale, toApiError(l.resposta.status, JSON.stringify(l.resposta.corpo)));
        }
        clearPendingSale(sale.id);
        setPhase({ name: 'not-posted', reason: l.motivo });
        return { done: true, error: null };
      case 'enviando':
        setPhase({ name: 'sending' });
        return { done: false };
      case 'verificando':
        setPhase({ name: 'verifying' });
        return { done: false };
      case 'desconhecido':
        setPhase({ name: 'unknown', reason: l.motivo });
        return { done: false };
      default:
        // Kept while the service is down (or, later, needing a manager): nothing to send.
        showKept(sale, l);
        return { done: true, error: null };
    }
  };

  return { apply, settle, refused };
}
